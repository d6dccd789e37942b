// Allocating and freeing calls are sampled on separate ticks, so strict
// malloc/free alternation measures both (one shared tick once gave every
// sample to malloc and none to free, or the reverse).
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: %clang_heapprof -O0 %s -o %t
// RUN: %env_heapprof_opts=print_raw=1:print_text=0:profile_dir=%t.dir:cycle_sample_every=16 %run %t
// RUN: heapprof show %t.dir/*.profraw | FileCheck %s
#include <stdlib.h>

int main(void) {
  // 100,000 pairs: one in 16 of each kind is measured, 6250 of each. Calls
  // the C library made on this thread before main can advance either tick
  // by less than 16, which moves one sample out of the loop: 6249 or 6250.
  for (int i = 0; i < 100000; i++) {
    char *volatile p = malloc(4000);
    free(p);
  }
  return 0;
}
// CHECK: max_size64=4000 malloc_samples={{6249|6250}} free_samples={{6249|6250}} live_bytes=0
