// zero_fill=1 (phkmalloc's Z): malloc returns zeroed memory even in a
// block that held other data, and realloc zeroes the bytes it adds, in
// place (40 -> 60 bytes, one size class) and moving (60 -> 1000).  With
// junk_fill=1 too, zero wins.
// RUN: %clang_rt_heapprof -O0 %s -o %t
// RUN: %env_heapprof_opts=zero_fill=1:log_path=%t.prof %run %t 2>&1 | FileCheck %s
// RUN: %env_heapprof_opts=zero_fill=1:junk_fill=1:log_path=%t.prof %run %t 2>&1 | FileCheck %s
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static size_t count_bytes(const volatile unsigned char *p, size_t n, int b) {
  size_t k = 0;
  for (size_t i = 0; i < n; i++)
    k += p[i] == (unsigned char)b;
  return k;
}

int main(void) {
  unsigned char *volatile p = malloc(300);
  memset(p, 'A', 300);
  free(p);
  unsigned char *volatile q = malloc(300);
  fprintf(stderr, "reused: %s, %zu of 300 are 0\n",
          q == p ? "same block" : "other block", count_bytes(q, 300, 0));
  // CHECK: reused: same block, 300 of 300 are 0
  free(q);
  unsigned char *volatile r = malloc(40);
  memset(r, 'C', 40);
  unsigned char *volatile r2 = realloc(r, 60);
  fprintf(stderr, "realloc 60: %s, %zu 'C', %zu 0\n",
          r2 == r ? "in place" : "moved", count_bytes(r2, 40, 'C'),
          count_bytes(r2 + 40, 20, 0));
  // CHECK: realloc 60: in place, 40 'C', 20 0
  // The block's slack held 'D' before the realloc grew into it.
  memset(r2, 'D', 60);
  unsigned char *volatile r3 = realloc(r2, 50);
  unsigned char *volatile r4 = realloc(r3, 64);
  fprintf(stderr, "regrow 64: %s, %zu 'D', %zu 0\n",
          r4 == r2 ? "in place" : "moved", count_bytes(r4, 50, 'D'),
          count_bytes(r4 + 50, 14, 0));
  // CHECK: regrow 64: in place, 50 'D', 14 0
  unsigned char *volatile r5 = realloc(r4, 1000);
  fprintf(stderr, "realloc 1000: %s, %zu 'D', %zu 0\n",
          r5 == r4 ? "in place" : "moved", count_bytes(r5, 50, 'D'),
          count_bytes(r5 + 64, 936, 0));
  // CHECK: realloc 1000: moved, 50 'D', 936 0
  free(r5);
  return 0;
}
