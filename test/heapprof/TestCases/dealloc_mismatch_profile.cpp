// The profile written before an alloc-dealloc-mismatch aborts has the
// mismatched chunk in it, live: the program aborted inside the free, so
// the chunk was never freed.  The check used to run after the chunk had
// left the heap, and the 40-byte object was in that profile neither as
// live nor as freed (1 object in the profile, libstdc++'s pool; now 2).
// A realloc of a new[] block is named realloc whichever way it goes:
// kept in place, moved, or realloc(p, 0) (the last two said "free").
// RUN: %clangxx_rt_heapprof -O0 %s -o %t
// RUN: %env_heapprof_opts=log_path=stderr not --crash %run %t free 2>&1 | FileCheck %s --check-prefixes=CHECK,FREE
// RUN: %env_heapprof_opts=log_path=stderr not --crash %run %t keep 2>&1 | FileCheck %s --check-prefixes=CHECK,REALLOC
// RUN: %env_heapprof_opts=log_path=stderr not --crash %run %t move 2>&1 | FileCheck %s --check-prefixes=CHECK,REALLOC
// RUN: %env_heapprof_opts=log_path=stderr not --crash %run %t zero 2>&1 | FileCheck %s --check-prefixes=CHECK,REALLOC
//
// halt_on_error=0: one report, and the object is freed by the call (realloc
// (p, 0)) or replaced by a new one of the realloc's context.
// RUN: %env_heapprof_opts=log_path=stderr:halt_on_error=0 %run %t free 2>&1 | FileCheck %s --check-prefix=GOON
// RUN: %env_heapprof_opts=log_path=stderr:halt_on_error=0 %run %t move 2>&1 | FileCheck %s --check-prefix=GOON
#include <cstdio>
#include <cstdlib>
#include <cstring>

__attribute__((noinline)) char *make(void) { return new char[40]; }

int main(int argc, char **argv) {
  char *volatile p = make();
  if (!strcmp(argv[1], "free"))
    free(p);
  else if (!strcmp(argv[1], "keep"))
    p = (char *)realloc(p, 48); // same size class: kept in place
  else if (!strcmp(argv[1], "move"))
    p = (char *)realloc(p, 10000); // another class: moved
  else
    p = (char *)realloc(p, 0);
  fprintf(stderr, "program finished\n");
  return 0;
}
// FREE: HeapProf: ERROR: alloc-dealloc-mismatch on address {{.*}}: allocated by operator new [], released by free
// REALLOC: HeapProf: ERROR: alloc-dealloc-mismatch on address {{.*}}: allocated by operator new [], released by realloc
// CHECK: HeapProf: ABORTING
// CHECK-NEXT: HeapProf profile: {{.*}}, error, dump 0
// CHECK: alloc_count 1, size (ave/min/max) 40.00 / 40 / 40
// CHECK-NOT: Memory allocation stack id
// CHECK: live at dump: 1, continued from earlier dumps: 0, live bytes: 40,
// CHECK: #0 {{.*}} in make{{.*}}dealloc_mismatch_profile.cpp
// CHECK-NOT: program finished

// GOON: HeapProf: ERROR: alloc-dealloc-mismatch
// GOON-NOT: HeapProf: ERROR
// GOON: program finished
// GOON: alloc_count 1, size (ave/min/max) 40.00 / 40 / 40
// GOON-NOT: Memory allocation stack id
// GOON: live at dump: 0,
