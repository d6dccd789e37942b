// A debug file found by .gnu_debuglink in a --debug-dir, made from a
// program that had no symbol table left (here: .symtab removed, the DWARF
// kept), has no .symtab, and its .dynsym is empty (NOBITS, as
// --only-keep-debug leaves every section not debug info).  A frame that
// only the program's .dynsym names (an exported function without debug
// info: -rdynamic, nodebug) is named from the program's own file, as
// LLVM's symbolizer does with a debug file beside the program: the debug
// file gives the DWARF, the program the symbols.  (Before, the debug file
// was read alone and the frame was prog+offset.)  3 blocks of 40 bytes
// from one path: 120 B in 3 objects.
// RUN: rm -rf %t.d %t.prof %t.dbg %t.none && mkdir -p %t.d %t.none
// RUN: %clang_heapprof -O0 -g -rdynamic -Wl,--build-id=none %s -o %t.d/prog
// RUN: %env_heapprof_opts=profile_dir=%t.prof %run %t.d/prog
// RUN: llvm-objcopy --remove-section=.symtab %t.d/prog %t.nosym
// RUN: mkdir -p %t.dbg%t.d && llvm-objcopy --only-keep-debug %t.nosym %t.dbg%t.d/prog.debug
// RUN: llvm-objcopy --strip-all --add-gnu-debuglink=%t.dbg%t.d/prog.debug %t.d/prog
// RUN: llvm-readelf -S %t.dbg%t.d/prog.debug | FileCheck %s --check-prefix=DEBUGFILE
// DEBUGFILE-NOT: .symtab
// DEBUGFILE: .dynsym NOBITS
// DEBUGFILE-NOT: .symtab
// DEBUGFILE: .debug_info PROGBITS
// DEBUGFILE-NOT: .symtab
// RUN: llvm-readelf --dyn-syms %t.d/prog | FileCheck %s --check-prefix=DYNSYM
// DYNSYM: FUNC GLOBAL DEFAULT {{.*}} exported_site
//
// Without the debug file: exported_site and main from the .dynsym, no lines.
// RUN: env HEAPPROF_SYSTEM_DEBUG_DIR=%t.none heapprof report %t.prof 2>&1 | FileCheck %s --check-prefix=PLAIN
// PLAIN: == Top contexts by bytes
// PLAIN-NEXT: #1 100.0% 120 B in 3 objects
// PLAIN-NEXT: {{^ +}}exported_site{{$}}
// PLAIN-NEXT: {{^ +}}main{{$}}
//
// With it: exported_site still named, main's line from the DWARF.
// RUN: env HEAPPROF_SYSTEM_DEBUG_DIR=%t.none heapprof report --debug-dir %t.dbg %t.prof 2>&1 | FileCheck %s --check-prefix=NAMED
// RUN: env HEAPPROF_SYSTEM_DEBUG_DIR=%t.none heapprof flamegraph --debug-dir %t.dbg %t.prof | FileCheck %s --check-prefix=FOLDED
// The same with the debug file beside the program (LLVM's symbolizer
// would find it there itself).
// RUN: cp %t.dbg%t.d/prog.debug %t.d/prog.debug
// RUN: env HEAPPROF_SYSTEM_DEBUG_DIR=%t.none heapprof report %t.prof 2>&1 | FileCheck %s --check-prefix=NAMED
// NAMED-NOT: warning
// NAMED: == Top contexts by bytes
// NAMED-NEXT: #1 100.0% 120 B in 3 objects
// NAMED-NEXT: {{^ +}}exported_site{{$}}
// NAMED-NEXT: {{^ +}}main {{.*}}debug-dir-no-symtab.c:[[@LINE+9]]
// FOLDED: main;exported_site 120
#include <stdlib.h>
void *volatile keep[3];
__attribute__((nodebug, noinline)) void exported_site(int i) {
  keep[i] = malloc(40);
}
int main(void) {
  for (int i = 0; i < 3; i++)
    exported_site(i);
  return 0;
}
