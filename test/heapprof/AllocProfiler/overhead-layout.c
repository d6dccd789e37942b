// Memory overhead at the peak, from the allocator's layout
// (docs/allocator-profiler.md, section 5).  The program keeps 1000 chunks
// of 100 bytes (site S), one of 100000 (site M) and one of 200000 (site L)
// live to the end, so the exit dump's heap is the peak.
//   S: 100 + 32 (header) = 132 bytes need the 160-byte class:
//      blocks 160000, headers 32000, rounding 28000.
//   M: 100032 bytes need the class of 64 KiB + 3 x 16 KiB = 114688:
//      headers 32, rounding 14656.
//   L: over 128 KiB, a large chunk: its own mapping, user bytes
//      page-aligned after one page holding its bookkeeping and header:
//      4096 + 200000 rounded up to pages = 204800; headers 4096,
//      rounding 704.
//   requested 400000, blocks 479488, internal fragmentation 79488 of which
//   headers 36128 and rounding 43360.  One thread: no blowup.  External
//   fragmentation = heap mapped - blocks: the 160-byte blocks carved but
//   not in use, fewer than one cache refill (32 blocks, 5120 bytes).
// RUN: %clang_heapprof -O0 -g %s -o %t
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: %env_heapprof_opts=profile_dir=%t.d %run %t
// RUN: heapprof report --format json --top 0 %t.d > %t.json
// RUN: %python %S/Inputs/peak_check.py %t.json peak_bytes=400000 site_s=1000,100000 site_m=1,100000 site_l=1,200000
// RUN: %python %S/Inputs/overhead-layout.py %t.json
// RUN: heapprof report %t.d | FileCheck %s
// The rows' byte counts end in one column, their shares in another.
// RUN: heapprof report %t.d | %python %S/Inputs/overhead-columns.py | FileCheck %s --check-prefix=COLUMNS
// COLUMNS: rows {{[0-9]+}}, byte columns 1, share columns 1
// CHECK: memory overhead at the peak:
// CHECK-NEXT: requested                400000 bytes (390.6 KiB)
// CHECK-NEXT: internal fragmentation    79488 bytes (77.6 KiB)
// CHECK-NEXT: headers                 36128 bytes (35.3 KiB)
// CHECK-NEXT: rounding and pages      43360 bytes (42.3 KiB)
// CHECK-NEXT: memory blowup                 0 bytes (0 B)  (one thread: none)
#include <stdlib.h>

__attribute__((noinline)) static char *site_s(void) { return malloc(100); }
__attribute__((noinline)) static char *site_m(void) { return malloc(100000); }
__attribute__((noinline)) static char *site_l(void) { return malloc(200000); }
static char *volatile s[1000], *volatile m, *volatile l;

int main(void) {
  for (int i = 0; i < 1000; i++)
    s[i] = site_s();
  m = site_m();
  l = site_l();
  return 0;
}
