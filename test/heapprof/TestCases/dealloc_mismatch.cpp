// Memory released by the wrong family: new[] by free, malloc by delete, new by
// delete[], new[] by delete.  Report, stack of the release, hint naming
// check_dealloc_mismatch, abort after the profile; check_dealloc_mismatch=0
// turns the check off and halt_on_error=0 reports and continues.
// RUN: %clangxx_rt_heapprof -O0 %s -o %t
// RUN: %env_heapprof_opts=log_path=stderr not --crash %run %t 1 2>&1 | FileCheck %s --check-prefixes=CHECK,NEWARR-FREE
// RUN: %env_heapprof_opts=log_path=stderr not --crash %run %t 2 2>&1 | FileCheck %s --check-prefixes=CHECK,MALLOC-DELETE
// RUN: %env_heapprof_opts=log_path=stderr not --crash %run %t 3 2>&1 | FileCheck %s --check-prefixes=CHECK,NEW-DELETEARR
// RUN: %env_heapprof_opts=log_path=stderr not --crash %run %t 4 2>&1 | FileCheck %s --check-prefixes=CHECK,NEWARR-DELETE
// RUN: %env_heapprof_opts=log_path=stderr:check_dealloc_mismatch=0 %run %t 1 2>&1 | FileCheck %s --check-prefix=OFF
// RUN: %env_heapprof_opts=log_path=stderr:halt_on_error=0 %run %t 2 2>&1 | FileCheck %s --check-prefixes=MALLOC-DELETE,GOON
#include <cstdio>
#include <cstdlib>
#include <new>

__attribute__((noinline)) void release(int how, char *p) {
  switch (how) {
  case 1: free(p); break;
  case 2: delete (long *)p; break;
  case 3: delete[] p; break;
  case 4: delete (long *)p; break;
  }
}

int main(int argc, char **argv) {
  int how = atoi(argv[1]);
  char *volatile p;
  switch (how) {
  case 1: p = new char[40]; break;
  case 2: p = (char *)malloc(8); break;
  case 3: p = (char *)new long(7); break;
  default: p = new char[40]; break;
  }
  fprintf(stderr, "chunk at %p\n", (void *)p);
  release(how, p);
  fprintf(stderr, "program finished\n");
  return 0;
}
// CHECK: chunk at [[P:0x[0-9a-f]+]]
// NEWARR-FREE: HeapProf: ERROR: alloc-dealloc-mismatch on address [[P]] (pc 0x{{[0-9a-f]+}}): allocated by operator new [], released by free
// MALLOC-DELETE: HeapProf: ERROR: alloc-dealloc-mismatch on address {{0x[0-9a-f]+}} (pc 0x{{[0-9a-f]+}}): allocated by malloc, released by operator delete
// NEW-DELETEARR: HeapProf: ERROR: alloc-dealloc-mismatch on address [[P]] (pc 0x{{[0-9a-f]+}}): allocated by operator new, released by operator delete []
// NEWARR-DELETE: HeapProf: ERROR: alloc-dealloc-mismatch on address [[P]] (pc 0x{{[0-9a-f]+}}): allocated by operator new [], released by operator delete
// CHECK-NEXT: #0 0x{{[0-9a-f]+}} in release{{.*}}dealloc_mismatch.cpp
// CHECK-NEXT: #1 0x{{[0-9a-f]+}} in main {{.*}}dealloc_mismatch.cpp
// CHECK: HINT: HEAPPROF_OPTIONS=check_dealloc_mismatch=0 disables this check; halt_on_error=0 reports and continues
// CHECK-NEXT: HeapProf: ABORTING
// CHECK-NEXT: HeapProf profile: {{.*}}, error, dump 0
// CHECK-NOT: program finished

// OFF-NOT: HeapProf: ERROR
// OFF: program finished
// OFF: , exit, dump 0

// GOON: HINT:
// GOON-NOT: ABORTING
// GOON: program finished
// GOON: , exit, dump 0
// GOON: alloc_count 1, size (ave/min/max) 8.00 / 8 / 8
// GOON: live at dump: 0
