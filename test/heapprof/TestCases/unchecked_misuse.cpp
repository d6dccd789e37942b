// What heapprof does not report (docs/user-guide.md, "Errors"): the size a
// sized delete is given and the alignment an aligned delete is given are not
// checked, and an aligned new released by a plain delete is one family;
// malloc_usable_size of a pointer heapprof did not hand out, of a freed
// chunk or of a pointer inside a chunk is 0.  On another allocator
// (allocator=system) a mismatched release is not checked at all.
// RUN: %clangxx_rt_heapprof -O0 %s -o %t
// RUN: %env_heapprof_opts=log_path=stderr %run %t 2>&1 | FileCheck %s
// RUN: %env_heapprof_opts=allocator=system:print_raw=0 %run %t mismatch 2>&1 | FileCheck %s --check-prefix=SYSTEM
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <malloc.h>
#include <new>

static int global;

__attribute__((noinline)) void *sized(void) { return ::operator new(40); }
__attribute__((noinline)) void *aligned(void) {
  return ::operator new(64, std::align_val_t(256));
}

int main(int argc, char **argv) {
  if (argc > 1) {
    char *volatile a = new char[40];
    free(a); // new[] by free: glibc's, unchecked
    fprintf(stderr, "program finished\n");
    return 0;
  }
  void *volatile p = sized();
  ::operator delete(p, 100); // wrong size: released all the same
  void *volatile q = aligned();
  ::operator delete(q); // aligned new, plain delete
  int local;
  char *volatile f = (char *)malloc(40);
  char *volatile live = (char *)malloc(40);
  free(f);
  fprintf(stderr, "usable %zu %zu %zu %zu %zu\n", malloc_usable_size(&local),
          malloc_usable_size(&global), malloc_usable_size(f),
          malloc_usable_size(live + 8), malloc_usable_size(live));
  free(live);
  fprintf(stderr, "program finished\n");
  return 0;
}
// CHECK-NOT: HeapProf: ERROR
// CHECK: usable 0 0 0 0 40
// CHECK: program finished
// CHECK: alloc_count 1, size (ave/min/max) 40.00 / 40 / 40
// CHECK-NOT: Memory allocation stack id
// CHECK: live at dump: 0,
// CHECK: alloc_count 1, size (ave/min/max) 64.00 / 64 / 64
// CHECK-NOT: Memory allocation stack id
// CHECK: live at dump: 0,

// SYSTEM-NOT: HeapProf: ERROR
// SYSTEM: program finished
