// free() of a pointer into a chunk that was already freed is a double free
// of that chunk, with the offset named (not "interior pointer", which says
// the chunk is live): for a small chunk, whose header survives its free,
// with the allocation stack; for a large one, whose mapping is gone, without.
// RUN: %clang_rt_heapprof -O0 %s -o %t
// RUN: %env_heapprof_opts=log_path=stderr not --crash %run %t small 2>&1 | FileCheck %s --check-prefixes=CHECK,SMALL
// RUN: %env_heapprof_opts=log_path=stderr not --crash %run %t large 2>&1 | FileCheck %s --check-prefixes=CHECK,LARGE
// RUN: %env_heapprof_opts=log_path=stderr:halt_on_error=0 %run %t small 2>&1 | FileCheck %s --check-prefixes=GOON
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__attribute__((noinline)) char *make_small(void) { return malloc(100); }
__attribute__((noinline)) char *make_large(void) { return malloc(1 << 20); }
__attribute__((noinline)) void second_free(void *p) { free(p); }

int main(int argc, char **argv) {
  int large = !strcmp(argv[1], "large");
  char *volatile p = large ? make_large() : make_small();
  fprintf(stderr, "chunk at %p\n", (void *)p);
  free(p);
  second_free(p + 16);
  fprintf(stderr, "program finished\n");
  return 0;
}
// CHECK: chunk at [[P:0x[0-9a-f]+]]
// CHECK-NEXT: HeapProf: ERROR: double-free on address 0x{{[0-9a-f]+}} (pc 0x{{[0-9a-f]+}}, free): 16 bytes inside the chunk at [[P]], which is already freed
// CHECK-NEXT: #0 0x{{[0-9a-f]+}} in second_free {{.*}}free_of_freed_interior.c:
// SMALL: The chunk (100 bytes) was allocated at:
// SMALL-NEXT: #0 0x{{[0-9a-f]+}} in make_small
// LARGE-NOT: was allocated at
// CHECK: HINT: HEAPPROF_OPTIONS=halt_on_error=0
// CHECK-NEXT: HeapProf: ABORTING
// The chunk was freed once: one allocation, nothing live.
// GOON: double-free on address
// GOON: program finished
// GOON: alloc_count 1, size (ave/min/max) 100.00 / 100 / 100
// GOON: live at dump: 0
