// Recursion folding: a tree builder recursing through two call sites makes
// one context per left/right path (2^depth) without folding; with folding
// (the default) a frame repeating one of the 8 before it is dropped, and the
// whole tree is a handful of contexts.
// RUN: %clang_heapprof -O0 %s -o %t
// RUN: %env_heapprof_opts=log_path=stderr:print_terse=1 %run %t 2>&1 | FileCheck %s --check-prefix=FOLD
// RUN: %env_heapprof_opts=log_path=stderr:print_terse=1:fold_recursion=0 %run %t 2>&1 | FileCheck %s --check-prefix=NOFOLD
#include <stdlib.h>

struct node {
  struct node *l, *r;
};

__attribute__((noinline)) struct node *build(int d) {
  struct node *n = malloc(sizeof *n);
  n->l = d ? build(d - 1) : 0; // call site L
  n->r = d ? build(d - 1) : 0; // call site R
  return n;
}

__attribute__((noinline)) void drop(struct node *n) {
  if (!n)
    return;
  drop(n->l);
  drop(n->r);
  free(n);
}

int main(void) {
  drop(build(6)); // 127 nodes
  return 0;
}
// All 127 allocations are counted either way.
// FOLD: Summary: {{[1-5]}} contexts, 127 allocations, 2032 bytes
// Without folding: the root, then one context per (L|R)^k path, k = 1..6:
// 1 + 2 + 4 + ... + 64 = 127 contexts of one node each.
// NOFOLD: Summary: 127 contexts, 127 allocations, 2032 bytes
