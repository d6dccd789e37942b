// A program built with -fheapprof run under heapprof run: its own runtime
// (exported from the executable) preempts the preloaded one, so there is one
// runtime, one profile, with access counts, in heapprof run's -o DIR.
// REQUIRES: heapprof-driver
// RUN: rm -rf %t.dir
// RUN: %clang_heapprof -O0 -g %s -o %t
// RUN: env -u LD_PRELOAD heapprof run -o %t.dir -- %t
// RUN: ls %t.dir | count 1
// RUN: heapprof report --full %t.dir | FileCheck %s
// 7 chunks of 40 bytes, 10 stores each:
// CHECK: allocations      7 objects, 280 bytes
// CHECK: accesses         70
#include <stdlib.h>

int main(void) {
  for (int i = 0; i < 7; i++) {
    long *volatile p = malloc(40);
    for (int j = 0; j < 10; j++)
      p[j % 5] = j;
    free(p);
  }
  return 0;
}
