/*===- sparse.c - large pools used in part (after barnes) -----------------===
 *
 *   sparse MIB PASSES
 *
 * Eight malloc'd pools of MIB/8 MiB each, sized for a worst case the run
 * never reaches, as barnes (mimalloc-bench) sizes its cell and leaf pools:
 * only the first eighth of each is ever written, PASSES times over. Four
 * pools are freed before exit, four stay live to the end. The peak column
 * is the point: the untouched seven eighths cost the plain build nothing,
 * and a profiler that reads the access counters of memory nobody touched
 * (at free, and at the dump of the live pools) pays for them.
 *===----------------------------------------------------------------------===*/
#include "bench_common.h"

enum { POOLS = 8 };

__attribute__((noinline)) static uint64_t pass(uint64_t *p, long n,
                                               uint64_t seed) {
  uint64_t sum = 0;
  for (long i = 0; i < n; i++) {
    p[i] = p[i] * 6364136223846793005ULL + seed + (uint64_t)i;
    sum += p[i] >> 17;
  }
  return sum;
}

int main(int argc, char **argv) {
  long mib = bench_arg(argc, argv, 1, 512, POOLS, "MIB");
  long passes = bench_arg(argc, argv, 2, 4, 1, "PASSES");
  size_t pool_bytes = (size_t)mib / POOLS << 20;
  long used = (long)(pool_bytes / 8 / sizeof(uint64_t));
  uint64_t *pool[POOLS];
  uint64_t sum = 0;
  for (int k = 0; k < POOLS; k++) {
    pool[k] = bench_xmalloc(pool_bytes);
    for (long i = 0; i < used; i++)
      pool[k][i] = (uint64_t)i ^ (uint64_t)k;
  }
  for (long r = 0; r < passes; r++)
    for (int k = 0; k < POOLS; k++)
      sum += pass(pool[k], used, (uint64_t)(r * POOLS + k));
  for (int k = 0; k < POOLS / 2; k++)
    free(pool[k]);
  bench_checksum("sparse", sum);
  return 0;
}
