// junk_fill=1 leaves calloc's zeros and realloc's copied contents alone:
// calloc returns zeros even in a block that held data and then junk, and
// realloc keeps the old bytes while the bytes it adds are junk (0xd0), both
// in place (40 -> 60 bytes, one size class) and moving (60 -> 1000).
// RUN: %clang_rt_heapprof -O0 %s -o %t
// RUN: %env_heapprof_opts=junk_fill=1:log_path=%t.prof %run %t 2>&1 | FileCheck %s
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
  unsigned char *volatile q = malloc(200);
  memset(q, 'B', 200);
  free(q);
  unsigned char *volatile z = calloc(200, 1);
  fprintf(stderr, "calloc: %s, %zu of 200 are 0\n",
          z == q ? "same block" : "other block", count_bytes(z, 200, 0));
  // CHECK: calloc: same block, 200 of 200 are 0
  free(z);
  unsigned char *volatile r = malloc(40);
  memset(r, 'C', 40);
  unsigned char *volatile r2 = realloc(r, 60);
  fprintf(stderr, "realloc 60: %s, %zu 'C', %zu 0xd0\n",
          r2 == r ? "in place" : "moved", count_bytes(r2, 40, 'C'),
          count_bytes(r2 + 40, 20, 0xd0));
  // CHECK: realloc 60: in place, 40 'C', 20 0xd0
  unsigned char *volatile r3 = realloc(r2, 1000);
  fprintf(stderr, "realloc 1000: %s, %zu 'C', %zu 0xd0\n",
          r3 == r2 ? "in place" : "moved", count_bytes(r3, 40, 'C'),
          count_bytes(r3 + 40, 960, 0xd0));
  // CHECK: realloc 1000: moved, 40 'C', 960 0xd0
  free(r3);
  return 0;
}
