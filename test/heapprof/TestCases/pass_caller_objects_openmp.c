// OpenMP parallel regions: the outlined region reaches the enclosing
// function's variables (n, the reduction's array) through its arguments,
// which the pass leaves uncounted (-heapprof-skip-caller-objects through
// __kmpc_fork_call's !callback metadata); the heap array's counts are what
// the program does, the same with the analysis off.
// REQUIRES: heapprof-driver, openmp
// RUN: %clang_heapprof -O2 -fopenmp %s -o %t
// RUN: %env_heapprof_opts=log_path=stderr %run %t 2>&1 | FileCheck %s
// RUN: %clang_heapprof -O2 -fopenmp -mllvm -heapprof-skip-caller-objects=0 %s -o %t.off
// RUN: %env_heapprof_opts=log_path=stderr %run %t.off 2>&1 | FileCheck %s
#include <stdlib.h>

__attribute__((noinline)) static long *make_array(long n) {
  return malloc((size_t)n * sizeof(long));
}

int main(void) {
  long n = 1000;
  long *a = make_array(n);
  long hist[4] = {0};
  // 1000 stores.
#pragma omp parallel for num_threads(2)
  for (long i = 0; i < n; i++)
    a[i] = i;
  // 1000 loads; the histogram is the threads' own copies, then main's.
#pragma omp parallel for num_threads(2) reduction(+ : hist[:4])
  for (long i = 0; i < n; i++)
    hist[a[i] & 3] += 1;
  int ok = hist[0] == 250 && hist[3] == 250;
  free(a);
  return !ok;
}
// libomp's own allocations come first: the array's record is the one of
// 8000 bytes.
// CHECK: Memory allocation stack id = [[ARRAY:[0-9]+]]{{[[:space:]]+}}alloc_count 1, size (ave/min/max) 8000.00 / 8000 / 8000
// CHECK-NEXT: access_count (ave/min/max): 2000.00 / 2000 / 2000
// CHECK: Stack for id [[ARRAY]]:
// CHECK-NEXT: in make_array
