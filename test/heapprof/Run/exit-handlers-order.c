// The exit profile of a preloaded runtime is written after every exit
// handler, those registered by the program's libraries' constructors too,
// which run before the runtime's own (the loader initialises the
// executable's needed libraries first).
//
// The library's constructor allocates 10 blocks of 40 bytes (lib_site),
// registers an on_exit handler that frees them, and then 100 atexit
// handlers that do nothing.  glibc keeps its first 32 handlers in a static
// block and callocs one for each further 32 (3 here), which exit frees as
// it walks past them.  main writes with write(2): no stdio buffer.  So the
// process allocates 13 objects, 400 + 3 x 1,040 bytes (a block: a link, a
// count and 32 handlers of 32 bytes), and by its end it has freed them all:
// lib_site 10 allocated, 400 bytes, 10 freed, and nothing live.  The
// runtime's handler had been registered from its constructor, after the
// library's 101: exit ran it first, and the profile read the 10 blocks
// and glibc's 3 as live (frees=0, 13 objects live at the end).
// RUN: %clang_plain -O0 -g -shared -fPIC -DLIB %s -o %t-lib.so
// RUN: %clang_plain -O0 -g %s -o %t %t-lib.so
// RUN: rm -rf %t.run && env -u LD_PRELOAD heapprof run -o %t.run -- %t | FileCheck %s --check-prefix=OUT
// RUN: heapprof report --top 0 --format json %t.run > %t.json
// RUN: %python %S/Inputs/site-accesses.py %t.json lib_site | FileCheck %s
// RUN: heapprof report %t.run | FileCheck %s --check-prefix=REPORT
// RUN: rm -rf %t.sys && env -u LD_PRELOAD heapprof run -o %t.sys --allocator=system -- %t | FileCheck %s --check-prefix=OUT
// RUN: heapprof report --top 0 --format json %t.sys > %t.sjson
// RUN: %python %S/Inputs/site-accesses.py %t.sjson lib_site | FileCheck %s
// RUN: heapprof report %t.sys | FileCheck %s --check-prefix=REPORT
//
// OUT: done
// CHECK: lib_site allocs=10 bytes=400 frees=10 accesses=0
// REPORT: allocations 13 objects, 3520 bytes
// REPORT-NEXT: frees 13 objects
// REPORT-NEXT: live at the end 0 objects, 0 bytes (0 B)
#include <stdlib.h>
#include <unistd.h>

#ifdef LIB
static void *volatile blocks[10];

__attribute__((noinline)) void *lib_site(void) { return malloc(40); }

static void release_all(int status, void *arg) {
  (void)status;
  (void)arg;
  for (int i = 0; i < 10; i++)
    free(blocks[i]);
}

static void nothing(void) {}

__attribute__((constructor)) static void lib_init(void) {
  for (int i = 0; i < 10; i++)
    blocks[i] = lib_site();
  on_exit(release_all, NULL);
  for (int i = 0; i < 100; i++)
    atexit(nothing);
}
#else
int main(void) {
  write(1, "done\n", 5);
  return 0;
}
#endif
