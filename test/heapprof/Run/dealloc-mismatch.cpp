// Under heapprof run, memory released by another family than the one that
// allocated it is left alone, as glibc leaves it: heapprof run profiles a
// program as it is.  rust-lld (libstdc++ linked statically: its operator new
// calls malloc, its sized delete bound to heapprof's) was aborted by the
// report, and rustc's link failed.  check_dealloc_mismatch=1 turns the
// check on again, with the same report as for a built program.
// RUN: %clangxx_plain -O0 -g %s -o %t
// RUN: rm -rf %t.dir && heapprof run -o %t.dir -- %t 2>&1 | FileCheck %s
// CHECK-NOT: alloc-dealloc-mismatch
// CHECK: program finished
// RUN: rm -rf %t.dir && %env_heapprof_opts=check_dealloc_mismatch=1 not --crash heapprof run -o %t.dir -- %t 2>&1 | FileCheck %s --check-prefix=ON
// ON: HeapProf: ERROR: alloc-dealloc-mismatch on address {{0x[0-9a-f]+}} (pc 0x{{[0-9a-f]+}}): allocated by malloc, released by operator delete
// ON-NOT: program finished
// The profile still has both objects, each once.
// RUN: rm -rf %t.dir && heapprof run -o %t.dir -- %t > /dev/null 2>&1
// RUN: heapprof report %t.dir | FileCheck %s --check-prefix=BINS
// BINS: == Allocation bins
// BINS-DAG: {{^ *24 +1 +24 B +1 }}
// BINS-DAG: {{^ *40 +1 +40 B +1 }}
#include <cstdio>
#include <cstdlib>

int main() {
  long *volatile m = static_cast<long *>(malloc(24));
  delete m; // malloc released by delete
  char *volatile a = new char[40];
  free(a); // new[] released by free
  fprintf(stderr, "program finished\n");
  return 0;
}
