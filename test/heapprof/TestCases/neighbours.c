// No counts leak between neighbouring chunks.  Three chunks of one size class
// are carved next to each other; the middle one is hammered, and its
// neighbours on both sides must report 0.  Sizes 32 and 96 end exactly on a
// granule boundary, where upstream MemProf 19 counted the next granule too
// (reference §7.2); 48 and 4 are the other shapes.
// RUN: %clang_rt_heapprof -O0 -fno-builtin %s -o %t
// RUN: %env_heapprof_opts=log_path=stderr %run %t 2>&1 | FileCheck %s
#include <heapprof/heapprof_interface.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__attribute__((noinline)) char *left(size_t n) { return malloc(n); }
__attribute__((noinline)) char *middle(size_t n) { return malloc(n); }
__attribute__((noinline)) char *right(size_t n) { return malloc(n); }

static long gap(char *a, char *b) { return a > b ? a - b : b - a; }

static void run(size_t n) {
  char *volatile l = left(n), *volatile m = middle(n), *volatile r = right(n);
  // Adjacent blocks: equal distances, and no more than the size plus a
  // 32-byte header rounded to the 32-byte class grid.
  long g1 = gap(l, m), g2 = gap(m, r);
  fprintf(stderr, "size %zu: %s\n", n,
              g1 == g2 && g1 == (long)((n + 32 + 31) / 32 * 32)
          ? "adjacent"
          : "NOT ADJACENT");
  // Hammer every byte of the middle chunk, first and last bytes most.
  for (int k = 0; k < 100; k++) {
    __heapprof_record_access(m);
    __heapprof_record_access(m + n - 1);
  }
  for (size_t i = 0; i < n; i++)
    __heapprof_record_access(m + i);
  free(l);
  free(m);
  free(r);
}

int main(void) {
  static const size_t sizes[] = {32, 96, 48, 4};
  for (int i = 0; i < 4; i++)
    run(sizes[i]);
  return 0;
}
// CHECK: size 32: adjacent
// CHECK: size 96: adjacent
// CHECK: size 48: adjacent
// CHECK: size 4: adjacent
// One context per side, four sizes each; only the middle has accesses:
// 4 * 200 + (32 + 96 + 48 + 4) = 980.
// CHECK: Memory allocation stack id = [[L:[0-9]+]]
// CHECK-NEXT: alloc_count 4, size (ave/min/max) 45.00 / 4 / 96
// CHECK-NEXT: access_count (ave/min/max): 0.00 / 0 / 0
// CHECK: Memory allocation stack id = [[M:[0-9]+]]
// CHECK-NEXT: alloc_count 4, size (ave/min/max) 45.00 / 4 / 96
// CHECK-NEXT: access_count (ave/min/max): 245.00 / 204 / 296
// CHECK: Memory allocation stack id = [[R:[0-9]+]]
// CHECK-NEXT: alloc_count 4, size (ave/min/max) 45.00 / 4 / 96
// CHECK-NEXT: access_count (ave/min/max): 0.00 / 0 / 0
// CHECK: Stack for id [[L]]:
// CHECK-NEXT: in left
// CHECK: Stack for id [[M]]:
// CHECK-NEXT: in middle
// CHECK: Stack for id [[R]]:
// CHECK-NEXT: in right
// CHECK: Summary: 3 contexts, 12 allocations, 540 bytes, 980 accesses
