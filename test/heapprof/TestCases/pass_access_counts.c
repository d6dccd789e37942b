// Access counts from the instrumentation pass: every load and store adds one
// to its granule's counter, whatever the optimisation level.  The pointers
// live in volatile variables so the optimiser can neither delete the
// allocations nor merge the accesses.
// REQUIRES: heapprof-driver
// RUN: %clang_heapprof -O0 %s -o %t0
// RUN: %env_heapprof_opts=log_path=stderr %run %t0 2>&1 | FileCheck %s
// RUN: %clang_heapprof -O2 %s -o %t2
// RUN: %env_heapprof_opts=log_path=stderr %run %t2 2>&1 | FileCheck %s
#include <stdlib.h>

struct point {
  long x, y, z;
};

__attribute__((noinline)) int *make_ints(void) { return malloc(10 * sizeof(int)); }
__attribute__((noinline)) char *make_chars(void) { return malloc(100); }
__attribute__((noinline)) struct point *make_point(void) {
  return malloc(sizeof(struct point));
}
__attribute__((noinline)) int *make_untouched(void) { return malloc(64); }

int main(void) {
  // 10 int stores + 10 int loads into a 40-byte chunk: 20.
  int *volatile a = make_ints();
  for (int i = 0; i < 10; i++)
    a[i] = i;
  int sum = 0;
  for (int i = 0; i < 10; i++)
    sum += a[i];

  // 100 byte stores: 100.
  char *volatile c = make_chars();
  for (int i = 0; i < 100; i++)
    c[i] = (char)i;

  // 3 stores, then 2 loads of each field: 9.
  struct point *volatile pt = make_point();
  pt->x = 1;
  pt->y = 2;
  pt->z = 3;
  for (int k = 0; k < 2; k++)
    sum += (int)(pt->x + pt->y + pt->z);

  int *volatile u = make_untouched();
  free(a);
  free(c);
  free(pt);
  free(u);
  return sum == 45 + 12 ? 0 : 1;
}
// CHECK: Memory allocation stack id = [[INTS:[0-9]+]]
// CHECK-NEXT: alloc_count 1, size (ave/min/max) 40.00 / 40 / 40
// CHECK-NEXT: access_count (ave/min/max): 20.00 / 20 / 20
// CHECK: Memory allocation stack id = [[CHARS:[0-9]+]]
// CHECK-NEXT: alloc_count 1, size (ave/min/max) 100.00 / 100 / 100
// CHECK-NEXT: access_count (ave/min/max): 100.00 / 100 / 100
// CHECK: Memory allocation stack id = [[POINT:[0-9]+]]
// CHECK-NEXT: alloc_count 1, size (ave/min/max) 24.00 / 24 / 24
// CHECK-NEXT: access_count (ave/min/max): 9.00 / 9 / 9
// CHECK: Memory allocation stack id = [[UNTOUCHED:[0-9]+]]
// CHECK-NEXT: alloc_count 1, size (ave/min/max) 64.00 / 64 / 64
// CHECK-NEXT: access_count (ave/min/max): 0.00 / 0 / 0
// CHECK: Stack for id [[INTS]]:
// CHECK-NEXT: in make_ints
// CHECK: Stack for id [[CHARS]]:
// CHECK-NEXT: in make_chars
// CHECK: Stack for id [[POINT]]:
// CHECK-NEXT: in make_point
// CHECK: Stack for id [[UNTOUCHED]]:
// CHECK-NEXT: in make_untouched
// CHECK: Summary: 4 contexts, 4 allocations, 228 bytes, 129 accesses
