// heapprof html leaves out of the page's flame graph the frames under 0.01%
// of every weight (allocs, bytes, accesses, live bytes), so a profile of
// many small contexts makes a small page; the page says how many it shows.
// Here big() allocates 20000 x 100 bytes and tiny() once 1 byte (1/20001 of
// the allocations, 1/2000001 of the bytes; nothing is accessed or live):
// of the three frames main, main;big, main;tiny, tiny is left out.
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: %clang_heapprof -O0 -g %s -o %t
// RUN: %env_heapprof_opts=profile_dir=%t.dir %run %t
// RUN: heapprof html -o %t.html %t.dir
// RUN: %python %S/Inputs/html-flamedata.py %t.html | FileCheck %s
// CHECK: frames 3, shown 2
// CHECK-NEXT: weights allocs bytes
// CHECK-NEXT: all allocs=20001 bytes=2000001
// CHECK-NEXT: all;main allocs=20001 bytes=2000001
// CHECK-NEXT: all;main;big allocs=20000 bytes=2000000
// CHECK-NEXT: end
// The report's tables still have every context.
// RUN: heapprof report --top 0 %t.dir | FileCheck %s --check-prefix=REPORT
// REPORT: 1 B in 1 object
// REPORT-NEXT: tiny
#include <stdlib.h>

__attribute__((noinline)) void big(void) {
  for (int i = 0; i < 20000; i++) {
    char *volatile p = malloc(100);
    free(p);
  }
}

__attribute__((noinline)) void tiny(void) {
  char *volatile p = malloc(1);
  free(p);
}

int main(void) {
  big();
  tiny();
  return 0;
}
