// Where the profile lands when the compile and link steps are separate:
// the link step's -fheapprof=DIR decides; without one, the DIR the objects
// were compiled with (the first object's, in link order); a program's own
// definition of __heapprof_profile_dir wins over both.  Each program runs
// in an empty directory, which must stay empty.  No step warns.
// REQUIRES: heapprof-driver
// RUN: rm -rf %t && mkdir -p %t/run
//
// Compiled with -fheapprof, DIR given only when linking (C and C++ driver).
// RUN: heapprof-clang -fheapprof -c %s -o %t/plain.o 2>&1 | count 0
// RUN: heapprof-clang -fheapprof=%t/linkdir %t/plain.o -o %t/p1 2>&1 | count 0
// RUN: cd %t/run && %t/p1
// RUN: ls %t/linkdir | grep -c '^heapprof\.p1\.[0-9]*\.profraw$' | grep -x 1
// RUN: ls %t/run | count 0
// RUN: heapprof-clang++ -fheapprof=%t/cxxdir %t/plain.o -o %t/p2 2>&1 | count 0
// RUN: cd %t/run && %t/p2
// RUN: ls %t/cxxdir | grep -c '^heapprof\.p2\.[0-9]*\.profraw$' | grep -x 1
// RUN: ls %t/run | count 0
//
// Compiled with one DIR, linked with another: the link step's.
// RUN: heapprof-clang -fheapprof=%t/compiledir -c %s -o %t/dir.o 2>&1 | count 0
// RUN: heapprof-clang -fheapprof=%t/linkdir2 %t/dir.o -o %t/p3 2>&1 | count 0
// RUN: cd %t/run && %t/p3
// RUN: ls %t/linkdir2 | grep -c '^heapprof\.p3\.[0-9]*\.profraw$' | grep -x 1
// RUN: not ls %t/compiledir
// RUN: ls %t/run | count 0
//
// Linked with -fheapprof alone: the compiled-in DIR.
// RUN: heapprof-clang -fheapprof %t/dir.o -o %t/p4 2>&1 | count 0
// RUN: cd %t/run && %t/p4
// RUN: ls %t/compiledir | grep -c '^heapprof\.p4\.[0-9]*\.profraw$' | grep -x 1
// RUN: ls %t/run | count 0
//
// The program's own definition wins over the link step's DIR.
// RUN: heapprof-clang -fheapprof -DOWN_DIR='"%t/owndir"' -c %s -o %t/own.o
// RUN: heapprof-clang -fheapprof=%t/linkdir3 %t/own.o -o %t/p5 2>&1 | count 0
// RUN: cd %t/run && %t/p5
// RUN: ls %t/owndir | grep -c '^heapprof\.p5\.[0-9]*\.profraw$' | grep -x 1
// RUN: not ls %t/linkdir3
// RUN: ls %t/run | count 0
//
// The environment still wins over all of them.
// RUN: cd %t/run && env HEAPPROF_OPTIONS=profile_dir=%t/envdir %t/p3
// RUN: ls %t/envdir | grep -c '^heapprof\.p3\.[0-9]*\.profraw$' | grep -x 1
#include <stdlib.h>

#ifdef OWN_DIR
const char __heapprof_profile_dir[] = OWN_DIR;
#endif

int main(void) {
  char *volatile p = malloc(32);
  p[0] = 1;
  free(p);
  return 0;
}
