// Access counts from the runtime's string/memory interceptors alone (no
// instrumentation): one access per 8-byte word a range touches, per range;
// memcpy-like calls count their source and their destination.  Every chunk
// starts 32-byte aligned, so word boundaries are at multiples of 8 of the
// offsets below.
// RUN: %clang_rt_heapprof -O0 -fno-builtin %s -o %t
// RUN: %env_heapprof_opts=log_path=stderr %run %t 2>&1 | FileCheck %s
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int main(void) {
  // memset of 40 bytes: words 0..4.
  char *volatile a = malloc(40);
  memset(a, 0, 40);
  // CHECK: alloc_count 1, size (ave/min/max) 40.00 / 40 / 40
  // CHECK-NEXT: access_count (ave/min/max): 5.00 / 5 / 5

  // memset 100 (13 words), then the source of a 100-byte memcpy (13 more).
  char *volatile src = malloc(100);
  memset(src, 'x', 100);
  // The destination of the memcpy: 13.
  char *volatile dst = malloc(100);
  memcpy(dst, src, 100);
  // CHECK: alloc_count 1, size (ave/min/max) 100.00 / 100 / 100
  // CHECK-NEXT: access_count (ave/min/max): 26.00 / 26 / 26
  // CHECK: alloc_count 1, size (ave/min/max) 100.00 / 100 / 100
  // CHECK-NEXT: access_count (ave/min/max): 13.00 / 13 / 13

  // Bytes 3..12 lie in words 0 and 1.
  char *volatile off = malloc(64);
  memset(off + 3, 1, 10);
  // CHECK: alloc_count 1, size (ave/min/max) 64.00 / 64 / 64
  // CHECK-NEXT: access_count (ave/min/max): 2.00 / 2 / 2

  // Bytes 60..67: words 7 and 8, whichever granules they fall in.
  char *volatile straddle = malloc(128);
  memset(straddle + 60, 1, 8);
  // CHECK: alloc_count 1, size (ave/min/max) 128.00 / 128 / 128
  // CHECK-NEXT: access_count (ave/min/max): 2.00 / 2 / 2

  // Overlapping memmove: source bytes 0..31 (4 words) + destination bytes
  // 8..39 (4 words).
  char *volatile mv = malloc(64);
  memmove(mv + 8, mv, 32);
  // CHECK: alloc_count 1, size (ave/min/max) 64.00 / 64 / 64
  // CHECK-NEXT: access_count (ave/min/max): 8.00 / 8 / 8

  // bzero of 256 bytes: 32 words.
  char *volatile bz = malloc(256);
  bzero(bz, 256);
  // CHECK: alloc_count 1, size (ave/min/max) 256.00 / 256 / 256
  // CHECK-NEXT: access_count (ave/min/max): 32.00 / 32 / 32

  // memset of 23 bytes (3 words), then strlen reads 23 + NUL = 24 bytes
  // (3 words); the NUL store itself is not instrumented here.
  char *volatile s = malloc(32);
  memset(s, 'a', 23);
  s[23] = 0;
  if (strlen(s) != 23)
    return 1;
  // CHECK: alloc_count 1, size (ave/min/max) 32.00 / 32 / 32
  // CHECK-NEXT: access_count (ave/min/max): 6.00 / 6 / 6

  // strcpy of a 20-character literal writes 21 bytes (3 words); then strdup
  // reads them again (3 words): 6.  The duplicate, 21 bytes, gets 3.
  char *volatile cp = malloc(64);
  strcpy(cp, "0123456789abcdefghij");
  char *volatile dup = strdup(cp);
  // CHECK: alloc_count 1, size (ave/min/max) 64.00 / 64 / 64
  // CHECK-NEXT: access_count (ave/min/max): 6.00 / 6 / 6
  // CHECK: alloc_count 1, size (ave/min/max) 21.00 / 21 / 21
  // CHECK-NEXT: access_count (ave/min/max): 3.00 / 3 / 3

  // strncpy writes all n = 40 bytes (NUL padding included): 5 words.
  char *volatile ncp = malloc(48);
  strncpy(ncp, "abc", 40);
  // CHECK: alloc_count 1, size (ave/min/max) 48.00 / 48 / 48
  // CHECK-NEXT: access_count (ave/min/max): 5.00 / 5 / 5

  // memcmp reads up to and including the first difference: bytes 0..40,
  // words 0..5, in each operand; plus the two 64-byte memsets (8 words).
  char *volatile m1 = malloc(64);
  char *volatile m2 = malloc(64);
  memset(m1, 0, 64);
  memset(m2, 0, 64);
  m2[40] = 1;
  if (memcmp(m1, m2, 64) >= 0)
    return 1;
  // CHECK: alloc_count 1, size (ave/min/max) 64.00 / 64 / 64
  // CHECK-NEXT: access_count (ave/min/max): 14.00 / 14 / 14
  // CHECK: alloc_count 1, size (ave/min/max) 64.00 / 64 / 64
  // CHECK-NEXT: access_count (ave/min/max): 14.00 / 14 / 14

  // A page-sized memset: 8192 / 8 = 1024.
  char *volatile big = malloc(8192);
  memset(big, 0, 8192);
  // CHECK: alloc_count 1, size (ave/min/max) 8192.00 / 8192 / 8192
  // CHECK-NEXT: access_count (ave/min/max): 1024.00 / 1024 / 1024

  free(a); free(src); free(dst); free(off); free(straddle); free(mv);
  free(bz); free(s); free(cp); free(dup); free(ncp); free(m1); free(m2);
  free(big);
  return 0;
}
// 5+26+13+2+2+8+32+6+6+3+5+14+14+1024 = 1160
// CHECK: Summary: 14 contexts, 14 allocations, {{[0-9]+}} bytes, 1160 accesses
