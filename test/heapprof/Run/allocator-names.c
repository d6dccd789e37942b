// --allocator=NAME: jemalloc, tcmalloc and mimalloc are found by the files
// their Debian packages install, and any other name without a '/' is a
// library's file name, both looked for where the loader looks for LD_PRELOAD
// (LD_LIBRARY_PATH, then the system's directories); the report names the
// library profiled.  --allocator=jemalloc said "No such file or directory".
// RUN: %clang_plain -O1 %s -o %t
// RUN: %if jemalloc %{ rm -rf %t.j && heapprof run --allocator=jemalloc -o %t.j -- %t && heapprof report %t.j | FileCheck %s --check-prefix=JE %}
// JE: allocator {{.*}}/libjemalloc.so.2, profiled as it ran (allocator=PATH)
// RUN: %if tcmalloc %{ rm -rf %t.t && heapprof run --allocator=tcmalloc -o %t.t -- %t && heapprof report %t.t | FileCheck %s --check-prefix=TC %}
// TC: allocator {{.*}}/libtcmalloc{{(_minimal)?}}.so.4{{.*}}, profiled as it ran (allocator=PATH)
// RUN: %if mimalloc %{ rm -rf %t.m && heapprof run --allocator=mimalloc -o %t.m -- %t && heapprof report %t.m | FileCheck %s --check-prefix=MI %}
// MI: allocator {{.*}}/libmimalloc.so.2{{.*}}, profiled as it ran (allocator=PATH)
//
// A file name, found through LD_LIBRARY_PATH first.
// RUN: %if jemalloc %{ rm -rf %t.lib %t.l && mkdir -p %t.lib && cp %libjemalloc %t.lib/libmyalloc.so && env LD_LIBRARY_PATH=%t.lib heapprof run --allocator=libmyalloc.so -o %t.l -- %t && heapprof report %t.l | FileCheck %s --check-prefix=OWN -DLIB=%t.lib %}
// OWN: allocator [[LIB]]/libmyalloc.so, profiled as it ran (allocator=PATH)
//
// A name found nowhere: one error, the program not run.
// RUN: not heapprof run --allocator=nosuch -- true 2>&1 | FileCheck %s --check-prefix=NONE
// NONE: heapprof: error: --allocator=nosuch: no library nosuch in LD_LIBRARY_PATH or the system's library directories (expected heapprof, system, jemalloc, tcmalloc, mimalloc, a library's file name or a PATH.so)
#include <stdlib.h>

int main(void) {
  for (int i = 0; i < 100; i++)
    free(malloc(100));
  return 0;
}
