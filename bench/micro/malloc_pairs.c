/*===- malloc_pairs.c - malloc/free throughput by size class and threads -===
 *
 *   malloc_pairs SIZE THREADS TOTAL_PAIRS
 *
 * Every thread keeps a ring of 64 live blocks of SIZE bytes and, for each of
 * its TOTAL_PAIRS/THREADS iterations, frees the oldest block (after reading
 * the two bytes it wrote into it) and allocates a replacement, writing its
 * first and last byte. The ring keeps a small working set, so a block is
 * not simply handed back to the same call; touching both ends makes the
 * allocation real to the optimiser and to a profiler. Total work is fixed,
 * so the thread count changes contention, not the amount of work.
 *===----------------------------------------------------------------------===*/
#include "bench_common.h"

#include <pthread.h>

enum { RING = 64 };

struct worker {
  pthread_t tid;
  size_t size;
  long pairs;
  uint64_t sum;
};

static void *work(void *arg) {
  struct worker *w = arg;
  size_t size = w->size;
  unsigned char **ring = bench_xmalloc(RING * sizeof *ring);
  uint64_t sum = 0;
  for (int i = 0; i < RING; i++) {
    ring[i] = bench_xmalloc(size);
    ring[i][0] = (unsigned char)i;
    ring[i][size - 1] = (unsigned char)(i >> 3);
  }
  for (long i = 0; i < w->pairs; i++) {
    unsigned slot = (unsigned)i % RING;
    unsigned char *old = ring[slot];
    sum = sum * 31 + old[0] + old[size - 1];
    free(old);
    unsigned char *p = bench_xmalloc(size);
    p[0] = (unsigned char)(i * 7);
    p[size - 1] = (unsigned char)(i >> 2);
    ring[slot] = p;
  }
  for (int i = 0; i < RING; i++) {
    sum += ring[i][0];
    free(ring[i]);
  }
  free(ring);
  w->sum = sum;
  return NULL;
}

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: %s SIZE THREADS TOTAL_PAIRS\n", argv[0]);
    return 2;
  }
  long size = bench_arg(argc, argv, 1, 64, 1, "SIZE");
  long threads = bench_arg(argc, argv, 2, 1, 1, "THREADS");
  long total = bench_arg(argc, argv, 3, 1000000, 1, "TOTAL_PAIRS");
  struct worker *ws = bench_xmalloc((size_t)threads * sizeof *ws);
  for (long t = 0; t < threads; t++) {
    ws[t].size = (size_t)size;
    ws[t].pairs = total / threads + (t < total % threads);
    ws[t].sum = 0;
  }
  if (threads == 1) {
    work(&ws[0]);
  } else {
    for (long t = 0; t < threads; t++)
      if (pthread_create(&ws[t].tid, NULL, work, &ws[t]) != 0) {
        fprintf(stderr, "pthread_create failed\n");
        return 1;
      }
    for (long t = 0; t < threads; t++)
      pthread_join(ws[t].tid, NULL);
  }
  uint64_t sum = 0;
  for (long t = 0; t < threads; t++)
    sum = sum * 1000003 + ws[t].sum;
  free(ws);
  bench_checksum("malloc_pairs", sum);
  return 0;
}
