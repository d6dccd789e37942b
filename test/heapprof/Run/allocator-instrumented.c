// A program built with -fheapprof, run on glibc's malloc (allocator=system,
// from HEAPPROF_OPTIONS or heapprof run --allocator=system): its own runtime
// calls through to glibc and still counts accesses, through the shadow,
// which needs no chunk header.  3 objects of 256 bytes from aligned_alloc
// (64-aligned: no granule shared with another object), 12 stores each; 7
// objects of 40 bytes, each freed before the next is made (no live
// neighbour to share a granule with), 10 stores each.  Then two live
// objects of 24 bytes, 3 and 5 stores: adjacent in the allocator's
// 32-byte class, they can share a 64-byte granule, and the first one freed
// takes that granule's counts, so how the 8 split between their contexts
// depends on the addresses -- but every access is counted once: 36 + 70 +
// 8 = 114 in all.
// REQUIRES: heapprof-driver
// RUN: %clang_heapprof -O0 -g %s -o %t
// RUN: rm -rf %t.dir && env HEAPPROF_OPTIONS=allocator=system:profile_dir=%t.dir %t | FileCheck %s --check-prefix=OUT
// RUN: heapprof report %t.dir | FileCheck %s
// RUN: rm -rf %t.run && env -u LD_PRELOAD heapprof run -o %t.run --allocator=system -- %t | FileCheck %s --check-prefix=OUT
// RUN: heapprof report %t.run | FileCheck %s
// The same on jemalloc, preloaded by heapprof run.
// RUN: %if jemalloc %{ rm -rf %t.je && env -u LD_PRELOAD heapprof run -o %t.je --allocator=%libjemalloc -- %t | FileCheck %s --check-prefix=OUT %}
// RUN: %if jemalloc %{ heapprof report %t.je | FileCheck %s %}
// Asking for a library that is not loaded is an error.
// RUN: %if jemalloc %{ env HEAPPROF_OPTIONS=allocator=%libjemalloc not %t 2>&1 | FileCheck %s --check-prefix=NOTLOADED %}
// OUT: done
// CHECK: accesses 114
// CHECK-DAG: 768 B in 3 objects (256 B each), 0 live (0 B), 36 accesses (12.0 per object)
// CHECK-DAG: 280 B in 7 objects (40 B each), 0 live (0 B), 70 accesses (10.0 per object)
// NOTLOADED: HeapProf: ERROR: allocator={{.*}}libjemalloc{{.*}}: cannot profile this allocator: the library is not loaded
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) long *site_aligned(void) {
  return aligned_alloc(64, 256);
}
__attribute__((noinline)) long *site_small(void) { return malloc(40); }
__attribute__((noinline)) long *site_pair(void) { return malloc(24); }

int main(void) {
  long *volatile a[3];
  for (int i = 0; i < 3; i++) {
    a[i] = site_aligned();
    for (int j = 0; j < 12; j++)
      a[i][j % 32] = j;
  }
  for (int i = 0; i < 3; i++)
    free(a[i]);
  for (int i = 0; i < 7; i++) {
    long *volatile p = site_small();
    for (int j = 0; j < 10; j++)
      p[j % 5] = j;
    free(p);
  }
  long *volatile x = site_pair(), *volatile y = site_pair();
  for (int j = 0; j < 3; j++)
    x[j] = j;
  for (int j = 0; j < 5; j++)
    y[j % 3] = j;
  free(x);
  free(y);
  puts("done");
  return 0;
}
