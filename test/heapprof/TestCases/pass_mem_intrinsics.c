// With the pass, memset/memcpy intrinsics (no -fno-builtin) follow the range
// rule too: one access per 8-byte word of each range.
// REQUIRES: heapprof-driver
// RUN: %clang_heapprof -O0 %s -o %t
// RUN: %env_heapprof_opts=log_path=stderr %run %t 2>&1 | FileCheck %s
#include <stdlib.h>
#include <string.h>

int main(void) {
  char *volatile src = malloc(200);
  char *volatile dst = malloc(200);
  memset(src, 7, 200);     // 25 words
  memcpy(dst, src, 200);   // 25 on each side
  // CHECK: alloc_count 1, size (ave/min/max) 200.00 / 200 / 200
  // CHECK-NEXT: access_count (ave/min/max): 50.00 / 50 / 50
  // CHECK: alloc_count 1, size (ave/min/max) 200.00 / 200 / 200
  // CHECK-NEXT: access_count (ave/min/max): 25.00 / 25 / 25
  free(src);
  free(dst);
  return 0;
}
