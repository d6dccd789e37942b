// Per-granule exactness of the strided walks (-heapprof-strided-loops):
// walks up and down, with strides of 1, 8, 16, 24 and 80 bytes, from every
// offset in a granule and for lengths around the granule boundaries, each
// compared counter by counter (over the whole buffer, so a count in a
// neighbouring granule shows) against the accesses the loop makes.  The
// checking code reads the shadow counters directly and is not
// instrumented.  The same with the transformation off, and at -O1.
// REQUIRES: heapprof-driver
// RUN: %clang_heapprof -O2 %s -o %t
// RUN: %env_heapprof_opts=dump_at_exit=0 %run %t | FileCheck %s
// RUN: %clang_heapprof -O2 -mllvm -heapprof-strided-loops=0 %s -o %t.off
// RUN: %env_heapprof_opts=dump_at_exit=0 %run %t.off | FileCheck %s
// RUN: %clang_heapprof -O1 %s -o %t1
// RUN: %env_heapprof_opts=dump_at_exit=0 %run %t1 | FileCheck %s
// RUN: %clang_heapprof -O2 -mllvm -heapprof-strided-unknown-trips %s -o %t.unk
// RUN: %env_heapprof_opts=dump_at_exit=0 %run %t.unk | FileCheck %s
// The walks are recorded at the exits in the default build.
// RUN: %clang_heapprof -O2 -S -emit-llvm %s -o - | FileCheck %s --check-prefix=IR
// IR-COUNT-8: define {{.*}} @walk_
// IR: call preserve_allcc void @__heapprof_record_strided(
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "Inputs/shadow_counters.h"

#define KERNEL __attribute__((noinline))
#define BUF 65536
#define MARGIN 1024

struct point { double x, y, z; };        // 24 bytes
struct big { long key; char pad[72]; };  // 80 bytes

static uint64_t ref[BUF / 64];
volatile double sink;

// The kernels: one access per element.
KERNEL double walk_up8(const double *a, long n) {
  double s = 0;
#pragma clang loop vectorize(disable) interleave(disable)
  for (long i = 0; i < n; i++)
    s += a[i];
  return s;
}
KERNEL double walk_down8(const double *a, long n) {
  double s = 0;
#pragma clang loop vectorize(disable) interleave(disable)
  for (long i = n - 1; i >= 0; i--)
    s += a[i];
  return s;
}
KERNEL double walk_up1(const unsigned char *p, long n) {
  unsigned s = 0;
#pragma clang loop vectorize(disable) interleave(disable)
  for (long i = 0; i < n; i++)
    s += p[i];
  return s;
}
KERNEL double walk_up16(const long *a, long n) {
  long s = 0;
#pragma clang loop vectorize(disable) interleave(disable)
  for (long i = 0; i < n; i++)
    s += a[2 * i];
  return (double)s;
}
KERNEL double walk_up24(const struct point *p, long n) {
  double s = 0;
#pragma clang loop vectorize(disable) interleave(disable)
  for (long i = 0; i < n; i++)
    s += p[i].x;
  return s;
}
KERNEL double walk_down24(const struct point *p, long n) {
  double s = 0;
#pragma clang loop vectorize(disable) interleave(disable)
  for (long i = n - 1; i >= 0; i--)
    s += p[i].y;
  return s;
}
KERNEL double walk_up80(const struct big *b, long n) {
  long s = 0;
#pragma clang loop vectorize(disable) interleave(disable)
  for (long i = 0; i < n; i++)
    s += b[i].key;
  return (double)s;
}
KERNEL double walk_store8(double *a, long n) {
#pragma clang loop vectorize(disable) interleave(disable)
  for (long i = 0; i < n; i++)
    a[i] = (double)i;
  return 0;
}

NOINST static void clear(char *buf) {
  for (long g = 0; g < BUF / 64; g++) {
    *counter(granule0(buf) + 64 * g) = 0;
    ref[g] = 0;
  }
}
// The reference: n accesses at first + k * stride.
NOINST static void expect(char *buf, char *first, long stride, long n) {
  for (long k = 0; k < n; k++)
    ref[((uintptr_t)(first + k * stride) - granule0(buf)) / 64]++;
}
NOINST static int differs(char *buf) {
  return counters_differ(buf, ref, BUF / 64);
}

int main(void) {
  char *buf = malloc(BUF);
  static const long lengths[] = {0,  1,  2,  3,  4,  5,  7,  8,  9,
                                 15, 16, 17, 24, 31, 33, 64, 65, 100, 333};
  int walks = 0, bad = 0;
  for (int kind = 0; kind < 8; kind++)
    for (unsigned l = 0; l < sizeof(lengths) / sizeof(lengths[0]); l++)
      for (long off = 0; off < 64; off++) {
        long n = lengths[l];
        char *lo = buf + MARGIN + off;          // lowest element
        char *hi = buf + BUF - MARGIN - 80 + off; // for walks down
        clear(buf);
        switch (kind) {
        case 0:
          sink = walk_up8((double *)lo, n);
          expect(buf, lo, 8, n);
          break;
        case 1:
          sink = walk_down8((double *)(hi - 8 * n), n);
          expect(buf, hi - 8 * n + 8 * (n - 1), -8, n);
          break;
        case 2:
          sink = walk_up1((unsigned char *)lo, n);
          expect(buf, lo, 1, n);
          break;
        case 3:
          sink = walk_up16((long *)lo, n);
          expect(buf, lo, 16, n);
          break;
        case 4:
          sink = walk_up24((struct point *)lo, n);
          expect(buf, lo, 24, n);
          break;
        case 5:
          sink = walk_down24((struct point *)(hi - 24 * n), n);
          expect(buf, hi - 24 * n + 24 * (n - 1) + 8, -24, n);
          break;
        case 6:
          sink = walk_up80((struct big *)lo, n);
          expect(buf, lo, 80, n);
          break;
        case 7:
          sink = walk_store8((double *)lo, n);
          expect(buf, lo, 8, n);
          break;
        }
        walks++;
        if (differs(buf)) {
          if (bad < 5)
            printf("kind %d length %ld offset %ld: counts differ\n", kind, n,
                   off);
          bad++;
        }
      }
  printf("%d walks, %d with wrong counts\n", walks, bad);
  free(buf);
  return bad != 0;
}
// 8 kinds x 19 lengths x 64 offsets.
// CHECK-NOT: counts differ
// CHECK: 9728 walks, 0 with wrong counts
