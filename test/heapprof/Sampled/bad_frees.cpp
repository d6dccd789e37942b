// Sampled mode still catches bad frees of sampled objects (sample_bytes=1
// samples every object of 40 bytes or more): a double free, a free of a
// pointer into a sampled object, and new[] released by delete.  Unsampled
// objects are glibc's: its own checks apply (docs/user-guide.md).
// RUN: %clangxx_rt_heapprof -O0 -Wno-mismatched-new-delete %s -o %t
// RUN: %env_heapprof_opts=log_path=stderr:sample_bytes=1:print_module_map=0 not --crash %run %t double 2>&1 | FileCheck %s --check-prefix=DOUBLE
// RUN: %env_heapprof_opts=log_path=stderr:sample_bytes=1:print_module_map=0 not --crash %run %t interior 2>&1 | FileCheck %s --check-prefix=INTERIOR
// RUN: %env_heapprof_opts=log_path=stderr:sample_bytes=1:print_module_map=0 not --crash %run %t mismatch 2>&1 | FileCheck %s --check-prefix=MISMATCH
// halt_on_error=0: reported, and the object counted once.
// RUN: %env_heapprof_opts=log_path=stderr:sample_bytes=1:print_module_map=0:halt_on_error=0 %run %t double 2>&1 | FileCheck %s --check-prefix=GOON
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__attribute__((noinline)) char *make(void) { return (char *)malloc(100); }
__attribute__((noinline)) void release(void *p) { free(p); }

int main(int argc, char **argv) {
  if (!strcmp(argv[1], "mismatch")) {
    char *volatile a = new char[200];
    fprintf(stderr, "chunk at %p\n", (void *)a);
    delete (char *)a; // NOLINT: the mismatch under test
    return 0;
  }
  char *volatile p = make();
  fprintf(stderr, "chunk at %p\n", (void *)p);
  if (!strcmp(argv[1], "double")) {
    release(p);
    release(p);
  } else {
    // The word before p + 16 is the object's own bytes: all ones here, so
    // not a glibc size word and not a mark of p + 16 -- heapprof reports
    // it.  (Bytes with bit 3 clear would send it to glibc's free, whose own
    // check aborts with "free(): invalid pointer".)
    memset(p, 0xff, 100);
    release(p + 16);
  }
  fprintf(stderr, "program finished\n");
  return 0;
}
// DOUBLE: chunk at [[P:0x[0-9a-f]+]]
// DOUBLE-NEXT: HeapProf: ERROR: double-free on address [[P]] (pc 0x{{[0-9a-f]+}}, free)
// DOUBLE-NEXT: #0 0x{{[0-9a-f]+}} in release
// DOUBLE: HeapProf: ABORTING
// DOUBLE-NOT: program finished
// INTERIOR: chunk at [[P:0x[0-9a-f]+]]
// INTERIOR-NEXT: HeapProf: ERROR: invalid-free on address
// INTERIOR: HeapProf: ABORTING
// MISMATCH: chunk at [[P:0x[0-9a-f]+]]
// MISMATCH-NEXT: HeapProf: ERROR: alloc-dealloc-mismatch on address [[P]] (pc 0x{{[0-9a-f]+}}): allocated by operator new [], released by operator delete
// GOON: HeapProf: ERROR: double-free
// GOON: program finished
// GOON: Estimated, sampled at 1 bytes
// GOON: alloc_count 1, size (ave/min/max) 100.00 / 100 / 100
