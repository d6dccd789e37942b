// profiling=0: heapprof's allocator alone.  Allocations still work (and
// are still checked), but nothing is recorded and no profile is written.
// RUN: rm -rf %t.dir && %clang_heapprof -O0 %s -o %t
// RUN: %env_heapprof_opts=profiling=0:profile_dir=%t.dir %run %t 2>&1 | FileCheck %s
// RUN: not ls %t.dir
// CHECK: ok 4950
// A double free is still caught: validation is the allocator's.
// RUN: %env_heapprof_opts=profiling=0 not --crash %run %t double 2>&1 | FileCheck %s --check-prefix=DOUBLE
// DOUBLE: HeapProf: ERROR: double-free on address
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  long sum = 0;
  for (int i = 0; i < 100; i++) {
    int *volatile p = malloc(sizeof(int) * (1 + i));
    p[0] = i;
    sum += p[0];
    free(p);
  }
  if (argc > 1 && !strcmp(argv[1], "double")) {
    char *volatile q = malloc(10);
    free(q);
    free(q);
  }
  printf("ok %ld\n", sum);
  return 0;
}
