// memcpy and memset of a constant length up to 64 bytes are counted inline
// by the range rule (-heapprof-inline-range-max) and become
// llvm.mem*.inline, which the backend expands into moves, so the runtime's
// interceptors never see them.  Per granule, for lengths in and around one
// granule, from every offset in a granule (source and destination apart),
// the counters equal the range rule's: one access per 8-byte word the range
// overlaps, in the granule holding the word; longer copies and memmove go
// through the runtime and count the same.  Checked at -O2, at -O0 (where the
// backend would otherwise call libc's memset for some of them) and with the
// inline counting off.  The checking code reads the shadow counters directly
// and is not instrumented.
// REQUIRES: heapprof-driver
// RUN: %clang_heapprof -O2 %s -o %t
// RUN: %env_heapprof_opts=dump_at_exit=0 %run %t | FileCheck %s
// RUN: %clang_heapprof -O0 %s -o %t0
// RUN: %env_heapprof_opts=dump_at_exit=0 %run %t0 | FileCheck %s
// RUN: %clang_heapprof -O2 -mllvm -heapprof-inline-range-max=0 %s -o %t.off
// RUN: %env_heapprof_opts=dump_at_exit=0 %run %t.off | FileCheck %s
// RUN: %clang_heapprof -O2 -S -emit-llvm %s -o - | FileCheck %s --check-prefix=IR
// RUN: %clang_heapprof -O0 -c %s -o %t.o && llvm-objdump -dr %t.o | FileCheck %s --check-prefix=OBJ
// IR-LABEL: define {{.*}} @copy_3(
// IR: call void @llvm.memcpy.inline.p0.p0.i64(ptr {{.*}}, ptr {{.*}}, i64 3, i1 false)
// IR-LABEL: define {{.*}} @copy_64(
// IR: call void @llvm.memcpy.inline.p0.p0.i64(ptr {{.*}}, ptr {{.*}}, i64 64, i1 false)
// IR-LABEL: define {{.*}} @copy_65(
// IR: call ptr @__heapprof_memcpy(ptr {{.*}}, ptr {{.*}}, i64 65)
// IR-LABEL: define {{.*}} @set_40(
// IR: call void @llvm.memset.inline.p0.i64(ptr {{.*}}, i8 {{.*}}, i64 40, i1 false)
// IR-LABEL: define {{.*}} @move_24(
// IR: call ptr @__heapprof_memmove(ptr {{.*}}, ptr {{.*}}, i64 24)
// OBJ-LABEL: <set_64>:
// OBJ-NOT: memset
// OBJ-LABEL: <set_65>:
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "Inputs/shadow_counters.h"

#define KERNEL __attribute__((noinline))
#define BUF 4096
#define MARGIN 256

#define SIZES(X)                                                             \
  X(3) X(5) X(7) X(12) X(16) X(24) X(33) X(40) X(48) X(57) X(63) X(64) X(65)
#define COPY(n)                                                              \
  KERNEL void copy_##n(char *d, const char *s) { memcpy(d, s, n); }
#define SET(n)                                                               \
  KERNEL void set_##n(char *d, int c) { memset(d, c, n); }
SIZES(COPY)
SIZES(SET)
KERNEL void move_24(char *d, const char *s) { memmove(d, s, 24); }

typedef void (*copy_fn)(char *, const char *);
typedef void (*set_fn)(char *, int);
#define COPY_ENTRY(n) {n, copy_##n},
#define SET_ENTRY(n) {n, set_##n},
static const struct { long n; copy_fn fn; } copies[] = {SIZES(COPY_ENTRY)};
static const struct { long n; set_fn fn; } sets[] = {SIZES(SET_ENTRY)};

static uint64_t ref[BUF / 64];

NOINST static void clear(char *buf) {
  for (long g = 0; g < BUF / 64 + 1; g++) {
    *counter(granule0(buf) + 64 * g) = 0;
    if (g < BUF / 64)
      ref[g] = 0;
  }
}
// The range rule: every 8-byte word [p, p + n) overlaps.
NOINST static void expect_range(char *buf, char *p, long n) {
  for (uintptr_t w = (uintptr_t)p / 8; w <= ((uintptr_t)p + n - 1) / 8; w++)
    ref[(w * 8 - granule0(buf)) / 64]++;
}
NOINST static int differs(char *buf) {
  return counters_differ(buf, ref, BUF / 64);
}

int main(void) {
  char *a = malloc(BUF), *b = malloc(BUF);
  int ops = 0, bad = 0;
  for (long off = 0; off < 64; off++) {
    char *d = a + MARGIN + off, *s = b + MARGIN + (off * 5 + 3) % 64;
    for (unsigned i = 0; i < sizeof(copies) / sizeof(copies[0]); i++) {
      clear(a), clear(b);
      copies[i].fn(d, s);
      expect_range(a, d, copies[i].n);
      ops++;
      if (differs(a)) {
        if (bad++ < 5)
          printf("memcpy %ld at offset %ld: destination counts differ\n",
                 copies[i].n, off);
      }
      for (long g = 0; g < BUF / 64; g++)
        ref[g] = 0;
      expect_range(b, s, copies[i].n);
      if (differs(b)) {
        if (bad++ < 5)
          printf("memcpy %ld at offset %ld: source counts differ\n",
                 copies[i].n, off);
      }
    }
    for (unsigned i = 0; i < sizeof(sets) / sizeof(sets[0]); i++) {
      clear(a);
      sets[i].fn(d, (int)off);
      expect_range(a, d, sets[i].n);
      ops++;
      if (differs(a) && bad++ < 5)
        printf("memset %ld at offset %ld: counts differ\n", sets[i].n, off);
    }
    clear(a);
    move_24(d, d + 5); // overlapping: both ranges in one buffer
    expect_range(a, d + 5, 24);
    expect_range(a, d, 24);
    ops++;
    if (differs(a) && bad++ < 5)
      printf("memmove 24 at offset %ld: counts differ\n", off);
  }
  // The copies did copy: the last memcpy of 65 bytes and a memset.
  for (long k = 0; k < 64; k++)
    b[k] = (char)k;
  copy_65(a, b);
  set_7(a + 100, 'x');
  int copied = a[63] == 63 && a[64] == b[64] && a[100] == 'x' && a[106] == 'x';
  printf("%d operations, %d with wrong counts, contents %s\n", ops, bad,
         copied ? "right" : "wrong");
  free(a);
  free(b);
  return bad != 0 || !copied;
}
// 64 offsets x (13 memcpy + 13 memset + 1 memmove).
// CHECK-NOT: differ
// CHECK: 1728 operations, 0 with wrong counts, contents right
