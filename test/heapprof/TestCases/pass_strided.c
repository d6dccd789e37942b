// Access counts of loops that walk heap memory with a constant stride: the
// pass records each walk at the loop's exits (-heapprof-strided-loops),
// inline when it stays in one or two granules, else with
// __heapprof_record_strided.  Every count must be what
// the program does, and the same with the transformation off.  The kernels
// are not vectorized, so every element access is one access.
// REQUIRES: heapprof-driver
// RUN: %clang_heapprof -O2 %s -o %t
// RUN: %env_heapprof_opts=log_path=stderr %run %t 2>&1 | FileCheck %s
// RUN: %clang_heapprof -O2 -mllvm -heapprof-strided-loops=0 %s -o %t.off
// RUN: %env_heapprof_opts=log_path=stderr %run %t.off 2>&1 | FileCheck %s
// RUN: %clang_heapprof -O1 %s -o %t1
// RUN: %env_heapprof_opts=log_path=stderr %run %t1 2>&1 | FileCheck %s
// Loops without a count at some exit (find, sum_until, length) too:
// RUN: %clang_heapprof -O2 -mllvm -heapprof-strided-unknown-trips %s -o %t.unk
// RUN: %env_heapprof_opts=log_path=stderr %run %t.unk 2>&1 | FileCheck %s
// The transformation does happen: the walks are recorded at the exits.
// RUN: %clang_heapprof -O2 -S -emit-llvm -fno-discard-value-names %s -o - | FileCheck %s --check-prefix=IR
// IR-LABEL: define {{.*}} @sum(
// IR: call preserve_allcc void @__heapprof_record_strided(i64 %{{.*}}, i64 {{8|16|32|64}},
// IR-LABEL: define {{.*}} @sum_down(
// IR: call preserve_allcc void @__heapprof_record_strided(i64 %{{.*}}, i64 -{{8|16|32|64}},
// IR-LABEL: define {{.*}} @sum_x(
// IR: call preserve_allcc void @__heapprof_record_strided(i64 %{{.*}}, i64 24,
// IR-LABEL: define {{.*}} @sum_big(
// IR: call preserve_allcc void @__heapprof_record_strided(i64 %{{.*}}, i64 {{[0-9]+}}0,
#include <stdlib.h>

typedef long unaligned_long __attribute__((aligned(1)));
struct point { double x, y, z; };         // 24 bytes
struct big { long key; char pad[72]; };   // 80 bytes

__attribute__((noinline)) void *make_doubles(void) { return malloc(8000); }
__attribute__((noinline)) void *make_unaligned(void) { return malloc(8000); }
__attribute__((noinline)) void *make_down(void) { return malloc(8000); }
__attribute__((noinline)) void *make_short(void) { return malloc(64); }
__attribute__((noinline)) void *make_points(void) { return malloc(1000 * 24); }
__attribute__((noinline)) void *make_big(void) { return malloc(500 * 80); }
__attribute__((noinline)) void *make_src(void) { return malloc(8000); }
__attribute__((noinline)) void *make_dst(void) { return malloc(8000); }
__attribute__((noinline)) void *make_find(void) { return malloc(8000); }
__attribute__((noinline)) void *make_skip(void) { return malloc(8000); }
__attribute__((noinline)) void *make_odd(void) { return malloc(8000); }
__attribute__((noinline)) void *make_string(void) { return malloc(1000); }

// n stores.
__attribute__((noinline)) void fill(double *a, long n) {
#pragma clang loop vectorize(disable) interleave(disable)
  for (long i = 0; i < n; i++)
    a[i] = (double)(i + 1);
}

// n loads, upwards.
__attribute__((noinline)) double sum(const double *a, long n) {
  double s = 0;
#pragma clang loop vectorize(disable) interleave(disable)
  for (long i = 0; i < n; i++)
    s += a[i];
  return s;
}

// n loads of 8 bytes, upwards from an address that is not 8-aligned.
__attribute__((noinline)) long sum_unaligned(const unaligned_long *a, long n) {
  long s = 0;
#pragma clang loop vectorize(disable) interleave(disable)
  for (long i = 0; i < n; i++)
    s += a[i];
  return s;
}

// n loads, downwards from a[n - 1].
__attribute__((noinline)) double sum_down(const double *a, long n) {
  double s = 0;
#pragma clang loop vectorize(disable) interleave(disable)
  for (long i = n - 1; i >= 0; i--)
    s += a[i];
  return s;
}

// n loads of .x, 24 bytes apart: granules get 2 or 3 of them.
__attribute__((noinline)) double sum_x(const struct point *p, long n) {
  double s = 0;
#pragma clang loop vectorize(disable) interleave(disable)
  for (long i = 0; i < n; i++)
    s += p[i].x;
  return s;
}

// n loads of .key, 80 bytes apart: one granule each.
__attribute__((noinline)) long sum_big(const struct big *b, long n) {
  long s = 0;
#pragma clang loop vectorize(disable) interleave(disable)
  for (long i = 0; i < n; i++)
    s += b[i].key;
  return s;
}

// n loads from src, n stores to dst.
__attribute__((noinline)) void copy(double *restrict dst,
                                    const double *restrict src, long n) {
#pragma clang loop vectorize(disable) interleave(disable)
  for (long i = 0; i < n; i++)
    dst[i] = src[i];
}

// An exit after the access: loads a[0..k] where a[k] is the first equal to
// key, or all n.
__attribute__((noinline)) long find(const double *a, double key, long n) {
  long i = 0;
#pragma clang loop vectorize(disable) interleave(disable)
  for (; i < n; i++)
    if (a[i] == key)
      break;
  return i;
}

// An exit before the access: stop[] is a global (not counted); loads a[i]
// for every i before the first stop[i] != 0, or all n.
char stop[1000];
__attribute__((noinline)) double sum_until(const double *a, long n) {
  double s = 0;
#pragma clang loop vectorize(disable) interleave(disable)
  for (long i = 0; i < n; i++) {
    if (stop[i])
      break;
    s += a[i];
  }
  return s;
}

// A conditional access: loads a[i] for odd i only (not a walk the pass
// records, but counted all the same).
__attribute__((noinline)) double sum_odd(const double *a, long n) {
  double s = 0;
#pragma clang loop vectorize(disable) interleave(disable)
  for (long i = 0; i < n; i++)
    if (i & 1)
      s += a[i];
  return s;
}

// A trip count nobody knows before the loop: loads s[0..k], s[k] == 0.
__attribute__((noinline)) long length(const char *s) {
  long i = 0;
  while (s[i])
    i++;
  return i;
}

int main(int argc, char **argv) {
  (void)argv;
  double *volatile d = make_doubles();
  char *volatile u = make_unaligned();
  double *volatile down = make_down();
  double *volatile sh = make_short();
  struct point *volatile pts = make_points();
  struct big *volatile bg = make_big();
  double *volatile src = make_src();
  double *volatile dst = make_dst();
  double *volatile fd = make_find();
  double *volatile sk = make_skip();
  double *volatile odd = make_odd();
  char *volatile str = make_string();
  double s = 0;

  fill(d, 1000);          // 1000
  s += sum(d, 1000);      // 1000
  s += sum(d + 3, 997);   // 997, from granule 0's 4th double

  fill((double *)u, 1000);                           // 1000
  s += sum_unaligned((unaligned_long *)(u + 12), 990); // 990, 12 bytes in
  s += sum_unaligned((unaligned_long *)(u + 61), 2);   // 2, straddling

  fill(down, 1000);          // 1000
  s += sum_down(down, 1000); // 1000
  s += sum_down(down + 5, 9); // 9: down[13] .. down[5]

  // Loops of 0, 1, 2 and 3 iterations: 0 + 1 + 2 + 3 loads.
  fill(sh, 8);            // 8
  s += sum(sh, 0);
  s += sum(sh + 7, 1);
  s += sum(sh + 6, 2);
  s += sum(sh + 1, 3);
  // A loop that never runs, on a pointer that is none: nothing counted.
  s += sum(argc > 5 ? sh : NULL, argc - 1);

  fill((double *)pts, 3000); // 3000
  s += sum_x(pts, 1000);     // 1000
  s += sum_x(pts + 1, 7);    // 7

  fill((double *)bg, 5000); // 5000
  s += sum_big(bg, 500);    // 500

  fill(src, 1000);       // src 1000
  copy(dst, src, 1000);  // src 1000, dst 1000
  copy(dst + 1, src, 999); // src 999, dst 999

  fill(fd, 1000);                  // 1000
  s += (double)find(fd, 250.0, 1000); // a[249] == 250: 250
  s += (double)find(fd, -1.0, 1000);  // not there: 1000
  s += (double)find(fd, 1.0, 1000);   // a[0]: 1

  fill(sk, 1000);          // 1000
  stop[600] = 1;
  s += sum_until(sk, 1000); // 600
  stop[0] = 1;
  s += sum_until(sk, 1000); // 0

  fill(odd, 1000);          // 1000
  s += sum_odd(odd, 1000);  // 500

  // 99 stores, byte by byte (not a memset: the values differ).
#pragma clang loop vectorize(disable) interleave(disable)
  for (int i = 0; i < 99; i++)
    str[i] = (char)('a' + i % 26);
  str[99] = 0;                 // 1
  s += (double)length(str);    // 100

  free(d);
  free(u);
  free(down);
  free(sh);
  free(pts);
  free(bg);
  free(src);
  free(dst);
  free(fd);
  free(sk);
  free(odd);
  free(str);
  return s == 0;
}
// CHECK: Memory allocation stack id = [[D:[0-9]+]]
// CHECK-NEXT: alloc_count 1, size (ave/min/max) 8000.00 / 8000 / 8000
// CHECK-NEXT: access_count (ave/min/max): 2997.00 / 2997 / 2997
// CHECK: Memory allocation stack id = [[U:[0-9]+]]
// CHECK-NEXT: alloc_count 1, size (ave/min/max) 8000.00 / 8000 / 8000
// CHECK-NEXT: access_count (ave/min/max): 1992.00 / 1992 / 1992
// CHECK: Memory allocation stack id = [[DOWN:[0-9]+]]
// CHECK-NEXT: alloc_count 1, size (ave/min/max) 8000.00 / 8000 / 8000
// CHECK-NEXT: access_count (ave/min/max): 2009.00 / 2009 / 2009
// CHECK: Memory allocation stack id = [[SHORT:[0-9]+]]
// CHECK-NEXT: alloc_count 1, size (ave/min/max) 64.00 / 64 / 64
// CHECK-NEXT: access_count (ave/min/max): 14.00 / 14 / 14
// CHECK: Memory allocation stack id = [[POINTS:[0-9]+]]
// CHECK-NEXT: alloc_count 1, size (ave/min/max) 24000.00 / 24000 / 24000
// CHECK-NEXT: access_count (ave/min/max): 4007.00 / 4007 / 4007
// CHECK: Memory allocation stack id = [[BIG:[0-9]+]]
// CHECK-NEXT: alloc_count 1, size (ave/min/max) 40000.00 / 40000 / 40000
// CHECK-NEXT: access_count (ave/min/max): 5500.00 / 5500 / 5500
// CHECK: Memory allocation stack id = [[SRC:[0-9]+]]
// CHECK-NEXT: alloc_count 1, size (ave/min/max) 8000.00 / 8000 / 8000
// CHECK-NEXT: access_count (ave/min/max): 2999.00 / 2999 / 2999
// CHECK: Memory allocation stack id = [[DST:[0-9]+]]
// CHECK-NEXT: alloc_count 1, size (ave/min/max) 8000.00 / 8000 / 8000
// CHECK-NEXT: access_count (ave/min/max): 1999.00 / 1999 / 1999
// CHECK: Memory allocation stack id = [[FIND:[0-9]+]]
// CHECK-NEXT: alloc_count 1, size (ave/min/max) 8000.00 / 8000 / 8000
// CHECK-NEXT: access_count (ave/min/max): 2251.00 / 2251 / 2251
// CHECK: Memory allocation stack id = [[SKIP:[0-9]+]]
// CHECK-NEXT: alloc_count 1, size (ave/min/max) 8000.00 / 8000 / 8000
// CHECK-NEXT: access_count (ave/min/max): 1600.00 / 1600 / 1600
// CHECK: Memory allocation stack id = [[ODD:[0-9]+]]
// CHECK-NEXT: alloc_count 1, size (ave/min/max) 8000.00 / 8000 / 8000
// CHECK-NEXT: access_count (ave/min/max): 1500.00 / 1500 / 1500
// CHECK: Memory allocation stack id = [[STR:[0-9]+]]
// CHECK-NEXT: alloc_count 1, size (ave/min/max) 1000.00 / 1000 / 1000
// CHECK-NEXT: access_count (ave/min/max): 200.00 / 200 / 200
// CHECK: Stack for id [[D]]:
// CHECK-NEXT: in make_doubles
// CHECK: Stack for id [[U]]:
// CHECK-NEXT: in make_unaligned
// CHECK: Stack for id [[DOWN]]:
// CHECK-NEXT: in make_down
// CHECK: Stack for id [[SHORT]]:
// CHECK-NEXT: in make_short
// CHECK: Stack for id [[POINTS]]:
// CHECK-NEXT: in make_points
// CHECK: Stack for id [[BIG]]:
// CHECK-NEXT: in make_big
// CHECK: Stack for id [[SRC]]:
// CHECK-NEXT: in make_src
// CHECK: Stack for id [[DST]]:
// CHECK-NEXT: in make_dst
// CHECK: Stack for id [[FIND]]:
// CHECK-NEXT: in make_find
// CHECK: Stack for id [[SKIP]]:
// CHECK-NEXT: in make_skip
// CHECK: Stack for id [[ODD]]:
// CHECK-NEXT: in make_odd
// CHECK: Stack for id [[STR]]:
// CHECK-NEXT: in make_string
