// Sampled mode: a sampled object's accesses are its own.  glibc packs
// small objects, so the last 64-byte granule of a sampled 48-byte object
// held the start of the next, unsampled one, whose access the sampled
// object's counter took (and the weight multiplied): objects read once
// each came out at 1.5 accesses each.  Each object is written exactly once
// and every event's sums share one weight, so the estimate of accesses
// equals the estimate of allocations exactly, for any seed.  (Sampled mode
// on another allocator, allocator=system, keeps the allocator's placement
// and has this error: run.md says so.)
// RUN: rm -rf %t.d* && %clang_heapprof -O1 -g %s -o %t
// RUN: %env_heapprof_opts=sample_bytes=16384:sample_seed=1:profile_dir=%t.d1 %run %t
// RUN: %env_heapprof_opts=sample_bytes=16384:sample_seed=2:profile_dir=%t.d2 %run %t
// RUN: heapprof report --format json %t.d1 | %python %S/Inputs/accesses_equal_allocs.py | FileCheck %s
// RUN: heapprof report --format json %t.d2 | %python %S/Inputs/accesses_equal_allocs.py | FileCheck %s
// CHECK: equal True
#include <stdlib.h>

#define N 200000
static char *v[N];

__attribute__((noinline)) static char *alloc48(void) { return malloc(48); }

int main(void) {
  for (int i = 0; i < N; i++) {
    v[i] = alloc48();
    v[i][0] = 1;
  }
  for (int i = 0; i < N; i++)
    free(v[i]);
  return 0;
}
