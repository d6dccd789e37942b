// Double free of a small (primary) chunk and of a large (>= 128 KiB, mmap'd)
// chunk: "double-free" report with the stack of the second free, the
// allocation stack when the header is still known, the hint, an abort after
// the profile.  halt_on_error=0 reports and continues, and the chunk is
// counted once.
// RUN: %clang_rt_heapprof -O0 %s -o %t
// RUN: %env_heapprof_opts=log_path=stderr not --crash %run %t small 2>&1 | FileCheck %s --check-prefixes=CHECK,SMALL
// RUN: %env_heapprof_opts=log_path=stderr not --crash %run %t large 2>&1 | FileCheck %s --check-prefixes=CHECK,LARGE
// RUN: %env_heapprof_opts=log_path=stderr:halt_on_error=0 %run %t small 2>&1 | FileCheck %s --check-prefixes=GOON,GOON-SMALL
// RUN: %env_heapprof_opts=log_path=stderr:halt_on_error=0 %run %t large 2>&1 | FileCheck %s --check-prefixes=GOON,GOON-LARGE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__attribute__((noinline)) char *make_small(void) { return malloc(100); }
__attribute__((noinline)) char *make_large(void) { return malloc(256 * 1024); }
__attribute__((noinline)) void first_free(void *p) { free(p); }
__attribute__((noinline)) void second_free(void *p) { free(p); }

int main(int argc, char **argv) {
  int large = !strcmp(argv[1], "large");
  char *volatile p = large ? make_large() : make_small();
  fprintf(stderr, "chunk at %p\n", (void *)p);
  first_free(p);
  second_free(p);
  fprintf(stderr, "program finished\n");
  return 0;
}
// CHECK: chunk at [[P:0x[0-9a-f]+]]
// CHECK-NEXT: HeapProf: ERROR: double-free on address [[P]] (pc 0x{{[0-9a-f]+}}, free)
// CHECK-NEXT: #0 0x{{[0-9a-f]+}} in second_free {{.*}}double_free.c
// CHECK-NEXT: #1 0x{{[0-9a-f]+}} in main {{.*}}double_free.c
// SMALL: The chunk (100 bytes) was allocated at:
// SMALL-NEXT: #0 0x{{[0-9a-f]+}} in make_small {{.*}}double_free.c
// CHECK: HINT: HEAPPROF_OPTIONS=halt_on_error=0 reports and continues
// CHECK-NEXT: HeapProf: ABORTING
// CHECK-NEXT: HeapProf profile: {{.*}}, error, dump 0
// SMALL: alloc_count 1, size (ave/min/max) 100.00 / 100 / 100
// LARGE: alloc_count 1, size (ave/min/max) 262144.00 / 262144 / 262144
// CHECK: live at dump: 0
// CHECK-NOT: program finished

// GOON: chunk at [[P:0x[0-9a-f]+]]
// GOON-NEXT: HeapProf: ERROR: double-free on address [[P]]
// GOON: HINT:
// GOON-NOT: ABORTING
// GOON: program finished
// GOON: , exit, dump 0
// GOON-SMALL: alloc_count 1, size (ave/min/max) 100.00 / 100 / 100
// GOON-LARGE: alloc_count 1, size (ave/min/max) 262144.00 / 262144 / 262144
// GOON: live at dump: 0
// GOON: Summary: 1 contexts, 1 allocations
