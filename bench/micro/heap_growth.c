/*===- heap_growth.c - a heap that grows large and stays --------------------===
 *
 *   heap_growth N
 *
 * Allocates N 64-byte objects and keeps them (4 million: a 256 MiB heap of
 * requests), replacing one object in eight as it goes (a free, then a new
 * one), the way a cache or an index fills: the heap rises to its peak with
 * frees all along the way.  Each object is written once; all are read back
 * into the checksum before they are freed.  The workload of the peak
 * tracker's large-heap row (bench/allocprof/peak.sh).
 *===----------------------------------------------------------------------===*/
#include "bench_common.h"

enum { SIZE = 64 };

int main(int argc, char **argv) {
  long n = bench_arg(argc, argv, 1, 4000000, 8, "N");
  uint64_t rng = 99, sum = 0;
  unsigned char **v = bench_xmalloc((size_t)n * sizeof(*v));
  for (long i = 0; i < n; i++) {
    v[i] = bench_xmalloc(SIZE);
    v[i][0] = (unsigned char)i;
    if (i % 8 == 7) {
      long j = i - (long)bench_rng_below(&rng, 8);
      free(v[j]);
      v[j] = bench_xmalloc(SIZE);
      v[j][0] = (unsigned char)j;
    }
  }
  for (long i = 0; i < n; i++) {
    sum = sum * 31 + v[i][0];
    free(v[i]);
  }
  free(v);
  printf("heap_growth: %ld objects of %d bytes\n", n, SIZE);
  bench_checksum("heap_growth", sum);
  return 0;
}
