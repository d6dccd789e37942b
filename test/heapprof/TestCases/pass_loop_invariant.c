// Access counts of loops that read a loop-invariant heap address: the pass
// sums those reads in a register and adds the sum to the counter when the
// loop exits (-heapprof-hoist-loop-invariant).  Every count must be what
// the program does, and the same with the transformation off.
// REQUIRES: heapprof-driver
// RUN: %clang_heapprof -O2 %s -o %t
// RUN: %env_heapprof_opts=log_path=stderr %run %t 2>&1 | FileCheck %s
// RUN: %clang_heapprof -O2 -mllvm -heapprof-hoist-loop-invariant=0 %s -o %t.off
// RUN: %env_heapprof_opts=log_path=stderr %run %t.off 2>&1 | FileCheck %s
// RUN: %clang_heapprof -O1 %s -o %t1
// RUN: %env_heapprof_opts=log_path=stderr %run %t1 2>&1 | FileCheck %s
// The transformation does happen here: the loops' sums are registers (phis).
// RUN: %clang_heapprof -O2 -S -emit-llvm -fno-discard-value-names %s -o - | FileCheck %s --check-prefix=IR
// IR: define {{.*}} @sum_first(
// IR: %heapprof.acc{{.*}} = phi i64
// IR: define {{.*}} @nested(
// IR: %heapprof.acc{{.*}} = phi i64
// IR: define {{.*}} @find(
// IR: %heapprof.acc{{.*}} = phi i64
#include <stdlib.h>

// Global, so not counted, and of the element type of the heap arrays, so
// the optimizer cannot move the invariant loads out of the loops (a store
// to out[i] may change a[0]).
long out[1000];

__attribute__((noinline)) long *make_first(void) { return malloc(8 * sizeof(long)); }
__attribute__((noinline)) long *make_nested(void) { return malloc(8 * sizeof(long)); }
__attribute__((noinline)) long *make_find(void) { return malloc(8 * sizeof(long)); }
__attribute__((noinline)) long *make_never(void) { return malloc(8 * sizeof(long)); }
__attribute__((noinline)) void opaque(void) { __asm__ volatile("" ::: "memory"); }

// n reads of a[0].
__attribute__((noinline)) long sum_first(long *a, int n) {
  long s = 0;
#pragma clang loop vectorize(disable)
  for (int i = 0; i < n; i++) {
    s += a[0];
    out[i] = s;
  }
  return s;
}

// The outer loop calls a function, so only the inner one keeps a sum:
// outer * inner reads of a[1], added at each exit of the inner loop.
__attribute__((noinline)) long nested(long *a, int outer, int inner) {
  long s = 0;
  for (int j = 0; j < outer; j++) {
#pragma clang loop vectorize(disable)
    for (int i = 0; i < inner; i++) {
      s += a[1];
      out[i] = s;
    }
    opaque();
  }
  return s;
}

// A loop with two exits (two exit blocks, each adding the sum): reads a[2]
// once per iteration until out[i] == key or i == n.
__attribute__((noinline)) int find(long *a, long key, int n) {
  int i = 0;
  for (; i < n; i++) {
    out[i] += a[2];
    if (out[i] == key)
      break;
  }
  return i;
}

int main(int argc, char **argv) {
  (void)argv;
  long *volatile first = make_first();
  long *volatile nest = make_nested();
  long *volatile fnd = make_find();
  long *volatile never = make_never();
  first[0] = 1; // 1 write
  nest[1] = 1;  // 1 write
  fnd[2] = 1;   // 1 write
  long s = sum_first(first, 1000); // 1000 reads
  s += nested(nest, 10, 100);      // 1000 reads
  for (int i = 0; i < 1000; i++)
    out[i] = 0;
  out[499] = 41;
  s += find(fnd, 42, 1000); // 500 reads: out[499] becomes 42, the break
  s += find(fnd, -1, 300);  // 300 reads: out[] >= 0, so i reaches n
  // A loop that never runs: nothing counted, and the pointer (null here)
  // never touched.
  s += sum_first(argc > 5 ? never : NULL, argc - 1);
  free(first);
  free(nest);
  free(fnd);
  free(never);
  return s == 0;
}
// CHECK: Memory allocation stack id = [[FIRST:[0-9]+]]
// CHECK-NEXT: alloc_count 1, size (ave/min/max) 64.00 / 64 / 64
// CHECK-NEXT: access_count (ave/min/max): 1001.00 / 1001 / 1001
// CHECK: Memory allocation stack id = [[NESTED:[0-9]+]]
// CHECK-NEXT: alloc_count 1, size (ave/min/max) 64.00 / 64 / 64
// CHECK-NEXT: access_count (ave/min/max): 1001.00 / 1001 / 1001
// CHECK: Memory allocation stack id = [[FIND:[0-9]+]]
// CHECK-NEXT: alloc_count 1, size (ave/min/max) 64.00 / 64 / 64
// CHECK-NEXT: access_count (ave/min/max): 801.00 / 801 / 801
// CHECK: Memory allocation stack id = [[NEVER:[0-9]+]]
// CHECK-NEXT: alloc_count 1, size (ave/min/max) 64.00 / 64 / 64
// CHECK-NEXT: access_count (ave/min/max): 0.00 / 0 / 0
// CHECK: Stack for id [[FIRST]]:
// CHECK-NEXT: in make_first
// CHECK: Stack for id [[NESTED]]:
// CHECK-NEXT: in make_nested
// CHECK: Stack for id [[FIND]]:
// CHECK-NEXT: in make_find
// CHECK: Stack for id [[NEVER]]:
// CHECK-NEXT: in make_never
