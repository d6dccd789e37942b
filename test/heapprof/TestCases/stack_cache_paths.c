// The stack-id cache (heapprof_stack.c) answers from what the previous walk
// from the same frame read; two call paths that agree in their first frames
// (same frame addresses, same return addresses into leaf and mid) and differ
// only further up (via_a or via_b) must still get two stack ids, with every
// allocation counted in its own: 300 through via_a, 200 through via_b,
// interleaved, so each path finds the other's entry in the cache at times.
// RUN: %clang_heapprof -O0 %s -o %t
// RUN: %env_heapprof_opts=log_path=stderr %run %t 2>&1 | FileCheck %s
// And without folding, a recursive builder (every path a context): 3 trees
// of 15 nodes, built from the same frame each time, give 15 contexts of 3.
// RUN: %env_heapprof_opts=log_path=stderr:fold_recursion=0:print_terse=1 %run %t tree 2>&1 | FileCheck %s --check-prefix=TREE
#include <stdlib.h>
#include <string.h>

__attribute__((noinline)) void *leaf(void) { return malloc(24); }
__attribute__((noinline)) void *mid(void) { return leaf(); }
__attribute__((noinline)) void *via_a(void) { return mid(); }
__attribute__((noinline)) void *via_b(void) { return mid(); }

struct node {
  struct node *l, *r;
};
__attribute__((noinline)) struct node *build(int d) {
  struct node *n = malloc(sizeof *n);
  n->l = d ? build(d - 1) : 0;
  n->r = d ? build(d - 1) : 0;
  return n;
}
__attribute__((noinline)) void drop(struct node *n) {
  if (n) {
    drop(n->l);
    drop(n->r);
    free(n);
  }
}

int main(int argc, char **argv) {
  if (argc > 1 && !strcmp(argv[1], "tree")) {
    for (int i = 0; i < 3; i++)
      drop(build(3)); // 1 + 2 + 4 + 8 = 15 nodes
    return 0;
  }
  for (int i = 0; i < 500; i++) {
    // a a b a b, a a b a b, ...: runs of one path and alternations.
    int k = i % 5;
    void *volatile p = (k == 2 || k == 4) ? via_b() : via_a();
    free(p);
  }
  return 0;
}
// CHECK: Recorded MIBs
// CHECK: Memory allocation stack id = [[A:[0-9]+]]
// CHECK-NEXT: alloc_count 300, size (ave/min/max) 24.00 / 24 / 24
// CHECK: Memory allocation stack id = [[B:[0-9]+]]
// CHECK-NEXT: alloc_count 200, size (ave/min/max) 24.00 / 24 / 24
// CHECK-NOT: Memory allocation stack id
// CHECK: Stack for id [[A]]:
// CHECK-NEXT: #0 {{.*}} in leaf
// CHECK-NEXT: #1 {{.*}} in mid
// CHECK-NEXT: #2 {{.*}} in via_a
// CHECK: Stack for id [[B]]:
// CHECK-NEXT: #0 {{.*}} in leaf
// CHECK-NEXT: #1 {{.*}} in mid
// CHECK-NEXT: #2 {{.*}} in via_b

// TREE: Summary: 15 contexts, 45 allocations, 720 bytes
