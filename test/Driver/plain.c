// Without -fheapprof the wrapper passes every argument through untouched:
// the same jobs as clang-19 / clang++-19 for the same command line.
// REQUIRES: heapprof-driver
// RUN: heapprof-clang -### -O2 -g -DX=1 -c %s -o %t.o 2> %t.wrapped
// RUN: %clang_plain -### -O2 -g -DX=1 -c %s -o %t.o 2> %t.plain
// RUN: diff %t.plain %t.wrapped
// RUN: heapprof-clang++ -### -x c++ %s -o %t 2> %t.wrappedxx
// RUN: %clangxx_plain -### -x c++ %s -o %t 2> %t.plainxx
// RUN: sed -e 's/-[0-9a-f]\{6\}\.o"/-TMP.o"/g' %t.plainxx > %t.plainxx.n
// RUN: sed -e 's/-[0-9a-f]\{6\}\.o"/-TMP.o"/g' %t.wrappedxx > %t.wrappedxx.n
// RUN: diff %t.plainxx.n %t.wrappedxx.n
// RUN: env HEAPPROF_CLANG=echo heapprof-clang -O2 "a b" -c %s -- -x | FileCheck %s -DSRC=%s
// CHECK: {{^}}-O2 a b -c [[SRC]] -- -x{{$}}

int main(void) { return 0; }
