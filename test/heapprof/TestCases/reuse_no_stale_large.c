// No stale counts in a large chunk whose counters are cleared with
// MADV_DONTNEED (64 KiB of counters or more: chunks of 512 KiB and more,
// design.md "Clearing and scanning"): the whole pages of counters go back
// to the kernel, and the counters on the partial pages at either end are
// zeroed by stores.  fill(n) writes every 64-byte granule of a fresh chunk
// once and frees it; fresh(n) then takes a chunk of the same size, which
// mmap places where the freed one was (printed), and frees it untouched.
// fresh's 8 chunks must show 0 accesses and fill's exactly n / 64 each
// (9375 to 9823 granules, 9599 on average): each fill chunk takes the
// place of the fresh one before it.  A chunk's last counter page is
// partial unless its end is on a 32 KiB boundary, so eight sizes 4 KiB
// apart (600000 + k * 4096) leave at most one chunk without one.
// RUN: %clang_rt_heapprof -O0 %s -o %t
// RUN: %env_heapprof_opts=log_path=stderr %run %t 2>&1 | FileCheck %s
#include <heapprof/heapprof_interface.h>
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) char *fill(size_t n) {
  char *p = malloc(n);
  for (size_t i = 0; i < n; i += 64)
    __heapprof_record_access(p + i);
  return p;
}
__attribute__((noinline)) char *fresh(size_t n) { return malloc(n); }

int main(void) {
  int reused = 0;
  for (int k = 0; k < 8; k++) {
    size_t n = 600000 + (size_t)k * 4096;
    char *volatile a = fill(n);
    free(a);
    char *volatile b = fresh(n);
    reused += a == b;
    free(b);
  }
  fprintf(stderr, "reused %d of 8\n", reused);
  return 0;
}
// CHECK: reused {{[1-8]}} of 8
// CHECK-LABEL: HeapProf profile:
// CHECK: Memory allocation stack id = [[FILL:[0-9]+]]
// CHECK-NEXT: alloc_count 8,
// CHECK-NEXT: access_count (ave/min/max): 9599.00 / 9375 / 9823
// CHECK: Memory allocation stack id = [[FRESH:[0-9]+]]
// CHECK-NEXT: alloc_count 8,
// CHECK-NEXT: access_count (ave/min/max): 0.00 / 0 / 0
// CHECK: Stack for id [[FILL]]:
// CHECK-NEXT: in fill
// CHECK: Stack for id [[FRESH]]:
// CHECK-NEXT: in fresh
