// Secure mode.  The binary is setuid to nobody and run by root, so its
// effective uid differs from the real one and the kernel sets AT_SECURE.
// Everything from the caller's environment is ignored: HEAPPROF_OPTIONS
// (its log_path and symbolizer_path) and PATH (an llvm-symbolizer-19 placed
// first on it).  The profiles go where the program was built to put them
// (-fheapprof=DIR; print_text=1 from __heapprof_default_options), the text
// one unsymbolized, and stderr says once why the options were ignored.
// REQUIRES: setuid-exec, heapprof-driver
// RUN: rm -rf %t.dir %t.bin %t.log* %t.marker %t.sym && mkdir %t.dir %t.bin
// RUN: chown nobody %t.dir
// RUN: %clang_heapprof -fheapprof=%t.dir -O0 %s -o %t
// A "symbolizer" that only leaves a mark that it ran.
// RUN: echo '#!/bin/sh' > %t.sym && echo ': > %t.marker' >> %t.sym && chmod 755 %t.sym
// RUN: cp %t.sym %t.bin/llvm-symbolizer-19
// RUN: cp %t %t.plain && chown nobody %t && chmod u+s %t
// RUN: env PATH=%t.bin HEAPPROF_OPTIONS=log_path=%t.log:print_text=1:symbolizer_path=%t.sym %run %t 2>&1 | FileCheck %s --check-prefix=SECURE
// SECURE: HeapProf: WARNING: HEAPPROF_OPTIONS ignored: the program runs with elevated privileges (setuid, setgid or file capabilities)
// SECURE-NOT: WARNING
// SECURE: euid 65534 ruid 0
// SECURE-NOT: WARNING
// RUN: not ls %t.marker
// RUN: not ls %t.log.*
// RUN: ls %t.dir | FileCheck %s --check-prefix=FILES
// FILES: heapprof.setuid.c.tmp.{{[0-9]+}}.profraw
// FILES-NEXT: heapprof.setuid.c.tmp.{{[0-9]+}}.txt
// RUN: stat -c '%%U %%a' %t.dir/heapprof.setuid.c.tmp.* | FileCheck %s --check-prefix=OWNER
// OWNER: nobody 600
// OWNER-NEXT: nobody 600
// Unsymbolized: frames are module+offset.
// RUN: FileCheck %s --check-prefix=TEXT < %t.dir/heapprof.setuid.c.tmp.*.txt
// TEXT: alloc_count 1, size (ave/min/max) 48.00 / 48 / 48
// TEXT-NOT: in make
// TEXT: Stack for id {{[0-9]+}}:
// TEXT-NEXT: {{^    }}#0 0x{{[0-9a-f]+}}  ({{.*}}setuid.c.tmp+0x{{[0-9a-f]+}}){{$}}
//
// Without HEAPPROF_OPTIONS: no warning.
// RUN: %run %t 2>&1 | FileCheck %s --check-prefix=QUIET
// QUIET-NOT: WARNING
// QUIET: euid 65534 ruid 0
// QUIET-NOT: WARNING
//
// The same program without the setuid bit obeys the same environment: the
// profile goes to the log_path and the symbolizer named there runs.
// RUN: env PATH=%t.bin HEAPPROF_OPTIONS=log_path=%t.log:print_text=1:symbolizer_path=%t.sym %run %t.plain 2>&1 | FileCheck %s --check-prefix=PLAIN
// PLAIN-NOT: WARNING
// PLAIN: euid 0 ruid 0
// RUN: ls %t.marker
// RUN: ls %t.log.* | count 2
// And an llvm-symbolizer-19 first on PATH is used when no path is given.
// RUN: rm %t.marker && env PATH=%t.bin HEAPPROF_OPTIONS=log_path=%t.log:print_text=1 %run %t.plain
// RUN: ls %t.marker
//
// Built without a directory, the profile would go to the current directory,
// which the caller chooses: not written, and not sent to the caller's
// stderr either (it holds the privileged process's memory map).
// RUN: %clang_heapprof -O0 %s -o %t.rel && chown nobody %t.rel && chmod u+s %t.rel
// RUN: rm -rf %t.cwd && mkdir %t.cwd && chown nobody %t.cwd
// RUN: cd %t.cwd && %run %t.rel 2>&1 | FileCheck %s --check-prefix=REL
// REL: HeapProf: WARNING: cannot write profile './heapprof.setuid.c.tmp.rel.{{[0-9]+}}.txt': the program runs with elevated privileges and was not built with an absolute profile directory; not writing it (elevated privileges: no stderr fallback)
// REL-NEXT: HeapProf: WARNING: cannot write profile './heapprof.setuid.c.tmp.rel.{{[0-9]+}}.profraw': the program runs
// REL-NOT: HeapProf profile
// RUN: ls %t.cwd | count 0
#include <heapprof/heapprof_interface.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

const char *__heapprof_default_options(void) { return "print_text=1"; }

__attribute__((noinline)) void *make(void) { return malloc(48); }

int main(void) {
  void *volatile p = make();
  free(p);
  fprintf(stderr, "euid %d ruid %d\n", (int)geteuid(), (int)getuid());
  return 0;
}
