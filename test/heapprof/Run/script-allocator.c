// A `#!` script whose interpreter runs on an allocator of its own (links
// it, or the caller preloads it): heapprof run must run it on that
// allocator, as it does a program that links one (linked-allocator.c).
// The kernel runs the script's interpreter, which the loader then starts
// with the preload; heapprof run asked the loader (`ld.so --list`) about
// the script itself, which is no ELF file, took it for a program without
// an allocator of its own and ran its interpreter on heapprof's: the
// interpreter's malloc(100) came from heapprof's allocator, not from the
// library it links (bump_owns said no), and an allocator the caller
// preloaded for a shell script that execs a program (Erlang's erl: sh,
// erlexec, beam.smp) was passed over, and counted nothing.
// RUN: rm -rf %t.app %t.d %t.e %t.e4 %t.n %t.p %t.s* %t.c* && mkdir -p %t.app/bin %t.app/lib
// RUN: %clang_plain -O2 -shared -fPIC -Wl,-soname,libbump.so %S/Inputs/bump-alloc.c -o %t.app/lib/libbump.so
// RUN: %clang_plain -O0 %s -o %t.app/bin/interp -L%t.app/lib -lbump '-Wl,-rpath,$ORIGIN/../lib' -ldl
// RUN: %clang_plain -O0 %s -o %t.app/bin/plain -ldl
//
// The interpreter named by its path: one image, one malloc(100) on libbump.
// RUN: printf '#!%t.app/bin/interp\n' > %t.s1 && chmod +x %t.s1
// RUN: env -u LD_PRELOAD heapprof run -o %t.d -- %t.s1 > %t.out 2> %t.err
// RUN: FileCheck %s --check-prefix=OUT --input-file=%t.out
// RUN: FileCheck %s --check-prefix=NOTE --input-file=%t.err -DPROG=%t.s1 -DIMAGE=%t.app/bin/interp
// RUN: heapprof report --top 0 %t.d | FileCheck %s --check-prefix=REPORT
//
// `#!/usr/bin/env interp`, found on PATH as env finds it.
// RUN: printf '#!/usr/bin/env interp\n' > %t.s2 && chmod +x %t.s2
// RUN: sh -c 'PATH=%t.app/bin:$PATH; export PATH; env -u LD_PRELOAD heapprof run -o %t.e -- %t.s2' > %t.out 2> %t.err
// RUN: FileCheck %s --check-prefix=OUT --input-file=%t.out
// RUN: FileCheck %s --check-prefix=NOTE --input-file=%t.err -DPROG=%t.s2 -DIMAGE=%t.app/bin/interp
//
// `#!/usr/bin/env -S PATH=DIR interp`: env finds interp on the PATH the
// line sets, which the caller's PATH does not hold (before, heapprof run
// looked on the caller's, found nothing, and ran interp on heapprof's).
// RUN: printf '#!/usr/bin/env -S PATH=%t.app/bin interp\n' > %t.s6 && chmod +x %t.s6
// RUN: rm -rf %t.e && env -u LD_PRELOAD heapprof run -o %t.e -- %t.s6 > %t.out 2> %t.err
// RUN: FileCheck %s --check-prefix=OUT --input-file=%t.out
// RUN: FileCheck %s --check-prefix=NOTE --input-file=%t.err -DPROG=%t.s6 -DIMAGE=%t.app/bin/interp
//
// A script whose interpreter is the first script: the kernel runs
// interp with both, and so the loader.
// RUN: printf '#!%t.s1 -x\n' > %t.s3 && chmod +x %t.s3
// RUN: env -u LD_PRELOAD heapprof run -o %t.n -- %t.s3 > %t.out 2> %t.err
// RUN: FileCheck %s --check-prefix=OUT --input-file=%t.out
// RUN: FileCheck %s --check-prefix=NOTE --input-file=%t.err -DPROG=%t.s3 -DIMAGE=%t.app/bin/interp
//
// A shell script that execs a program linking no allocator, the caller
// preloading one: the shell and the program run on it.
// RUN: printf '#!/bin/sh\nexec %t.app/bin/plain\n' > %t.s4 && chmod +x %t.s4
// RUN: env LD_PRELOAD=%t.app/lib/libbump.so heapprof run -o %t.p -- %t.s4 > %t.out 2> %t.err
// RUN: FileCheck %s --check-prefix=OUT --input-file=%t.out
// RUN: FileCheck %s --check-prefix=NOTE --input-file=%t.err -DPROG=%t.s4 -DIMAGE=/bin/sh
//
// An interpreter that is not there: the kernel's ENOENT names the script,
// which is there; heapprof run names the interpreter.
// RUN: printf '#!%t.app/bin/no-such-interp\n' > %t.s5 && chmod +x %t.s5
// RUN: not heapprof run -o %t.d -- %t.s5 2>&1 | FileCheck %s --check-prefix=MISSING -DPROG=%t.s5 -DINTERP=%t.app/bin/no-such-interp
// Five scripts deep (c4 to c1, then s1) run; six (c5) the kernel
// refuses (ELOOP).
// RUN: cp %t.s1 %t.c0
// RUN: sh -c 'for i in 1 2 3 4 5; do printf "#!%t.c$((i-1))\n" > %t.c$i; chmod +x %t.c$i; done'
// RUN: env -u LD_PRELOAD heapprof run -o %t.n -- %t.c4 | FileCheck %s --check-prefix=OUT
// RUN: not sh -c %t.c5
// RUN: not heapprof run -o %t.n -- %t.c5 2>&1 | FileCheck %s --check-prefix=DEEP -DPROG=%t.c5
// env's exec of NAME is a new one, which the kernel counts from 0 again:
// `#!/usr/bin/env` naming c4 (found on PATH) runs, five scripts below env.
// RUN: mkdir -p %t.app/path && cp %t.c4 %t.app/path/c4
// RUN: printf '#!/usr/bin/env c4\n' > %t.e4 && chmod +x %t.e4
// RUN: sh -c 'PATH=%t.app/path:$PATH; export PATH; env -u LD_PRELOAD heapprof run -o %t.n -- %t.e4' | FileCheck %s --check-prefix=OUT
// OUT: malloc(100): the linked allocator's
// NOTE: heapprof: note: '[[PROG]]' (a script run by '[[IMAGE]]') runs on an allocator of its own, {{.*}}/libbump.so: profiled on it (--allocator=heapprof runs it on heapprof's)
// REPORT: allocator{{ +}}{{.*}}/libbump.so, profiled as it ran (allocator=PATH)
// REPORT: == Allocation bins: by requested size
// REPORT: {{^ +}}100{{ +}}1{{ +}}100 B
// MISSING: heapprof: error: cannot run '[[PROG]]': its #! interpreter '[[INTERP]]': No such file or directory
// DEEP: heapprof: error: cannot run '[[PROG]]': its #! interpreters nest more than 5 scripts deep, which the kernel refuses (Too many levels of symbolic links)
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int (*owns)(const void *) =
      (int (*)(const void *))dlsym(RTLD_DEFAULT, "bump_owns");
  void *volatile p = malloc(100);
  printf("malloc(100): %s\n",
         owns && owns(p) ? "the linked allocator's" : "heapprof's or glibc's");
  free(p);
  return 0;
}
