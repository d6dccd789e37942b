// A debug file named by .gnu_debuglink is opened once: its CRC32 is
// computed on the mapping it is then read from, and a file with another
// CRC is checksummed once. It was opened twice (once to checksum it, once
// as the object), and a file with the wrong CRC beside the program twice
// too: LLVM's symbolizer, run for a module none was found for, searched
// the same places again. The program (no build id, stripped, as in
// debug-dir-debuglink.c) allocates 3 blocks of 40 bytes from prog_site.
// REQUIRES: strace
// RUN: rm -rf %t.d %t.prof %t.dbg %t.bad %t.none && mkdir -p %t.d %t.none
// RUN: %clang_heapprof -O0 -g -Wl,--build-id=none %s -o %t.d/prog
// RUN: %env_heapprof_opts=profile_dir=%t.prof %run %t.d/prog
// RUN: mkdir -p %t.dbg%t.d && llvm-objcopy --only-keep-debug %t.d/prog %t.dbg%t.d/prog.debug
// RUN: llvm-objcopy --strip-all --add-gnu-debuglink=%t.dbg%t.d/prog.debug %t.d/prog
// Another build's debug file (-DMOVED: other line numbers), another CRC.
// RUN: %clang_heapprof -O0 -g -Wl,--build-id=none -DMOVED %s -o %t.moved
// RUN: mkdir -p %t.bad%t.d && llvm-objcopy --only-keep-debug %t.moved %t.bad%t.d/prog.debug
//
// The right file in a --debug-dir after a wrong one: each opened once,
// and the frames named.
// RUN: env HEAPPROF_SYSTEM_DEBUG_DIR=%t.none strace -f -e trace=openat -o %t.trace heapprof report --debug-dir %t.bad --debug-dir %t.dbg %t.prof > %t.out 2>&1
// RUN: FileCheck %s --check-prefix=NAMED --input-file %t.out
// NAMED: not the debug file of
// NAMED: == Top contexts by bytes
// NAMED-NEXT: #1 100.0% 120 B in 3 objects
// NAMED-NEXT: prog_site {{.*}}debug-dir-debuglink-opens.c
// RUN: grep -c '"%t.dbg%t.d/prog.debug"' %t.trace | FileCheck %s --check-prefix=ONCE
// RUN: grep -c '"%t.bad%t.d/prog.debug"' %t.trace | FileCheck %s --check-prefix=ONCE
// ONCE: {{^1$}}
//
// A file with the wrong CRC beside the program, and no right one: opened
// once, and nothing else searched for after it.
// RUN: cp %t.bad%t.d/prog.debug %t.d/prog.debug
// RUN: env HEAPPROF_SYSTEM_DEBUG_DIR=%t.none strace -f -e trace=openat -o %t.trace heapprof report %t.prof > %t.out 2>&1
// RUN: FileCheck %s --check-prefix=UNNAMED --input-file %t.out
// UNNAMED: not the debug file of
// UNNAMED: == Top contexts by bytes
// UNNAMED-NEXT: #1 100.0% 120 B in 3 objects
// UNNAMED-NEXT: prog+0x{{[0-9a-f]+$}}
// RUN: grep -c '"%t.d/prog.debug"' %t.trace | FileCheck %s --check-prefix=ONCE
// RUN: grep -c 'prog[.]debug"' %t.trace | FileCheck %s --check-prefix=ONCE
#include <stdlib.h>

#ifdef MOVED
#line 1000
#endif
static void *volatile keep[3];

__attribute__((noinline)) static void prog_site(void) {
  for (int i = 0; i < 3; i++)
    keep[i] = malloc(40);
}

int main(void) {
  prog_site();
  return 0;
}
