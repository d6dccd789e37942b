// A shared library's -fheapprof=DIR stays in the library.  The pass and the
// link step's generated object define __heapprof_profile_dir weak and
// hidden; exported from the library (as it was), it bound the runtime's
// weak reference of a program linked against the library with plain
// -fheapprof, and that program's profile went to the library's DIR instead
// of the current directory (rule 4 of docs/compiler.md, "The profile
// directory": the executable's link decides).
// REQUIRES: heapprof-driver
// RUN: rm -rf %t && mkdir -p %t/run
// RUN: heapprof-clang -fheapprof=%t/libdir -DLIB -fPIC -shared %s -o %t/libdirlib.so
// RUN: llvm-nm -D --defined-only %t/libdirlib.so | not grep __heapprof_profile_dir
//
// A program without a DIR writes into its current directory; the library's
// accesses are counted all the same (10 int stores into a 40-byte chunk).
// RUN: heapprof-clang -fheapprof %s -L%t -ldirlib -Wl,-rpath,%t -o %t/nodir
// RUN: cd %t/run && %t/nodir
// RUN: ls %t/run | grep -c '^heapprof\.nodir\.[0-9]*\.profraw$' | grep -x 1
// RUN: not ls %t/libdir
// RUN: cd %t/run && %env_heapprof_opts=log_path=stderr %t/nodir 2>&1 | FileCheck %s
// CHECK: alloc_count 1, size (ave/min/max) 40.00 / 40 / 40
// CHECK-NEXT: access_count (ave/min/max): 10.00 / 10 / 10
// CHECK: in lib_fill
//
// A program with its own DIR, from the link step or from its objects.
// RUN: rm -rf %t/run && mkdir -p %t/run
// RUN: heapprof-clang -fheapprof=%t/exedir %s -L%t -ldirlib -Wl,-rpath,%t -o %t/exe
// RUN: cd %t/run && %t/exe
// RUN: ls %t/exedir | grep -c '^heapprof\.exe\.[0-9]*\.profraw$' | grep -x 1
// RUN: heapprof-clang -fheapprof=%t/objdir -c %s -o %t/obj.o
// RUN: heapprof-clang -fheapprof %t/obj.o -L%t -ldirlib -Wl,-rpath,%t -o %t/obj
// RUN: cd %t/run && %t/obj
// RUN: ls %t/objdir | grep -c '^heapprof\.obj\.[0-9]*\.profraw$' | grep -x 1
// RUN: ls %t/run | count 0
// RUN: not ls %t/libdir
#include <stdlib.h>

#ifdef LIB
__attribute__((noinline)) int *lib_fill(void) {
  int *volatile p = malloc(10 * sizeof(int));
  for (int i = 0; i < 10; i++)
    p[i] = i;
  return p;
}
#else
int *lib_fill(void);

int main(void) {
  int *volatile p = lib_fill();
  free(p);
  return 0;
}
#endif
