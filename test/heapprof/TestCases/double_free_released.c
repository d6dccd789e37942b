// With release_freed_pages=1 a freed block's page may have gone back to the
// kernel, header included (it reads as zeros).  A second free of it is still
// a double free -- without the allocation stack, which went with the page.
// So is a free of a pointer 16 bytes into it: the header's state 0 in a
// region that released pages means freed (design.md, "Validation"), not a
// block never handed out, which would make it a pointer not heapprof's.
// RUN: %clang_rt_heapprof -O0 %s -o %t
// RUN: %env_heapprof_opts=release_freed_pages=1:log_path=stderr not --crash %run %t 2>&1 | FileCheck %s
// RUN: %env_heapprof_opts=release_freed_pages=1:log_path=stderr not --crash %run %t interior 2>&1 | FileCheck %s --check-prefix=INTERIOR
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 64
static char *volatile v[N];

__attribute__((noinline)) void second_free(void *p) { free(p); }

int main(int argc, char **argv) {
  // 64 chunks of 64 KiB (80 KiB blocks: 5 MiB, over the 1 MiB threshold).
  // The class's thread cache holds 3 and drains one at a time, from its
  // top: v[0], v[1] and v[63] stay cached, v[2] goes back to the region
  // first and is released by its first pass.
  for (int i = 0; i < N; i++) {
    v[i] = malloc(64 * 1024);
    memset(v[i], 1, 64 * 1024);
  }
  for (int i = 0; i < N; i++)
    free(v[i]);
  fprintf(stderr, "freed %p\n", (void *)v[2]);
  second_free(argc > 1 ? v[2] + 16 : v[2]);
  return 0;
}
// CHECK: freed [[P:0x[0-9a-f]+]]
// CHECK-NEXT: HeapProf: ERROR: double-free on address [[P]] (pc 0x{{[0-9a-f]+}}, free)
// CHECK-NEXT: #0 0x{{[0-9a-f]+}} in second_free
// CHECK-NOT: was allocated at
// CHECK: HeapProf: ABORTING
// INTERIOR: freed [[P:0x[0-9a-f]+]]
// INTERIOR-NEXT: HeapProf: ERROR: double-free on address 0x{{[0-9a-f]+}} (pc 0x{{[0-9a-f]+}}, free): 16 bytes inside the chunk at [[P]], which is already freed
// INTERIOR-NEXT: #0 0x{{[0-9a-f]+}} in second_free
// INTERIOR-NOT: was allocated at
// INTERIOR: HeapProf: ABORTING
