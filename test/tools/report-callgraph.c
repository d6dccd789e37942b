// heapprof report's direct allocation table and call graph on a known call
// structure, and mprof's cycle merging on a mutual recursion.
//
//   main -> a -> leaf_alloc(100) x3           300 bytes, 3 calls
//   main -> b -> leaf_alloc(200) x2           400 bytes, 2 calls
//   main -> b -> a -> leaf_alloc(100) x3      300 bytes, 3 calls
//   main -> even(4) -> odd -> even -> odd -> even: malloc(64)
//
// The runtime folds the repeated even/odd frames (fold_recursion), leaving
// even <- odd <- even <- main: even and odd call each other, one cycle.
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: %clang_heapprof -O0 -g %s -o %t
// RUN: %env_heapprof_opts=profile_dir=%t.dir %run %t
// RUN: heapprof report %t.dir | FileCheck %s
// RUN: heapprof report --format json %t.dir > %t.json
// RUN: %python %S/Inputs/check-callgraph-json.py %t.json
#include <stdlib.h>

__attribute__((noinline)) static void leaf_alloc(size_t n) {
  void *volatile p = malloc(n);
  free(p);
}
__attribute__((noinline)) static void a(void) {
  for (int i = 0; i < 3; i++)
    leaf_alloc(100);
}
__attribute__((noinline)) static void b(void) {
  for (int i = 0; i < 2; i++)
    leaf_alloc(200);
  a();
}
__attribute__((noinline)) static void *odd(int n);
__attribute__((noinline)) static void *even(int n) {
  return n == 0 ? malloc(64) : odd(n - 1);
}
__attribute__((noinline)) static void *odd(int n) {
  return n == 0 ? malloc(32) : even(n - 1);
}

int main(void) {
  a();
  b();
  void *volatile p = even(4);
  free(p);
  return 0;
}

// 1064 bytes in 9 calls; leaf_alloc made 1000 of them (94.0%), even 64.
// CHECK: == Direct allocation: functions that called the allocator
// CHECK-NEXT: %bytes bytes kept calls small medium large xlarge function
// CHECK-NEXT: 94.0% 1000 B 0 B 8 0% 100% 0% 0% leaf_alloc
// CHECK-NEXT: 6.0% 64 B 0 B 1 0% 100% 0% 0% even
// CHECK-NEXT: (small

// Entries by bytes below them: main 1064, leaf_alloc 1000, b 700
// (400 + 300 through a), a 600 (300 from main, 300 from b), the cycle 64.
// CHECK: == Allocation call graph
// CHECK-NEXT: index %bytes self total calls name
// CHECK-NEXT: [1] 100.0% 0 B 1064 B 9 main [1]
// CHECK-NEXT: 700 B 5 b [3]
// CHECK-NEXT: 300 B 3 a [4]
// CHECK-NEXT: 64 B 1 <cycle 1> [5]
// CHECK-NEXT: -----
// CHECK-NEXT: 600 B 6 a [4]
// CHECK-NEXT: 400 B 2 b [3]
// CHECK-NEXT: [2] 94.0% 1000 B 1000 B 8 leaf_alloc [2]
// CHECK-NEXT: -----
// CHECK-NEXT: 700 B 5 main [1]
// CHECK-NEXT: [3] 65.8% 0 B 700 B 5 b [3]
// CHECK-NEXT: 400 B 2 leaf_alloc [2]
// CHECK-NEXT: 300 B 3 a [4]
// CHECK-NEXT: -----
// CHECK-NEXT: 300 B 3 main [1]
// CHECK-NEXT: 300 B 3 b [3]
// CHECK-NEXT: [4] 56.4% 0 B 600 B 6 a [4]
// CHECK-NEXT: 600 B 6 leaf_alloc [2]
// CHECK-NEXT: -----
// CHECK-NEXT: 64 B 1 main [1]
// CHECK-NEXT: [5] 6.0% 64 B 64 B 1 <cycle 1> [5]: even odd
// CHECK-NEXT: -----
// CHECK-EMPTY:
