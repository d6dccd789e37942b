// A C program built with -fheapprof, run under heapprof run, keeps its own
// runtime, and its C++ library's operator new is the C++ library's, on
// the program's malloc, as without heapprof run.  The preloaded runtime
// had put its own operator new in front, on an allocator that never
// starts in such a program: the library's new died of SIGFPE.  Here the
// library makes and drops one 24-byte object (new int[6]): one allocation
// of 24 bytes, freed, in the profile.  With tcmalloc as the allocator
// (--allocator=PATH), whose constructor calls operator new while the
// program's runtime starts up (its dlopen of tcmalloc runs it), the start
// deadlocked; `timeout` makes a hang a failure.
// RUN: %clangxx_plain -O1 -shared -fPIC %S/Inputs/cxx-lib.cpp -o %t.lib.so
// The library has no soname: the program names it by its path.
// RUN: %clang_heapprof -O1 -g %s %t.lib.so -o %t
// RUN: rm -rf %t.d && env -u LD_PRELOAD timeout 60 heapprof run -o %t.d -- %t | FileCheck %s --check-prefix=OUT
// RUN: heapprof report --format json %t.d | %python -c "import json, sys; c = [c for c in json.load(sys.stdin)['contexts'] if c['bytes'] == 24]; print('24-byte allocations', sum(x['allocs'] for x in c), 'frees', sum(x['frees'] for x in c))" | FileCheck %s
// RUN: %if tcmalloc %{ rm -rf %t.t && env -u LD_PRELOAD timeout 60 heapprof run -o %t.t --allocator=%libtcmalloc -- %t | FileCheck %s --check-prefix=OUT %}
// OUT: made and dropped
// CHECK: 24-byte allocations 1 frees 1
#include <stdio.h>

void *cxx_make(void);
void cxx_drop(void *p);

int main(void) {
  void *p = cxx_make();
  cxx_drop(p);
  puts("made and dropped");
  return 0;
}
