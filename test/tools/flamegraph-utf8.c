// heapprof flamegraph --svg: the SVG is XML, which must be well-formed
// UTF-8 or a browser shows its parse error instead of the graph.  A frame's
// label was cut to its width by bytes, in the middle of a character of a
// name written in CJK; and a name with bytes that are not UTF-8 (the
// module of an unnamed frame, from a file name in Latin-1) went in as it
// was.  Now labels are cut after a whole character, counted in characters,
// and such bytes are U+FFFD, as in the pprof export and the HTML page.
//
// Three callees of main, 100 x malloc(10) each: 1000 bytes of 3000, each
// frame 1180 / 3 = 393.33 wide, room for (393.33 - 6) / 6.6 = 58
// characters.  f0's name is 43 characters (3 ASCII, 40 of 3 bytes): whole.
// f1's and f2's are 74 and 75: cut to 56 characters and "..".
// RUN: rm -rf %t.d %t.lat && mkdir -p %t.d %t.lat
// RUN: %clang_heapprof -O0 -g %s -o %t
// RUN: %env_heapprof_opts=profile_dir=%t.d %run %t
// RUN: heapprof flamegraph --svg -o %t.svg %t.d
// RUN: %python -c "import sys, xml.etree.ElementTree as E; [print('text', t.text) for t in E.parse(sys.argv[1]).iter('{http://www.w3.org/2000/svg}text')]" %t.svg | FileCheck %s
// CHECK: text main
// CHECK-NEXT: text f0_漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢{{$}}
// CHECK-NEXT: text f1_x漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢..{{$}}
// CHECK-NEXT: text f2_xx漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢..{{$}}
//
// A stripped program whose file name ends in the Latin-1 byte 0xE9: its
// frame is named "lat\xE9+0x...", which the SVG writes "lat\uFFFD+0x...".
// RUN: sh -c '%clang_heapprof -O0 -s %S/Inputs/one-alloc.c -o "%t.lat/lat$(printf "\351")"'
// RUN: sh -c 'HEAPPROF_OPTIONS=profile_dir=%t.lat "%t.lat/lat$(printf "\351")"'
// RUN: heapprof flamegraph --svg -o %t.lat.svg %t.lat
// RUN: %python -c "import sys, xml.etree.ElementTree as E; [print('title', t.text) for t in E.parse(sys.argv[1]).iter('{http://www.w3.org/2000/svg}title')]" %t.lat.svg | FileCheck %s --check-prefix=LATIN1
// LATIN1: title lat�+0x{{[0-9a-f]+}} (24 bytes, 100.00%)
#include <stdlib.h>

void *volatile sink;

__attribute__((noinline)) void f0_漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢(void) {
  for (int i = 0; i < 100; i++)
    sink = malloc(10);
}
__attribute__((noinline)) void f1_x漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢(void) {
  for (int i = 0; i < 100; i++)
    sink = malloc(10);
}
__attribute__((noinline)) void f2_xx漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢(void) {
  for (int i = 0; i < 100; i++)
    sink = malloc(10);
}

int main(void) {
  f0_漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢();
  f1_x漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢();
  f2_xx漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢();
  return 0;
}
