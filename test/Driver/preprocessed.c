// Inputs clang compiles without its preprocessor: preprocessed source (.i,
// .ii, -x cpp-output; what distcc sends to its servers) and LLVM IR (.ll,
// .bc).  The driver's -idirafter went unused there, and clang warned
// "argument unused during compilation: '-idirafter ...'" for every such
// compile: a -Werror build failed.  The driver now leaves -idirafter out
// when no input is preprocessed; the pass still runs on them, and the
// counts are the program's.
// REQUIRES: heapprof-driver
// RUN: rm -rf %t && mkdir -p %t
// RUN: heapprof-clang -fheapprof -E %s -o %t/p.i
// RUN: heapprof-clang -fheapprof -Werror -O0 -c %t/p.i -o %t/i.o 2>&1 | count 0
// RUN: heapprof-clang -fheapprof -Werror -O0 -x cpp-output -c %t/p.i -o %t/xi.o 2>&1 | count 0
// RUN: heapprof-clang++ -fheapprof -x c++ -E %s -o %t/p.ii
// RUN: heapprof-clang++ -fheapprof -Werror -O0 -c %t/p.ii -o %t/ii.o 2>&1 | count 0
// RUN: %clang_plain -O0 -S -emit-llvm %s -o %t/p.ll
// RUN: %clang_plain -O0 -c -emit-llvm %s -o %t/p.bc
// RUN: heapprof-clang -fheapprof -Werror -O0 -c %t/p.ll -o %t/ll.o 2>&1 | count 0
// RUN: heapprof-clang -fheapprof -Werror -O0 %t/p.bc -o %t/bc 2>&1 | count 0
// RUN: heapprof-clang -fheapprof -### -c %t/p.i 2>&1 | FileCheck %s --check-prefix=NOINC
// NOINC:     "-fpass-plugin={{[^"]*}}HeapProfiler.so"
// NOINC-NOT: idirafter
// A C source beside it, or a link of objects, still gets it.
// RUN: env HEAPPROF_CLANG=echo heapprof-clang -fheapprof -c %t/p.i %s | FileCheck %s --check-prefix=INC
// RUN: env HEAPPROF_CLANG=echo heapprof-clang -fheapprof %t/i.o | FileCheck %s --check-prefix=INC
// INC: -idirafter
//
// RUN: heapprof-clang -fheapprof %t/i.o -o %t/i
// RUN: %env_heapprof_opts=log_path=stderr %run %t/i 2>&1 | FileCheck %s --check-prefixes=CHECK,SUMMARY
// RUN: heapprof-clang -fheapprof %t/xi.o -o %t/xi
// RUN: %env_heapprof_opts=log_path=stderr %run %t/xi 2>&1 | FileCheck %s --check-prefixes=CHECK,SUMMARY
// RUN: heapprof-clang++ -fheapprof %t/ii.o -o %t/ii
// RUN: %env_heapprof_opts=log_path=stderr %run %t/ii 2>&1 | FileCheck %s
// RUN: heapprof-clang -fheapprof %t/ll.o -o %t/ll
// RUN: %env_heapprof_opts=log_path=stderr %run %t/ll 2>&1 | FileCheck %s --check-prefixes=CHECK,SUMMARY
// RUN: %env_heapprof_opts=log_path=stderr %run %t/bc 2>&1 | FileCheck %s --check-prefixes=CHECK,SUMMARY
#include <stdlib.h>

int main(void) {
  // 10 int stores into a 40-byte chunk: 10 accesses.
  int *volatile a = (int *)malloc(10 * sizeof(int));
  for (int i = 0; i < 10; i++)
    a[i] = i;
  free(a);
  return 0;
}
// CHECK: alloc_count 1, size (ave/min/max) 40.00 / 40 / 40
// CHECK-NEXT: access_count (ave/min/max): 10.00 / 10 / 10
// SUMMARY: Summary: 1 contexts, 1 allocations, 40 bytes, 10 accesses
// (C++ adds libstdc++'s emergency pool, which it allocates at startup.)
