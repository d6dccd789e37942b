// free() of a pointer just before a chunk -- into the alignment padding of a
// memalign'd chunk, or into the header page of a large one -- names the
// distance before the chunk (not a huge "interior" offset, as an unsigned
// p - chunk once printed: 18446744073709551600 for -16).
// RUN: %clang_rt_heapprof -O0 %s -o %t
// RUN: %env_heapprof_opts=log_path=stderr not --crash %run %t aligned 2>&1 | FileCheck %s
// RUN: %env_heapprof_opts=log_path=stderr not --crash %run %t large 2>&1 | FileCheck %s
// RUN: %env_heapprof_opts=log_path=stderr:halt_on_error=0 %run %t aligned 2>&1 | FileCheck %s --check-prefixes=CHECK,GOON
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__attribute__((noinline)) void release_it(void *p) { free(p); }

int main(int argc, char **argv) {
  char *volatile p = !strcmp(argv[1], "large") ? malloc(1 << 20)
                                                : memalign(256, 100);
  fprintf(stderr, "chunk at %p\n", (void *)p);
  release_it(p - 16);
  fprintf(stderr, "program finished\n");
  free(p);
  return 0;
}
// CHECK: chunk at [[P:0x[0-9a-f]+]]
// CHECK-NEXT: HeapProf: ERROR: invalid-free on address 0x{{[0-9a-f]+}} (pc 0x{{[0-9a-f]+}}, free): 16 bytes before the chunk at [[P]], in its header or alignment padding
// CHECK-NEXT: #0 0x{{[0-9a-f]+}} in release_it {{.*}}invalid_free_before_chunk.c:
// CHECK: HINT: HEAPPROF_OPTIONS=halt_on_error=0
// GOON: program finished
// GOON-NOT: ERROR
