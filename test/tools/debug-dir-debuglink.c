// --debug-dir is searched for a debug file named by .gnu_debuglink (a
// program without a build id: -Wl,--build-id=none), in gdb's order: beside
// the program, in its .debug/ directory, then DIR followed by the
// program's absolute directory.  The program is stripped of its symbol
// table (--strip-all), so without its debug file the static function's
// frame is prog+offset.  3 blocks of 40 bytes from one path: 120 B in 3
// objects.
// RUN: rm -rf %t.d %t.prof %t.dbg %t.bad %t.none && mkdir -p %t.d %t.none
// RUN: %clang_heapprof -O0 -g -Wl,--build-id=none %s -o %t.d/prog
// RUN: %env_heapprof_opts=profile_dir=%t.prof %run %t.d/prog
// RUN: mkdir -p %t.dbg%t.d && llvm-objcopy --only-keep-debug %t.d/prog %t.dbg%t.d/prog.debug
// RUN: llvm-objcopy --strip-all --add-gnu-debuglink=%t.dbg%t.d/prog.debug %t.d/prog
// RUN: llvm-readelf -S %t.d/prog | FileCheck %s --check-prefix=LINKED
// LINKED: .gnu_debuglink
// LINKED-NOT: .symtab
//
// The same program's code with other line numbers (#line, below): its
// debug file, put where the right one would be, has another CRC.
// RUN: %clang_heapprof -O0 -g -Wl,--build-id=none -DMOVED %s -o %t.moved
// RUN: mkdir -p %t.bad%t.d && llvm-objcopy --only-keep-debug %t.moved %t.bad%t.d/prog.debug
//
// Without --debug-dir the debug file is not found.
// RUN: env HEAPPROF_SYSTEM_DEBUG_DIR=%t.none heapprof report %t.prof 2>&1 | FileCheck %s --check-prefix=UNNAMED
// UNNAMED: == Top contexts by bytes
// UNNAMED-NEXT: #1 100.0% 120 B in 3 objects
// UNNAMED-NEXT: prog+0x{{[0-9a-f]+$}}
//
// With it, the frames are named.
// RUN: env HEAPPROF_SYSTEM_DEBUG_DIR=%t.none heapprof report --debug-dir %t.dbg %t.prof 2>&1 | FileCheck %s --check-prefix=NAMED
// NAMED-NOT: warning
// NAMED: == Top contexts by bytes
// NAMED-NEXT: #1 100.0% 120 B in 3 objects
// NAMED-NEXT: prog_site {{.*}}debug-dir-debuglink.c:[[@LINE+34]]
//
// The one with the wrong CRC is not used, and said so; a later --debug-dir
// with the right one is.
// The warning's CRC32s are the files' (zlib's crc32 is .gnu_debuglink's).
// RUN: env HEAPPROF_SYSTEM_DEBUG_DIR=%t.none heapprof report --debug-dir %t.bad %t.prof > %t.bad.out 2>&1
// RUN: sh -c 'FileCheck %s --check-prefix=BAD --input-file %t.bad.out -DDEBUG=%t.bad%t.d/prog.debug -DGOT=$(%python -c "import sys, zlib; print(\"%%08x\" %% zlib.crc32(open(sys.argv[1], \"rb\").read()))" %t.bad%t.d/prog.debug) -DWANT=$(%python -c "import sys, zlib; print(\"%%08x\" %% zlib.crc32(open(sys.argv[1], \"rb\").read()))" %t.dbg%t.d/prog.debug)'
// BAD: warning: [[DEBUG]]: not the debug file of {{.*}}.tmp.d/prog: its CRC32 is [[GOT]], the module's .gnu_debuglink has [[WANT]]; not used
// BAD: == Top contexts by bytes
// BAD-NEXT: #1 100.0% 120 B in 3 objects
// BAD-NEXT: prog+0x{{[0-9a-f]+$}}
// RUN: env HEAPPROF_SYSTEM_DEBUG_DIR=%t.none heapprof report --debug-dir %t.bad --debug-dir %t.dbg %t.prof 2>&1 | FileCheck %s --check-prefix=NAMED-AFTER
// NAMED-AFTER: not the debug file of
// NAMED-AFTER: == Top contexts by bytes
// NAMED-AFTER-NEXT: #1 100.0% 120 B in 3 objects
// NAMED-AFTER-NEXT: prog_site {{.*}}debug-dir-debuglink.c:[[@LINE+19]]
//
// The system's directory (HEAPPROF_SYSTEM_DEBUG_DIR) still serves, after
// the --debug-dirs (LLVM's symbolizer finds it there), and so does the
// program's own directory, before them.
// RUN: env HEAPPROF_SYSTEM_DEBUG_DIR=%t.dbg heapprof report --debug-dir %t.none %t.prof 2>&1 | FileCheck %s --check-prefix=NAMED
// RUN: cp %t.dbg%t.d/prog.debug %t.d/prog.debug
// RUN: env HEAPPROF_SYSTEM_DEBUG_DIR=%t.none heapprof report --debug-dir %t.bad %t.prof 2>&1 | FileCheck %s --check-prefix=NAMED
// RUN: rm %t.d/prog.debug
//
// The same through the other commands that symbolize.
// RUN: env HEAPPROF_SYSTEM_DEBUG_DIR=%t.none heapprof flamegraph --debug-dir %t.dbg %t.prof | FileCheck %s --check-prefix=FOLDED
// FOLDED: main;prog_site 120
#include <stdlib.h>
void *volatile keep[3];
#ifdef MOVED
#line 1000
#endif
__attribute__((noinline)) static void prog_site(int i) {
  keep[i] = malloc(40);
}

int main(void) {
  for (int i = 0; i < 3; i++)
    prog_site(i);
  return 0;
}
