// A program whose file name is not valid UTF-8 (a Latin-1 name, bytes
// 0xff 0xfe) beside a valid UTF-8 one (U+00E9, 0xc3 0xa9): the text report
// printed the invalid bytes as they are, and an error quoting such a name
// (a path from a damaged profile, or given on the command line) wrote them
// to the terminal raw.  The report now shows each byte of no valid sequence
// as '?' (one byte for one), keeping valid UTF-8, and so does heapprof
// show; an error shows it as \xHH, as it does a control character.  A C1
// control (U+009B, the 8-bit CSI: 0xc2 0x9b) is a control character in
// both.  (pprof makes such bytes U+FFFD, as JSON and HTML do:
// pprof-utf8.test.)
// RUN: %clang_heapprof -O0 -g %s -o %t
// RUN: rm -rf %t.dir %t.d && mkdir -p %t.dir
// RUN: sh -c 'cp %t "%t.dir/new$(printf "\377\376")x$(printf "\303\251")"'
// RUN: sh -c 'HEAPPROF_OPTIONS=profile_dir=%t.d "%t.dir/new$(printf "\377\376")x$(printf "\303\251")"'
// RUN: heapprof report %t.d > %t.out
// RUN: FileCheck %s < %t.out
// The 0xff byte nowhere in the report; the valid one kept.
// RUN: sh -c '! grep -q "$(printf "\377")" %t.out'
// RUN: sh -c 'grep -q "new??x$(printf "\303\251") pid" %t.out'
// CHECK: process {{.*}}.dir/new??x{{.+}} pid {{[0-9]+}}, 1 dump
// CHECK: program {{.*}}.dir/new??x{{.+}} (build id
// heapprof show prints the module's path and the command line so too.
// RUN: heapprof show %t.d/*.profraw > %t.show
// RUN: sh -c '! grep -q "$(printf "\377")" %t.show'
// RUN: FileCheck --check-prefix=SHOW %s < %t.show
// SHOW: module 0: {{.*}}.dir/new??x{{.+}} bias
// SHOW: command: {{.*}}.dir/new??x{{.+}}
//
// An input that does not exist, named with the same bytes and a C1 control:
// one error line, the invalid bytes and the control escaped.
// RUN: sh -c 'heapprof report "%t.none$(printf "\377")x$(printf "\303\251\302\233")" 2> %t.err; test $? = 1'
// RUN: sh -c '! grep -q "$(printf "\377")" %t.err'
// RUN: sh -c '! grep -q "$(printf "\302\233")" %t.err'
// RUN: sh -c 'grep -qF "none\\xffx$(printf "\303\251")\\xc2\\x9b: cannot open" %t.err'
// RUN: sh -c 'test "$(wc -l < %t.err)" = 1'
#include <stdlib.h>

int main(void) {
  char *volatile p = malloc(10);
  p[0] = 1;
  return 0;
}
