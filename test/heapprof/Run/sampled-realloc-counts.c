// Sampled mode on another allocator counts every call as full profiling
// does, reallocs included: a realloc that moves or resizes an object
// counts its old half as freed, whether the object was sampled or not.
// The program makes 100 objects of 16 bytes, grows each to 32 and then 64
// bytes with realloc, and frees them: 300 allocations (100 mallocs, 200
// reallocs), 300 deallocations (200 old halves, 100 frees), 200 reallocs.
// Sampled with nothing sampled (sample_bytes=2^40), the same; sampled mode
// once counted 100 frees, the unsampled old halves left out.  On jemalloc
// one more allocation: libstdc++'s exception-handling pool (71 KiB, at its
// start: jemalloc's C++ operators load libstdc++).
// RUN: %clang_plain -O0 -g %s -o %t
// RUN: rm -rf %t.f && env -u LD_PRELOAD HEAPPROF_OPTIONS=print_stats=1 heapprof run -o %t.f --allocator=system -- %t 2>&1 | FileCheck %s
// RUN: rm -rf %t.s && env -u LD_PRELOAD HEAPPROF_OPTIONS=print_stats=1:sample_bytes=1099511627776 heapprof run -o %t.s --allocator=system -- %t 2>&1 | FileCheck %s
// RUN: %if jemalloc %{ rm -rf %t.j && env -u LD_PRELOAD HEAPPROF_OPTIONS=print_stats=1:sample_bytes=1099511627776 heapprof run -o %t.j --allocator=%libjemalloc -- %t 2>&1 | FileCheck %s --check-prefix=JE %}
// RUN: %if jemalloc %{ rm -rf %t.a && env -u LD_PRELOAD HEAPPROF_OPTIONS=print_stats=1:sample_bytes=1 heapprof run -o %t.a --allocator=%libjemalloc -- %t 2>&1 | FileCheck %s --check-prefix=JE %}
// CHECK: mallocs{{ +}}300 allocations
// CHECK: frees{{ +}}300 deallocations
// CHECK: reallocs{{ +}}200 reallocations
// JE: mallocs{{ +}}301 allocations
// JE: frees{{ +}}300 deallocations
// JE: reallocs{{ +}}200 reallocations
#include <stdlib.h>

static char *volatile keep[100];

int main(void) {
  for (int i = 0; i < 100; i++)
    keep[i] = malloc(16);
  for (int i = 0; i < 100; i++)
    keep[i] = realloc(keep[i], 32);
  for (int i = 0; i < 100; i++)
    keep[i] = realloc(keep[i], 64);
  for (int i = 0; i < 100; i++)
    free(keep[i]);
  return 0;
}
