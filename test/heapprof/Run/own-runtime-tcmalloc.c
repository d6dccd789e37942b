// A C program built with -fheapprof, run under heapprof run
// --allocator=tcmalloc: tcmalloc's constructor calls operator new while
// the program's runtime starts up (init's dlopen of tcmalloc runs it).  A
// C program defines no operator new, so that call reached the preloaded
// runtime's, whose allocator never starts in such a program: its first
// call runs init, which binds to the program's __heapprof_init, already
// under way on the same thread, and spun on init's lock forever.  The
// C++ library's operator new serves it now, on the program's malloc, which
// takes it from the bootstrap arena as any allocation made while the
// wrapped allocator is being resolved.  The program prints its line, and
// its profile, from its own runtime (the access counts are there), on
// tcmalloc, has its one 10-byte object, allocated and freed.  Unlike
// own-runtime-cxx.c, nothing of the program's own is C++.  `timeout`
// makes a hang a failure.
// REQUIRES: tcmalloc
// RUN: %clang_heapprof -O1 -g %s -o %t
// RUN: rm -rf %t.d && env -u LD_PRELOAD timeout 60 heapprof run -o %t.d --allocator=%libtcmalloc -- %t | FileCheck %s --check-prefix=OUT
// RUN: heapprof show %t.d | FileCheck %s --check-prefix=WHO
// RUN: heapprof report --format json %t.d | %python -c "import json, sys; c = [c for c in json.load(sys.stdin)['contexts'] if c['bytes'] == 10]; print('10-byte allocations', sum(x['allocs'] for x in c), 'frees', sum(x['frees'] for x in c), 'accessed', sum(x['accesses'] for x in c) > 0)" | FileCheck %s
// OUT: hello
// WHO: allocator: library {{.*}}libtcmalloc
// CHECK: 10-byte allocations 1 frees 1 accessed True
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void) {
  char *volatile p = malloc(10);
  strcpy(p, "hello");
  printf("%s\n", p);
  free(p);
  return 0;
}
