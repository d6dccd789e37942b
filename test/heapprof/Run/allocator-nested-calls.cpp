// A call the wrapped allocator makes into the allocator's entry points is
// the allocator's own doing, not the program's: it passes through to the
// allocator unrecorded.  jemalloc's operator delete is a jump to free
// through the PLT, which lands in heapprof's free; recorded, it counted
// every delete a second time, as a free, in sampled mode, and took the
// cycle tick from the delete in every mode (its class had no sample).
// The program deletes 1000 int[10] and 1000 ints: 2000 deletes, no free,
// and with cycle_sample_every=64 (the default) 2000 / 64 = 31 of the
// deletes timed.
// REQUIRES: jemalloc
// RUN: %clangxx_plain -O0 -g %s -o %t
// RUN: rm -rf %t.f && env -u LD_PRELOAD HEAPPROF_OPTIONS=print_stats=1 heapprof run -o %t.f --allocator=%libjemalloc -- %t > %t.f.out 2>&1
// RUN: FileCheck %s --check-prefix=STATS < %t.f.out
// RUN: heapprof show %t.f/*.profraw > %t.f.show
// RUN: FileCheck %s < %t.f.show
// RUN: FileCheck %s --check-prefix=NOFREE < %t.f.show
// Sampled, nothing sampled and everything sampled:
// RUN: rm -rf %t.s && env -u LD_PRELOAD HEAPPROF_OPTIONS=print_stats=1:sample_bytes=1099511627776 heapprof run -o %t.s --allocator=%libjemalloc -- %t > %t.s.out 2>&1
// RUN: FileCheck %s --check-prefix=STATS < %t.s.out
// RUN: heapprof show %t.s/*.profraw > %t.s.show
// RUN: FileCheck %s < %t.s.show
// RUN: FileCheck %s --check-prefix=NOFREE < %t.s.show
// RUN: rm -rf %t.a && env -u LD_PRELOAD HEAPPROF_OPTIONS=print_stats=1:sample_bytes=1 heapprof run -o %t.a --allocator=%libjemalloc -- %t > %t.a.out 2>&1
// RUN: FileCheck %s --check-prefix=STATS < %t.a.out
// RUN: heapprof show %t.a/*.profraw > %t.a.show
// RUN: FileCheck %s < %t.a.show
// RUN: FileCheck %s --check-prefix=NOFREE < %t.a.show
// STATS: frees{{ +}}2000 deallocations
// CHECK: new small - serial: count=2000 sampled=31
// CHECK: delete small - serial: count=2000 sampled=31
// NOFREE-NOT: free small
#include <cstdio>

int main() {
  for (int i = 0; i < 1000; i++) {
    int *volatile p = new int[10];
    p[0] = i;
    delete[] p;
  }
  for (int i = 0; i < 1000; i++) {
    int *volatile p = new int;
    *p = i;
    delete p;
  }
  puts("ok");
  return 0;
}
