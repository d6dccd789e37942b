// The lines (64-byte granules) and pages a chunk spans and how many of them
// it touched, per object ("touched per object"), for chunks whose alignment
// the test controls.  They are freed: no "live utilization".
// RUN: %clang_rt_heapprof -O0 -fno-builtin %s -o %t
// RUN: %env_heapprof_opts=log_path=stderr %run %t 2>&1 | FileCheck %s
#include <stdlib.h>
#include <string.h>

int main(void) {
  // Two pages exactly (128 lines); touch lines 0 and 1 of the first page and
  // the last line of the second: 3 of 128 lines, 2 of 2 pages.
  char *volatile p = aligned_alloc(4096, 8192);
  memset(p, 0, 128);        // 16 words
  memset(p + 8192 - 8, 0, 8); // 1 word
  // CHECK: alloc_count 1, size (ave/min/max) 8192.00 / 8192 / 8192
  // CHECK-NEXT: access_count (ave/min/max): 17.00 / 17 / 17
  // CHECK: touched per object: lines 2.34% (3 of 128), pages 100.00% (2 of 2)

  // 256 bytes at a 64-byte boundary: 4 lines in one page; touch line 2 only.
  char *volatile q = aligned_alloc(256, 256);
  memset(q + 130, 0, 4);
  // CHECK: alloc_count 1, size (ave/min/max) 256.00 / 256 / 256
  // CHECK-NEXT: access_count (ave/min/max): 1.00 / 1 / 1
  // CHECK: touched per object: lines 25.00% (1 of 4), pages 100.00% (1 of 1)

  // Untouched: 0 of 1 line, 0 of 1 page.
  char *volatile u = aligned_alloc(64, 64);
  // CHECK: alloc_count 1, size (ave/min/max) 64.00 / 64 / 64
  // CHECK-NEXT: access_count (ave/min/max): 0.00 / 0 / 0
  // CHECK: touched per object: lines 0.00% (0 of 1), pages 0.00% (0 of 1)
  free(p);
  free(q);
  free(u);
  return 0;
}
