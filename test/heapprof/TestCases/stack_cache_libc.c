// Allocations below a libc function without frame pointers (bsearch calls
// its comparator once for a one-element array): the walk steps over
// bsearch's frame by its CFI, reading words that are not a (saved rbp,
// return address) pair, which the stack-id cache (heapprof_stack.c)
// compares one by one.  Two callers of bsearch, in the order a a b a b,
// 100 times: 300 allocations through via_a, 200 through via_b, each
// counted in its own context, and exactly two contexts.
// RUN: %clang_heapprof -O0 %s -o %t
// RUN: %env_heapprof_opts=log_path=stderr %run %t 2>&1 | FileCheck %s
#include <stdlib.h>

__attribute__((noinline)) static int cmp(const void *a, const void *b) {
  void *volatile p = malloc(56);
  free(p);
  return *(const int *)a - *(const int *)b;
}
__attribute__((noinline)) void via_a(void) {
  int key = 1, one = 1;
  if (!bsearch(&key, &one, 1, sizeof one, cmp))
    abort();
}
__attribute__((noinline)) void via_b(void) {
  int key = 1, one = 1;
  if (!bsearch(&key, &one, 1, sizeof one, cmp))
    abort();
}

int main(void) {
  for (int i = 0; i < 500; i++) {
    int k = i % 5;
    if (k == 2 || k == 4)
      via_b();
    else
      via_a();
  }
  return 0;
}
// CHECK: Recorded MIBs
// CHECK: Memory allocation stack id = [[A:[0-9]+]]
// CHECK-NEXT: alloc_count 300, size (ave/min/max) 56.00 / 56 / 56
// CHECK: Memory allocation stack id = [[B:[0-9]+]]
// CHECK-NEXT: alloc_count 200, size (ave/min/max) 56.00 / 56 / 56
// CHECK-NOT: Memory allocation stack id
// CHECK: Stack for id [[A]]:
// CHECK-NEXT: #0 {{.*}} in cmp
// CHECK-NEXT: #1 {{.*}} in bsearch
// CHECK-NEXT: #2 {{.*}} in via_a
// CHECK: Stack for id [[B]]:
// CHECK-NEXT: #0 {{.*}} in cmp
// CHECK-NEXT: #1 {{.*}} in bsearch
// CHECK-NEXT: #2 {{.*}} in via_b
