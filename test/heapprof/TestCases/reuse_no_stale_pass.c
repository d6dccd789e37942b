// Reference §7.1 with real instrumentation: three sites of 4, 8 and 24 bytes
// (one size class), five lives each on the same block, 300 instrumented
// stores per life.  Every allocation must report exactly 300.
// REQUIRES: heapprof-driver
// RUN: %clang_heapprof -O0 %s -o %t0
// RUN: %env_heapprof_opts=log_path=stderr %run %t0 2>&1 | FileCheck %s
// RUN: %clang_heapprof -O2 %s -o %t2
// RUN: %env_heapprof_opts=log_path=stderr %run %t2 2>&1 | FileCheck %s
#include <stdlib.h>

__attribute__((noinline)) char *site4(void) { return malloc(4); }
__attribute__((noinline)) char *site8(void) { return malloc(8); }
__attribute__((noinline)) char *site24(void) { return malloc(24); }

__attribute__((noinline)) static void life(char *(*site)(void), int size) {
  // Unrolled, the loop would give each life its own call site (context).
#pragma clang loop unroll(disable)
  for (int r = 0; r < 5; r++) {
    char *volatile p = site();
    for (int k = 0; k < 300; k++)
      p[k % size] = (char)k;
    free(p);
  }
}

int main(void) {
  life(site4, 4);
  life(site8, 8);
  life(site24, 24);
  return 0;
}
// CHECK: Memory allocation stack id = [[S4:[0-9]+]]
// CHECK-NEXT: alloc_count 5, size (ave/min/max) 4.00 / 4 / 4
// CHECK-NEXT: access_count (ave/min/max): 300.00 / 300 / 300
// CHECK: Memory allocation stack id = [[S8:[0-9]+]]
// CHECK-NEXT: alloc_count 5, size (ave/min/max) 8.00 / 8 / 8
// CHECK-NEXT: access_count (ave/min/max): 300.00 / 300 / 300
// CHECK: Memory allocation stack id = [[S24:[0-9]+]]
// CHECK-NEXT: alloc_count 5, size (ave/min/max) 24.00 / 24 / 24
// CHECK-NEXT: access_count (ave/min/max): 300.00 / 300 / 300
// CHECK: Stack for id [[S4]]:
// CHECK-NEXT: in site4
// CHECK: Stack for id [[S8]]:
// CHECK-NEXT: in site8
// CHECK: Stack for id [[S24]]:
// CHECK-NEXT: in site24
// CHECK: Summary: 3 contexts, 15 allocations, 180 bytes, 4500 accesses
