// Allocation counts and sizes per context, and each context's block tied to
// its stack by id.  The runtime alone (no access instrumentation).
// RUN: %clang_rt_heapprof -O0 %s -o %t
// RUN: %env_heapprof_opts=log_path=stderr %run %t 2>&1 | FileCheck %s
#include <stdlib.h>

void *alloc_a(void);
void *alloc_b(void);
void *alloc_c(size_t n);

int main(void) {
  // Context ids are handed out in order of first use, and blocks are listed
  // by id: a, b, c.
  for (int i = 0; i < 3; i++)
    free(alloc_a());
  for (int i = 0; i < 2; i++)
    free(alloc_b());
  // One call site, so one context for all four sizes.
  static const size_t sizes[] = {10, 20, 30, 60};
  void *volatile keep = 0;
  for (int i = 0; i < 4; i++) {
    free(keep);
    keep = alloc_c(sizes[i]); // the last one is still live at exit
  }
  return 0;
}
// 3 x malloc(16).
// CHECK: Recorded MIBs
// CHECK: Memory allocation stack id = [[A:[0-9]+]]
// CHECK-NEXT: alloc_count 3, size (ave/min/max) 16.00 / 16 / 16
// CHECK-NEXT: access_count (ave/min/max): 0.00 / 0 / 0
// CHECK: live at dump: 0, continued from earlier dumps: 0
// 2 x calloc(4, 25) = 100 bytes each.
// CHECK: Memory allocation stack id = [[B:[0-9]+]]
// CHECK-NEXT: alloc_count 2, size (ave/min/max) 100.00 / 100 / 100
// CHECK: live at dump: 0, continued from earlier dumps: 0
// 10 + 20 + 30 + 60 = 120 bytes in 4 allocations: ave 30.00.
// CHECK: Memory allocation stack id = [[C:[0-9]+]]
// CHECK-NEXT: alloc_count 4, size (ave/min/max) 30.00 / 10 / 60
// CHECK: live at dump: 1, continued from earlier dumps: 0
// CHECK-NOT: Memory allocation stack id

void *alloc_a(void) {
  return malloc(16);
  // CHECK: Stack for id [[A]]:
  // CHECK-NEXT: #0 0x{{[0-9a-f]+}} in alloc_a {{.*}}alloc_counts.c:[[@LINE-2]]
  // CHECK-NEXT: #1 0x{{[0-9a-f]+}} in main {{.*}}alloc_counts.c
}

void *alloc_b(void) {
  return calloc(4, 25);
  // CHECK: Stack for id [[B]]:
  // CHECK-NEXT: #0 0x{{[0-9a-f]+}} in alloc_b {{.*}}alloc_counts.c:[[@LINE-2]]
  // CHECK-NEXT: #1 0x{{[0-9a-f]+}} in main {{.*}}alloc_counts.c
}

void *alloc_c(size_t n) {
  return malloc(n);
  // CHECK: Stack for id [[C]]:
  // CHECK-NEXT: #0 0x{{[0-9a-f]+}} in alloc_c {{.*}}alloc_counts.c:[[@LINE-2]]
  // CHECK-NEXT: #1 0x{{[0-9a-f]+}} in main {{.*}}alloc_counts.c
}
// 3 + 2 + 4 allocations; 48 + 200 + 120 bytes.
// CHECK: Summary: 3 contexts, 9 allocations, 368 bytes, 0 accesses
