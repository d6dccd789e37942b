/*===- ll.c - linked-list walk in shuffled order -------------------------===
 *
 *   ll NODES PASSES
 *
 * Allocates NODES 32-byte nodes, links them in a random (Fisher-Yates)
 * order so that consecutive nodes are far apart in memory, then walks the
 * list PASSES times summing a field. Access-heavy, cache-missing, with a
 * fixed set of allocations ("ll 1000000 10" in memprof-upstream.md §6).
 *===----------------------------------------------------------------------===*/
#include "bench_common.h"

typedef struct lnode {
  struct lnode *next;
  uint64_t val;
  uint64_t pad[2];
} lnode;
_Static_assert(sizeof(lnode) == 32, "ll nodes are 32 bytes");

int main(int argc, char **argv) {
  long n = bench_arg(argc, argv, 1, 1000000, 1, "NODES");
  long passes = bench_arg(argc, argv, 2, 10, 1, "PASSES");
  lnode **v = bench_xmalloc((size_t)n * sizeof *v);
  for (long i = 0; i < n; i++) {
    v[i] = bench_xmalloc(sizeof(lnode));
    v[i]->val = (uint64_t)i * 2654435761u;
    v[i]->pad[0] = v[i]->pad[1] = 0;
  }
  uint64_t rng = 7;
  for (long i = n - 1; i > 0; i--) {
    long j = (long)bench_rng_below(&rng, (uint64_t)i + 1);
    lnode *t = v[i];
    v[i] = v[j];
    v[j] = t;
  }
  for (long i = 0; i + 1 < n; i++)
    v[i]->next = v[i + 1];
  v[n - 1]->next = NULL;
  lnode *head = v[0];

  uint64_t sum = 0;
  for (long p = 0; p < passes; p++) {
    uint64_t s = 0;
    for (lnode *x = head; x; x = x->next)
      s += x->val ^ (uint64_t)p;
    sum = sum * 31 + s;
  }
  for (long i = 0; i < n; i++)
    free(v[i]);
  free(v);
  bench_checksum("ll", sum);
  return 0;
}
