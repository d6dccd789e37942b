/*===- checkpoints.c - what a checkpoint costs the program -----------------===
 *
 *   checkpoints OBJECTS SIZE DUMPS
 *
 * OBJECTS live objects of SIZE bytes, every 64-byte line of each written
 * once, then DUMPS rounds of: write every line once more, one checkpoint
 * (__heapprof_dump, timed).  Prints the median and the largest checkpoint's
 * milliseconds and the resident set before the first and after the last,
 * for a comparison of two runtimes (docs/performance.md, "Checkpoints that
 * never write a counter").  Not a make bench row: only a profiled build
 * has checkpoints.
 *===----------------------------------------------------------------------===*/
#include "bench_common.h"
#include <heapprof/heapprof_interface.h>
#include <string.h>
#include <time.h>

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

__attribute__((noinline)) static uint64_t touch(char **objs, long n,
                                                long size, uint64_t seed) {
  uint64_t sum = 0;
  for (long i = 0; i < n; i++)
    for (long off = 0; off + 8 <= size; off += 64) {
      uint64_t *w = (uint64_t *)(objs[i] + off);
      *w = seed + (uint64_t)i + (uint64_t)off;
      sum += *w >> 3;
    }
  return sum;
}

int main(int argc, char **argv) {
  long n = bench_arg(argc, argv, 1, 1000000, 1, "OBJECTS");
  long size = bench_arg(argc, argv, 2, 64, 8, "SIZE");
  long dumps = bench_arg(argc, argv, 3, 10, 1, "DUMPS");
  char **objs = malloc((size_t)n * sizeof(char *));
  double *ms = malloc((size_t)dumps * sizeof(double));
  if (!objs || !ms)
    return 1;
  for (long i = 0; i < n; i++)
    if (!(objs[i] = malloc((size_t)size)))
      return 1;
  uint64_t sum = touch(objs, n, size, 1);
  long rss0 = bench_rss_kib();
  for (long d = 0; d < dumps; d++) {
    sum += touch(objs, n, size, (uint64_t)d + 2);
    double t0 = now_ms();
    if (__heapprof_dump() != 0)
      return 1;
    ms[d] = now_ms() - t0;
  }
  long rss1 = bench_rss_kib();
  qsort(ms, (size_t)dumps, sizeof(double), cmp_double);
  fprintf(stderr, "checkpoint ms: median %.1f max %.1f; rss %ld -> %ld KiB\n",
          ms[dumps / 2], ms[dumps - 1], rss0, rss1);
  for (long i = 0; i < n; i++)
    free(objs[i]);
  free(objs);
  free(ms);
  bench_checksum("checkpoints", sum);
  return 0;
}
