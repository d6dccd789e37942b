/*===- realloc_churn.c - realloc's own cost, without copying ------------===
 *
 *   realloc_churn COUNT   COUNT reallocs of 16 small buffers in turn, each
 *                         to 16..271 bytes (mostly a move to another size
 *                         class, with its 16-to-271-byte copy)
 *
 * What a realloc call costs an allocator, and a profiler around it; run by
 * hand (docs/performance.md, "Sampled mode on another allocator: quick
 * calls"), built plain.  Prints a checksum of the addresses' low bytes.
 *===----------------------------------------------------------------------===*/
#include "bench_common.h"

int main(int argc, char **argv) {
  long count = bench_arg(argc, argv, 1, 10000000, 1, "COUNT");
  void *p[16] = {0};
  uint64_t sum = 0;
  for (long i = 0; i < count; i++) {
    int k = i & 15;
    p[k] = realloc(p[k], 16 + ((i * 7) & 255));
    if (!p[k]) {
      fprintf(stderr, "realloc failed\n");
      return 3;
    }
    sum += (uintptr_t)p[k] & 0xff;
  }
  for (int k = 0; k < 16; k++)
    free(p[k]);
  bench_checksum("realloc_churn", sum);
  return 0;
}
