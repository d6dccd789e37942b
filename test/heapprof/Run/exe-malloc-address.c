// A program built without PIE that takes malloc's address (Debian's node
// does) has a canonical PLT entry for it: the executable's dynamic symbol
// table has malloc undefined but with a value, and dlsym(RTLD_DEFAULT,
// "malloc") returns that address in the executable. It does not define
// malloc: its calls reach the preloaded runtime, and heapprof run must
// neither refuse it nor warn that its profile is empty.
// RUN: %clang_plain -O0 -fno-pie -no-pie %s -o %t
// RUN: llvm-readelf --dyn-syms %t | FileCheck %s --check-prefix=PLT
// PLT: {{ 0*[1-9a-f][0-9a-f]* +0 +FUNC +GLOBAL +DEFAULT +UND +malloc@}}
// RUN: rm -rf %t.d && heapprof run -o %t.d -- %t 2>&1 | FileCheck %s --check-prefix=QUIET --allow-empty
// QUIET-NOT: WARNING
// QUIET-NOT: error
// RUN: heapprof report %t.d | FileCheck %s
// CHECK: == Top contexts by bytes
// CHECK: 1200 B in 30 objects (40 B each), 0 live
// CHECK-NEXT: allocate_some
#include <stdio.h>
#include <stdlib.h>

typedef void *(*alloc_fn)(size_t);
alloc_fn volatile chosen;

__attribute__((noinline)) static void allocate_some(alloc_fn f) {
  for (int i = 0; i < 30; i++)
    free(f(40));
}

int main(void) {
  chosen = malloc; // an absolute address in code built without PIE
  allocate_some(chosen);
  return 0;
}
