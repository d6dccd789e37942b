/*===- trim.c - what malloc_trim gives back, and what it costs -----------===
 *
 *   trim COUNT SIZE KEEP   COUNT x SIZE bytes written, all freed but every
 *                          KEEP-th (KEEP 0: all freed), then malloc_trim(0)
 *                          twice
 *
 * Prints the resident set before and after the first call
 * (/proc/self/statm) and each call's time.  Run by hand (docs/
 * performance.md, "malloc_trim under heapprof's allocator"): built plain,
 * alone (glibc) and under heapprof run (heapprof's allocator).
 *===----------------------------------------------------------------------===*/
#include "bench_common.h"

#include <malloc.h>
#include <string.h>
#include <time.h>

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

int main(int argc, char **argv) {
  long count = bench_arg(argc, argv, 1, 1000000, 1, "COUNT");
  long size = bench_arg(argc, argv, 2, 64, 1, "SIZE");
  long keep = bench_arg(argc, argv, 3, 0, 0, "KEEP");
  char **p = bench_xmalloc(count * sizeof(char *));
  for (long i = 0; i < count; i++) {
    p[i] = bench_xmalloc(size);
    memset(p[i], 1, size);
  }
  for (long i = 0; i < count; i++)
    if (!keep || i % keep)
      free(p[i]);
  long before = bench_rss_kib();
  double t0 = now_ms();
  int first = malloc_trim(0);
  double t1 = now_ms();
  long after = bench_rss_kib();
  int second = malloc_trim(0);
  double t2 = now_ms();
  printf("%ld x %ld B, keep 1/%ld: resident %ld -> %ld KiB; malloc_trim "
         "%.1f ms (returned %d), again %.1f ms (returned %d)\n",
         count, size, keep, before, after, t1 - t0, first, t2 - t1, second);
  return 0;
}
