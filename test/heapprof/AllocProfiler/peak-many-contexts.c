// The peak with more contexts than a thread table's flat part (the first
// 65536 stack ids, heapprof_peak.h): the later ids are counted through the
// table's directory of pages.  256 functions a_XY each call one of 256
// functions b_XY through a pointer, and b_XY allocates 16 bytes: 65536
// contexts from one call site in main, 256 more from a second.  All 65792
// chunks are live at the first free: the peak is 65792 x 16 = 1052672
// bytes in 65792 objects and as many contexts.
// RUN: %clang_heapprof -O0 %s -o %t
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: %env_heapprof_opts=profile_dir=%t.d %run %t
// The show is 68 MB (a record per context); FileCheck took 27 s of CPU to
// find the peak's line at its end (80-200 s under load): grep it first.
// RUN: heapprof show %t.d/*.profraw | grep "peak: peak_bytes=" | FileCheck %s
// CHECK: peak: peak_bytes=1052672 {{.*}}peak_objects=65792 {{.*}}peak_contexts=65792 {{.*}}snapshots=2
#include <stdlib.h>

#define H16(M, p)                                                              \
  M(p##0) M(p##1) M(p##2) M(p##3) M(p##4) M(p##5) M(p##6) M(p##7) M(p##8)      \
  M(p##9) M(p##a) M(p##b) M(p##c) M(p##d) M(p##e) M(p##f)
#define H256(M)                                                                \
  H16(M, x0) H16(M, x1) H16(M, x2) H16(M, x3) H16(M, x4) H16(M, x5)            \
  H16(M, x6) H16(M, x7) H16(M, x8) H16(M, x9) H16(M, xa) H16(M, xb)            \
  H16(M, xc) H16(M, xd) H16(M, xe) H16(M, xf)

typedef void *(*leaf_fn)(void);
#define DEFINE(n)                                                              \
  __attribute__((noinline)) static void *b_##n(void) { return malloc(16); }    \
  __attribute__((noinline)) static void *a_##n(leaf_fn f) { return f(); }
H256(DEFINE)
#define B_REF(n) b_##n,
#define A_REF(n) a_##n,
static leaf_fn bs[] = {H256(B_REF)};
static void *(*as[])(leaf_fn) = {H256(A_REF)};

enum { N = 256 };
static void *keep[N * N + N];

int main(void) {
  int n = 0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      keep[n++] = as[i](bs[j]);
  for (int j = 0; j < N; j++)
    keep[n++] = as[0](bs[j]); // a second site in main: 256 more contexts
  for (int k = 0; k < n; k++)
    free(keep[k]); // the first free takes the snapshot at the top
  return 0;
}
