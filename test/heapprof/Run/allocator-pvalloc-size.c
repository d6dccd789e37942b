// pvalloc(n) allocates n rounded up to whole pages (a page for 0), and is
// recorded so on every allocator: heapprof's, sampled mode's and another
// one's (--allocator=system recorded the 10 bytes asked for, heapprof's
// own the 4096 it gives).  pvalloc(10) and pvalloc(0): 4096 bytes each;
// pvalloc(5000): 8192.  Freed: 3 objects, 16384 bytes.
// RUN: rm -rf %t.h %t.s %t.p && %clang_plain -O1 -g %s -o %t
// RUN: heapprof run -o %t.h -- %t
// RUN: heapprof report %t.h | FileCheck %s
// RUN: heapprof run -o %t.s --allocator=system -- %t
// RUN: heapprof report %t.s | FileCheck %s
// Sampled at 1 byte: every object sampled, weight 1.
// RUN: env HEAPPROF_OPTIONS=sample_bytes=1:sample_seed=1 heapprof run -o %t.p -- %t
// RUN: heapprof report %t.p | FileCheck %s
// CHECK: == Allocation bins
// CHECK-NEXT: size allocs
// CHECK-NEXT: >1024 3 16.0 KiB 3 0 B
#include <malloc.h>
#include <stdlib.h>

int main(void) {
  void *volatile p = pvalloc(10), *volatile q = pvalloc(0),
                 *volatile r = pvalloc(5000);
  free(p);
  free(q);
  free(r);
  return 0;
}
