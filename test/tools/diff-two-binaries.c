// heapprof diff of two builds whose binaries moved: each side's program is
// found by its build id among the --binary options, so both can be given
// at once.  The old build allocates 10 blocks of 100 bytes from grow(),
// the new one (-DNEW) 30: grow() grew by 20 allocations, 2000 bytes.  A
// --binary that is neither side's program is one error naming it.
// RUN: rm -rf %t.d && mkdir -p %t.d/old %t.d/new %t.d/bin
// RUN: %clang_heapprof -O0 -g %s -o %t.d/bin/old
// RUN: %clang_heapprof -O0 -g -DNEW %s -o %t.d/bin/new
// RUN: %env_heapprof_opts=profile_dir=%t.d/old %run %t.d/bin/old
// RUN: %env_heapprof_opts=profile_dir=%t.d/new %run %t.d/bin/new
// RUN: mv %t.d/bin %t.d/moved
// RUN: heapprof diff --binary %t.d/moved/old --binary %t.d/moved/new %t.d/old %t.d/new | FileCheck %s
// CHECK: #1 grew bytes +2000 B (1000 B -> 3000 B), allocs +20
// CHECK-NEXT: {{^ +}}grow {{.*}}diff-two-binaries.c
// RUN: %clang_heapprof -O0 -g -DOTHER %s -o %t.d/other
// RUN: not heapprof diff --binary %t.d/moved/old --binary %t.d/moved/new --binary %t.d/other %t.d/old %t.d/new 2>&1 | FileCheck %s --check-prefix=OTHER
// OTHER: heapprof: error: {{.*}}other: neither profile's program nor one of their libraries (no build id matches)
#include <stdlib.h>

#ifdef NEW
enum { N = 30 };
#else
enum { N = 10 };
#endif
#ifdef OTHER
int other_build = 1;
#endif

static void *volatile keep[N];

__attribute__((noinline)) static void grow(void) {
  for (int i = 0; i < N; i++)
    keep[i] = malloc(100);
}

int main(void) {
  grow();
  return 0;
}
