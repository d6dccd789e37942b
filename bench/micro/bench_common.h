/*===- bench_common.h - shared helpers for heapprof's microbenchmarks ----===
 *
 * A deterministic PRNG (splitmix64) so every variant of a workload does the
 * same work, argument parsing that fails loudly, and the checksum line every
 * benchmark prints so the optimiser cannot delete the work and the runner
 * can check that a profiled build computed exactly what the baseline did;
 * and the process's resident set, for the benchmarks of what frees give
 * back.
 *===----------------------------------------------------------------------===*/
#ifndef BENCH_COMMON_H
#define BENCH_COMMON_H

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static inline uint64_t bench_rng_next(uint64_t *state) {
  uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

/* Uniform in [0, n) (n small; the modulo bias is irrelevant here). */
static inline uint64_t bench_rng_below(uint64_t *state, uint64_t n) {
  return bench_rng_next(state) % n;
}

static inline long bench_arg(int argc, char **argv, int i, long dflt,
                             long min, const char *what) {
  if (i >= argc)
    return dflt;
  char *end;
  long v = strtol(argv[i], &end, 10);
  if (*argv[i] == '\0' || *end != '\0' || v < min) {
    fprintf(stderr, "%s: bad %s '%s' (want an integer >= %ld)\n", argv[0],
            what, argv[i], min);
    exit(2);
  }
  return v;
}

static inline void *bench_xmalloc(size_t n) {
  void *p = malloc(n);
  if (!p) {
    fprintf(stderr, "out of memory (%zu bytes)\n", n);
    exit(3);
  }
  return p;
}

static inline void bench_checksum(const char *name, uint64_t sum) {
  printf("%s checksum %016" PRIx64 "\n", name, sum);
}

/* The resident set in KiB (/proc/self/statm), or -1. */
static inline long bench_rss_kib(void) {
  long size = 0, resident = 0;
  FILE *f = fopen("/proc/self/statm", "r");
  if (!f)
    return -1;
  if (fscanf(f, "%ld %ld", &size, &resident) != 2)
    resident = -1;
  fclose(f);
  return resident < 0 ? -1 : resident * (sysconf(_SC_PAGESIZE) / 1024);
}

#endif
