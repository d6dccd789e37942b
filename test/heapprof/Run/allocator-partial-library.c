// --allocator=PATH.so with a library that defines malloc, free, calloc,
// realloc and posix_memalign and nothing more (Inputs/bump-alloc.c: no
// malloc_usable_size, memalign, aligned_alloc, valloc, pvalloc), as an
// interposer that counts calls and forwards them does.  The runtime took
// those through the library's handle, whose lookup goes on into its
// dependencies: it got glibc's.  glibc's malloc_usable_size read the
// library's blocks as glibc chunks (node, run on a counting interposer
// before jemalloc, crashed in it), and glibc's memalign and valloc handed
// out blocks the library's free does not know.  Now the library's own
// definitions only: the aligned forms through its posix_memalign, the
// usable size the size heapprof recorded.
// RUN: %clang_plain -O2 -shared -fPIC %S/Inputs/bump-alloc.c -o %t.bump.so
// RUN: %clang_plain -O0 %s -o %t -ldl
// RUN: rm -rf %t.d && env -u LD_PRELOAD heapprof run -o %t.d --allocator=%t.bump.so -- %t 2>&1 | FileCheck %s
//
// Each block is the library's, aligned as asked; malloc(100)'s usable size
// is the 100 bytes asked for (the library keeps no more), pvalloc(500)'s a
// page.
// CHECK: malloc usable 100 owned 1
// CHECK-NEXT: memalign owned 1 aligned 1
// CHECK-NEXT: aligned_alloc owned 1 aligned 1
// CHECK-NEXT: valloc owned 1 aligned 1
// CHECK-NEXT: pvalloc usable 4096 owned 1 aligned 1
// CHECK-NEXT: all freed
//
// The profile has each of them, by the size asked for; over 1024 bytes,
// pvalloc's page and stdout's buffer (stdio's, a page or more).
// RUN: heapprof report %t.d | FileCheck %s --check-prefix=BINS
// BINS: allocator {{.*}}bump.so, profiled as it ran (allocator=PATH)
// BINS: == Allocation bins
// BINS-DAG: {{^ *100 +1 }}
// BINS-DAG: {{^ *200 +1 }}
// BINS-DAG: {{^ *320 +1 }}
// BINS-DAG: {{^ *400 +1 }}
// BINS-DAG: {{^ *>1024 +2 }}
#define _GNU_SOURCE
#include <dlfcn.h>
#include <malloc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static void *volatile p[5];

int main(void) {
  int (*owns)(const void *) =
      (int (*)(const void *))dlsym(RTLD_DEFAULT, "bump_owns");
  if (!owns) {
    printf("bump_owns not found\n");
    return 1;
  }
  p[0] = malloc(100);
  printf("malloc usable %zu owned %d\n", malloc_usable_size(p[0]), owns(p[0]));
  p[1] = memalign(64, 200);
  printf("memalign owned %d aligned %d\n", owns(p[1]),
         (uintptr_t)p[1] % 64 == 0);
  p[2] = aligned_alloc(64, 320);
  printf("aligned_alloc owned %d aligned %d\n", owns(p[2]),
         (uintptr_t)p[2] % 64 == 0);
  p[3] = valloc(400);
  printf("valloc owned %d aligned %d\n", owns(p[3]),
         (uintptr_t)p[3] % 4096 == 0);
  p[4] = pvalloc(500);
  printf("pvalloc usable %zu owned %d aligned %d\n", malloc_usable_size(p[4]),
         owns(p[4]), (uintptr_t)p[4] % 4096 == 0);
  for (int i = 0; i < 5; i++)
    free(p[i]);
  printf("all freed\n");
  return 0;
}
