// realloc_in_place (default on; 0 is phkmalloc's R): realloc keeps the
// pointer when the new size needs the chunk's size class -- growing 40 ->
// 60 and shrinking 60 -> 41 (all in the 96-byte class), and a large chunk
// growing within its pages -- and moves across classes (60 -> 1000 and
// 1000 -> 40).  The profile is the same either way: each realloc ends the
// old chunk (its accesses go to its own context) and starts a chunk of the
// realloc's context whose counters start at zero, the grown bytes'
// included.
// RUN: %clang_rt_heapprof -O0 %s -o %t
// RUN: %env_heapprof_opts=log_path=stderr %run %t 2>&1 | FileCheck %s --check-prefixes=CHECK,INPLACE
// RUN: %env_heapprof_opts=realloc_in_place=1:log_path=stderr %run %t 2>&1 | FileCheck %s --check-prefixes=CHECK,INPLACE
// RUN: %env_heapprof_opts=realloc_in_place=0:log_path=stderr %run %t 2>&1 | FileCheck %s --check-prefixes=CHECK,MOVE
#include <heapprof/heapprof_interface.h>
#include <stdio.h>
#include <stdlib.h>

static void touch(char *p, size_t n, int times) {
  for (int i = 0; i < times; i++)
    __heapprof_record_access(p + (size_t)i % n);
}

__attribute__((noinline)) char *make(size_t n) { return malloc(n); }
__attribute__((noinline)) char *grow(char *p, size_t n) { return realloc(p, n); }
__attribute__((noinline)) char *shrink(char *p, size_t n) { return realloc(p, n); }
__attribute__((noinline)) char *across(char *p, size_t n) { return realloc(p, n); }
__attribute__((noinline)) char *make_large(size_t n) { return malloc(n); }
__attribute__((noinline)) char *grow_large(char *p, size_t n) { return realloc(p, n); }

int main(void) {
  char *volatile p = make(40);
  touch(p, 40, 5);
  char *volatile q = grow(p, 60);
  fprintf(stderr, "40 -> 60: %s\n", q == p ? "same" : "moved");
  // INPLACE: 40 -> 60: same
  // MOVE: 40 -> 60: moved
  // 3 accesses, two of them to bytes the chunk grew into.
  __heapprof_record_access(q + 10);
  __heapprof_record_access(q + 50);
  __heapprof_record_access(q + 59);
  char *volatile r = shrink(q, 41);
  fprintf(stderr, "60 -> 41: %s\n", r == q ? "same" : "moved");
  // INPLACE: 60 -> 41: same
  // MOVE: 60 -> 41: moved
  touch(r, 41, 7);
  char *volatile s = across(r, 1000);
  fprintf(stderr, "41 -> 1000: %s\n", s == r ? "same" : "moved");
  // CHECK: 41 -> 1000: moved
  char *volatile t = across(s, 40);
  fprintf(stderr, "1000 -> 40: %s\n", t == s ? "same" : "moved");
  // CHECK: 1000 -> 40: moved
  free(t);
  // 300000 bytes take 74 pages after the header page; 300100 still fit.
  char *volatile l = make_large(300000);
  touch(l, 300000, 11);
  char *volatile m = grow_large(l, 300100);
  fprintf(stderr, "300000 -> 300100: %s\n", m == l ? "same" : "moved");
  // INPLACE: 300000 -> 300100: same
  // MOVE: 300000 -> 300100: moved
  touch(m + 300000, 100, 2);
  free(m);
  return 0;
}
// Contexts in order of first allocation: make 5, grow 3, shrink 7, the two
// calls of across (two lines of main: two contexts) 0 each, make_large 11,
// grow_large 2.
// CHECK-LABEL: HeapProf profile:
// CHECK: Memory allocation stack id = [[MAKE:[0-9]+]]
// CHECK-NEXT: alloc_count 1, size (ave/min/max) 40.00 / 40 / 40
// CHECK-NEXT: access_count (ave/min/max): 5.00 / 5 / 5
// CHECK: Memory allocation stack id = [[GROW:[0-9]+]]
// CHECK-NEXT: alloc_count 1, size (ave/min/max) 60.00 / 60 / 60
// CHECK-NEXT: access_count (ave/min/max): 3.00 / 3 / 3
// CHECK: Memory allocation stack id = [[SHRINK:[0-9]+]]
// CHECK-NEXT: alloc_count 1, size (ave/min/max) 41.00 / 41 / 41
// CHECK-NEXT: access_count (ave/min/max): 7.00 / 7 / 7
// CHECK: Memory allocation stack id = [[ACROSS:[0-9]+]]
// CHECK-NEXT: alloc_count 1, size (ave/min/max) 1000.00 / 1000 / 1000
// CHECK-NEXT: access_count (ave/min/max): 0.00 / 0 / 0
// CHECK: Memory allocation stack id = [[ACROSS2:[0-9]+]]
// CHECK-NEXT: alloc_count 1, size (ave/min/max) 40.00 / 40 / 40
// CHECK-NEXT: access_count (ave/min/max): 0.00 / 0 / 0
// CHECK: Memory allocation stack id = [[LARGE:[0-9]+]]
// CHECK-NEXT: alloc_count 1, size (ave/min/max) 300000.00 / 300000 / 300000
// CHECK-NEXT: access_count (ave/min/max): 11.00 / 11 / 11
// CHECK: Memory allocation stack id = [[GLARGE:[0-9]+]]
// CHECK-NEXT: alloc_count 1, size (ave/min/max) 300100.00 / 300100 / 300100
// CHECK-NEXT: access_count (ave/min/max): 2.00 / 2 / 2
// CHECK: Stack for id [[MAKE]]:
// CHECK-NEXT: in make
// CHECK: Stack for id [[GROW]]:
// CHECK-NEXT: in grow
// CHECK: Stack for id [[SHRINK]]:
// CHECK-NEXT: in shrink
// CHECK: Stack for id [[ACROSS]]:
// CHECK-NEXT: in across
// CHECK: Stack for id [[ACROSS2]]:
// CHECK-NEXT: in across
// CHECK: Stack for id [[LARGE]]:
// CHECK-NEXT: in make_large
// CHECK: Stack for id [[GLARGE]]:
// CHECK-NEXT: in grow_large
