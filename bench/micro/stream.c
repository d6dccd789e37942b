/*===- stream.c - STREAM-like array kernels on malloc'd arrays ------------===
 *
 *   stream ELEMENTS PASSES
 *
 * Three malloc'd arrays of ELEMENTS doubles; each pass runs STREAM's copy,
 * scale, add and triad kernels over them. Almost no allocation, every
 * access is to the heap: this is what per-access instrumentation costs on
 * a bandwidth-bound loop. The checksum is the bits of a sampled sum, exact
 * because the arithmetic is the same in every build (no -ffast-math).
 *===----------------------------------------------------------------------===*/
#include "bench_common.h"

#include <string.h>

__attribute__((noinline)) static void copy(double *restrict c,
                                           const double *restrict a, long n) {
  for (long i = 0; i < n; i++)
    c[i] = a[i];
}
__attribute__((noinline)) static void scale(double *restrict b,
                                            const double *restrict c, double s,
                                            long n) {
  for (long i = 0; i < n; i++)
    b[i] = s * c[i];
}
__attribute__((noinline)) static void add(double *restrict c,
                                          const double *restrict a,
                                          const double *restrict b, long n) {
  for (long i = 0; i < n; i++)
    c[i] = a[i] + b[i];
}
__attribute__((noinline)) static void triad(double *restrict a,
                                            const double *restrict b,
                                            const double *restrict c, double s,
                                            long n) {
  for (long i = 0; i < n; i++)
    a[i] = b[i] + s * c[i];
}

int main(int argc, char **argv) {
  long n = bench_arg(argc, argv, 1, 4000000, 1, "ELEMENTS");
  long passes = bench_arg(argc, argv, 2, 20, 1, "PASSES");
  double *a = bench_xmalloc((size_t)n * sizeof *a);
  double *b = bench_xmalloc((size_t)n * sizeof *b);
  double *c = bench_xmalloc((size_t)n * sizeof *c);
  for (long i = 0; i < n; i++) {
    a[i] = 1.0 + (double)(i % 7);
    b[i] = 2.0;
    c[i] = 0.0;
  }
  const double s = 0.5;
  for (long p = 0; p < passes; p++) {
    copy(c, a, n);
    scale(b, c, s, n);
    add(c, a, b, n);
    triad(a, b, c, s, n);
  }
  double total = 0;
  for (long i = 0; i < n; i += 97)
    total += a[i] + b[i] + c[i];
  uint64_t bits;
  memcpy(&bits, &total, sizeof bits);
  printf("stream: sampled sum %.17g\n", total);
  bench_checksum("stream", bits);
  free(a);
  free(b);
  free(c);
  return 0;
}
