// The stack-id cache (heapprof_stack.c) keeps two walks per (entry frame,
// return address): an interpreter allocates through one wrapper from one
// place, so paths that part just above the wrapper share both and
// alternate.  Here wrap() is called by c1, c2 and c3, at the same depth
// (same frames, so the same fp and return address in malloc's frame), in
// the order 1 2 1 2 3 1, 100 times: c1 300 allocations, c2 200, c3 100.
// Strict alternation of 1 and 2 hits the way used last only every other
// time, and c3 evicts one of them; every allocation must still be counted
// in its own context, and there are exactly three.
// RUN: %clang_heapprof -O0 %s -o %t
// RUN: %env_heapprof_opts=log_path=stderr %run %t 2>&1 | FileCheck %s
#include <stdlib.h>

__attribute__((noinline)) void *wrap(void) { return malloc(40); }
__attribute__((noinline)) void *c1(void) { return wrap(); }
__attribute__((noinline)) void *c2(void) { return wrap(); }
__attribute__((noinline)) void *c3(void) { return wrap(); }

int main(void) {
  static const int order[6] = {1, 2, 1, 2, 3, 1};
  for (int i = 0; i < 600; i++) {
    int c = order[i % 6];
    void *volatile p = c == 1 ? c1() : c == 2 ? c2() : c3();
    free(p);
  }
  return 0;
}
// CHECK: Recorded MIBs
// CHECK: Memory allocation stack id = [[A:[0-9]+]]
// CHECK-NEXT: alloc_count 300, size (ave/min/max) 40.00 / 40 / 40
// CHECK: Memory allocation stack id = [[B:[0-9]+]]
// CHECK-NEXT: alloc_count 200, size (ave/min/max) 40.00 / 40 / 40
// CHECK: Memory allocation stack id = [[C:[0-9]+]]
// CHECK-NEXT: alloc_count 100, size (ave/min/max) 40.00 / 40 / 40
// CHECK-NOT: Memory allocation stack id
// CHECK: Stack for id [[A]]:
// CHECK-NEXT: #0 {{.*}} in wrap
// CHECK-NEXT: #1 {{.*}} in c1
// CHECK: Stack for id [[B]]:
// CHECK-NEXT: #0 {{.*}} in wrap
// CHECK-NEXT: #1 {{.*}} in c2
// CHECK: Stack for id [[C]]:
// CHECK-NEXT: #0 {{.*}} in wrap
// CHECK-NEXT: #1 {{.*}} in c3
