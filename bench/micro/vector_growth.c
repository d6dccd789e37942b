/*===- vector_growth.c - large vectors grown by realloc -------------------===
 *
 *   vector_growth MEBI_ENTRIES ROUNDS
 *
 * Each round appends MEBI_ENTRIES * 2^20 longs to a vector that grows its
 * capacity by an eighth plus 6 when full (CPython's list), then reads one
 * entry a page into the checksum and frees it.  Past 128 KiB every growth
 * is a realloc of a large chunk to a larger one: glibc resizes the mapping
 * with mremap; an allocator that copies pays every byte and a fault on
 * every new page, about eight times the final size per round.
 *===----------------------------------------------------------------------===*/
#include "bench_common.h"

int main(int argc, char **argv) {
  long mebi = bench_arg(argc, argv, 1, 8, 1, "MEBI_ENTRIES");
  long rounds = bench_arg(argc, argv, 2, 10, 1, "ROUNDS");
  uint64_t sum = 0, reallocs = 0;
  size_t total = (size_t)mebi << 20;
  for (long r = 0; r < rounds; r++) {
    size_t cap = 0, n = 0;
    long *v = NULL;
    for (size_t i = 0; i < total; i++) {
      if (n == cap) {
        cap += (cap >> 3) + 6;
        v = realloc(v, cap * sizeof *v);
        if (!v) {
          fprintf(stderr, "realloc failed\n");
          return 3;
        }
        reallocs++;
      }
      v[n++] = (long)(i ^ (size_t)r);
    }
    for (size_t i = 0; i < n; i += 512)
      sum = sum * 31 + (uint64_t)v[i];
    free(v);
  }
  printf("vector_growth: %" PRIu64 " reallocs\n", reallocs);
  bench_checksum("vector_growth", sum);
  return 0;
}
