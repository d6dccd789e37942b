// --debug-dir adds to the system's directory of debug files, searched
// first, as gdb's debug-file-directory list is: the program's debug file
// in DIR and its library's in the system's directory both name their
// frames.  The system's directory is HEAPPROF_SYSTEM_DEBUG_DIR here
// (/usr/lib/debug is not a test's to write).  Program and library are
// stripped of their symbol tables (--all), so without its debug file a
// static function's frame is module+offset.  3 blocks of 48 bytes from
// one path: 144 B in 3 objects.
// RUN: rm -rf %t.lib %t.prof %t.user %t.system %t.order && mkdir -p %t.lib
// RUN: %clang_heapprof -O0 -g -shared -fPIC -DLIB %s -o %t.lib/libdbgdir.so
// RUN: %clang_heapprof -O0 -g %s -o %t %t.lib/libdbgdir.so -Wl,-rpath,%t.lib
// RUN: %env_heapprof_opts=profile_dir=%t.prof %run %t
// RUN: %python %S/Inputs/split-debug.py %t %t.user --all
// RUN: %python %S/Inputs/split-debug.py %t.lib/libdbgdir.so %t.system --all
//
// Both: DIR for the program, the system's directory for the library.
// RUN: env HEAPPROF_SYSTEM_DEBUG_DIR=%t.system heapprof report --debug-dir %t.user %t.prof | FileCheck %s --check-prefix=BOTH
// BOTH: == Top contexts by bytes
// BOTH-NEXT: #1 100.0% 144 B in 3 objects
// BOTH-NEXT: lib_inner {{.*}}debug-dir-system.c:[[@LINE+26]]
// BOTH-NEXT: lib_block {{.*}}debug-dir-system.c:[[@LINE+27]]
// BOTH-NEXT: prog_site {{.*}}debug-dir-system.c:[[@LINE+31]]
//
// Without --debug-dir, the system's directory alone: the library named,
// the program not.
// RUN: env HEAPPROF_SYSTEM_DEBUG_DIR=%t.system heapprof report %t.prof | FileCheck %s --check-prefix=SYSTEM
// SYSTEM: == Top contexts by bytes
// SYSTEM-NEXT: #1 100.0% 144 B in 3 objects
// SYSTEM-NEXT: lib_inner {{.*}}debug-dir-system.c:[[@LINE+17]]
// SYSTEM-NEXT: lib_block {{.*}}debug-dir-system.c:[[@LINE+18]]
// SYSTEM-NEXT: debug-dir-system.c.tmp+0x{{[0-9a-f]+$}}
//
// DIR is searched before the system's directory: here the system's
// directory has, under the program's build id, the library's debug file
// (which would name the program's frames wrongly); DIR's is the one read.
// RUN: cp -r %t.system %t.order
// RUN: sh -c 'mkdir -p %t.order/$(cd %t.user && ls -d .build-id/*) && cp %t.system/.build-id/*/*.debug %t.order/$(cd %t.user && ls .build-id/*/*.debug)'
// RUN: env HEAPPROF_SYSTEM_DEBUG_DIR=%t.order heapprof report --debug-dir %t.user %t.prof | FileCheck %s --check-prefix=BOTH
//
// The same through the other commands that symbolize.
// RUN: env HEAPPROF_SYSTEM_DEBUG_DIR=%t.system heapprof flamegraph --debug-dir %t.user %t.prof | FileCheck %s --check-prefix=FOLDED
// FOLDED: main;prog_site;lib_block;lib_inner 144
#include <stdlib.h>
#ifdef LIB
__attribute__((noinline)) static void *lib_inner(void) {
  return malloc(48);
}
__attribute__((noinline)) void *lib_block(void) { return lib_inner(); }
#else
void *lib_block(void);
void *volatile keep[3];
__attribute__((noinline)) static void prog_site(int i) {
  keep[i] = lib_block();
}
int main(void) {
  for (int i = 0; i < 3; i++)
    prog_site(i);
  return 0;
}
#endif
