/*===- ht.c - chained hash table churn ------------------------------------===
 *
 *   ht OPS [KEY_BITS]
 *
 * OPS random operations on a chained hash table over 2^KEY_BITS keys
 * (default 18): 50% insert-or-replace, 30% lookup, 20% delete. Every entry
 * is a malloc'd node plus a malloc'd value of 8..127 bytes that is written
 * when stored and read in full by every lookup. At the steady state about
 * 70% of the keys are present (~20 MiB). Mixes allocation with pointer-
 * chasing accesses ("ht 4000000" in reference/memprof-upstream.md §6).
 *===----------------------------------------------------------------------===*/
#include "bench_common.h"

#include <string.h>

typedef struct entry {
  struct entry *next;
  uint64_t key;
  unsigned char *val;
  uint32_t len;
} entry;

static uint64_t hash(uint64_t k) {
  k ^= k >> 33;
  k *= 0xff51afd7ed558ccdULL;
  return k ^ (k >> 33);
}

static unsigned char *make_value(uint64_t key, uint32_t len) {
  unsigned char *v = bench_xmalloc(len);
  for (uint32_t i = 0; i < len; i++)
    v[i] = (unsigned char)(key + i);
  return v;
}

int main(int argc, char **argv) {
  long ops = bench_arg(argc, argv, 1, 4000000, 1, "OPS");
  int key_bits = (int)bench_arg(argc, argv, 2, 18, 4, "KEY_BITS");
  uint64_t nkeys = 1ULL << key_bits;
  uint64_t nbuckets = nkeys / 2;
  entry **tab = calloc(nbuckets, sizeof *tab);
  if (!tab)
    return 3;
  uint64_t rng = 42, sum = 0, live = 0;

  for (long op = 0; op < ops; op++) {
    uint64_t r = bench_rng_next(&rng);
    uint64_t key = (r >> 8) & (nkeys - 1);
    unsigned kind = (unsigned)(r & 0xff) % 10;
    entry **slot = &tab[hash(key) & (nbuckets - 1)];
    while (*slot && (*slot)->key != key)
      slot = &(*slot)->next;
    entry *e = *slot;
    if (kind < 5) { /* insert or replace */
      uint32_t len = 8 + (uint32_t)((r >> 40) % 120);
      if (e) {
        free(e->val);
      } else {
        e = bench_xmalloc(sizeof *e);
        e->next = NULL;
        e->key = key;
        *slot = e;
        live++;
      }
      e->val = make_value(key ^ (uint64_t)op, len);
      e->len = len;
    } else if (kind < 8) { /* lookup */
      if (e) {
        uint64_t s = 0;
        for (uint32_t i = 0; i < e->len; i++)
          s += e->val[i];
        sum = sum * 31 + s;
      } else {
        sum += 1;
      }
    } else if (e) { /* delete */
      *slot = e->next;
      free(e->val);
      free(e);
      live--;
    }
  }
  for (uint64_t b = 0; b < nbuckets; b++)
    for (entry *e = tab[b], *next; e; e = next) {
      next = e->next;
      free(e->val);
      free(e);
    }
  free(tab);
  printf("ht: %ld ops, %" PRIu64 " live at end\n", ops, live);
  bench_checksum("ht", sum);
  return 0;
}
