/*===- bt.c - binary trees (after the benchmarks game) --------------------===
 *
 *   bt MAX_DEPTH
 *
 * Builds a stretch tree of depth MAX_DEPTH+1, a long-lived tree of depth
 * MAX_DEPTH, and for depths 4, 6, ..., MAX_DEPTH 2^(MAX_DEPTH-d+4) short-lived
 * trees, checking and freeing each. `make` is recursive with two call sites
 * (left, right), so every root-to-node path is a distinct calling context:
 * this is the shape that makes upstream MemProf's profile explode ("bt 15"
 * in reference/memprof-upstream.md section 6). Allocation-heavy, few accesses.
 *===----------------------------------------------------------------------===*/
#include "bench_common.h"

typedef struct node {
  struct node *left, *right;
} node;

__attribute__((noinline)) static node *make(int depth) {
  node *n = bench_xmalloc(sizeof *n);
  if (depth > 0) {
    n->left = make(depth - 1);
    n->right = make(depth - 1);
  } else {
    n->left = n->right = NULL;
  }
  return n;
}

__attribute__((noinline)) static long check(const node *n) {
  return n->left ? 1 + check(n->left) + check(n->right) : 1;
}

__attribute__((noinline)) static void release(node *n) {
  if (n->left) {
    release(n->left);
    release(n->right);
  }
  free(n);
}

int main(int argc, char **argv) {
  enum { MIN_DEPTH = 4 };
  int max_depth = (int)bench_arg(argc, argv, 1, 15, 0, "MAX_DEPTH");
  if (max_depth < MIN_DEPTH + 2)
    max_depth = MIN_DEPTH + 2;
  uint64_t sum = 0;

  node *stretch = make(max_depth + 1);
  long c = check(stretch);
  printf("stretch tree of depth %d\t check: %ld\n", max_depth + 1, c);
  sum += (uint64_t)c;
  release(stretch);

  node *long_lived = make(max_depth);
  for (int d = MIN_DEPTH; d <= max_depth; d += 2) {
    long iterations = 1L << (max_depth - d + MIN_DEPTH);
    long total = 0;
    for (long i = 0; i < iterations; i++) {
      node *t = make(d);
      total += check(t);
      release(t);
    }
    printf("%ld\t trees of depth %d\t check: %ld\n", iterations, d, total);
    sum = sum * 31 + (uint64_t)total;
  }
  c = check(long_lived);
  printf("long lived tree of depth %d\t check: %ld\n", max_depth, c);
  sum = sum * 31 + (uint64_t)c;
  release(long_lived);
  bench_checksum("bt", sum);
  return 0;
}
