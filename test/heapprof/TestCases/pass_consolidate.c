// Access counts when a load and a store of one address share one "+2"
// counter update (-heapprof-consolidate), also across a call that is no
// call at run time (the llvm.ctpop intrinsic).  The counts must be what the
// program does, and the same with the merging off.
// REQUIRES: heapprof-driver
// RUN: %clang_heapprof -O2 %s -o %t
// RUN: %env_heapprof_opts=log_path=stderr %run %t 2>&1 | FileCheck %s
// RUN: %clang_heapprof -O2 -mllvm -heapprof-consolidate=0 %s -o %t.off
// RUN: %env_heapprof_opts=log_path=stderr %run %t.off 2>&1 | FileCheck %s
// The merging does happen: "+2" updates, no "+1", in the (unrolled) loop
// (when the loop keeps its updates: by default its walk is recorded at
// the exit, with a weight of 2).
// RUN: %clang_heapprof -O2 -mllvm -heapprof-strided-loops=0 -S -emit-llvm -fno-discard-value-names %s -o - | FileCheck %s --check-prefix=IR
// IR-LABEL: define {{.*}} @popcounts(
// IR-NOT: add i64 %heapprof.count{{[0-9]*}}, 1
// IR: add i64 %heapprof.count{{[0-9]*}}, 2
// IR-NOT: add i64 %heapprof.count{{[0-9]*}}, 1
// IR: {{^}}}
#include <stdlib.h>

__attribute__((noinline)) unsigned long *make_words(void) {
  return malloc(100 * sizeof(unsigned long));
}

// 100 loads and 100 stores: 200.
__attribute__((noinline)) void popcounts(unsigned long *x, int n) {
#pragma clang loop vectorize(disable)
  for (int i = 0; i < n; i++)
    x[i] = (unsigned long)__builtin_popcountl(x[i]);
}

int main(void) {
  unsigned long *volatile w = make_words();
  // 100 stores: 100.
  for (int i = 0; i < 100; i++)
    w[i] = (unsigned long)i;
  popcounts(w, 100);
  int ok = w[7] == 3; // 1 load
  free(w);
  return !ok;
}
// CHECK: Memory allocation stack id = [[WORDS:[0-9]+]]
// CHECK-NEXT: alloc_count 1, size (ave/min/max) 800.00 / 800 / 800
// CHECK-NEXT: access_count (ave/min/max): 301.00 / 301 / 301
// CHECK: Stack for id [[WORDS]]:
// CHECK-NEXT: in make_words
