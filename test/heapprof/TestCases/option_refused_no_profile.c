// An option refused at start ends the program with status 1 before main,
// and no profile is written: the program never ran.  The checks made late
// in the runtime's start (dump_signal's signal, allocator=PATH's library)
// ended through heapprof's own _exit, which writes the exit profile once
// the runtime is up: each left a profile of 0 allocations in the profile
// directory.  An option that does not parse (print_text=maybe), checked
// before, never did.
// RUN: %clang_heapprof -O0 %s -o %t
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: %env_heapprof_opts=profile_dir=%t.d:dump_signal=SIGSEGV not %run %t > %t.sig 2>&1
// RUN: FileCheck %s --check-prefix=SIG < %t.sig
// RUN: %env_heapprof_opts=profile_dir=%t.d:allocator=/nonexistent/liballoc.so not %run %t > %t.alloc 2>&1
// RUN: FileCheck %s --check-prefix=ALLOC < %t.alloc
// RUN: %env_heapprof_opts=profile_dir=%t.d:print_text=maybe not %run %t > %t.parse 2>&1
// RUN: FileCheck %s --check-prefix=PARSE < %t.parse
// RUN: ls %t.d | count 0
// With a signal dump_signal takes, the program runs and writes its one
// profile.
// RUN: %env_heapprof_opts=profile_dir=%t.d:dump_signal=SIGUSR2 %run %t | FileCheck %s --check-prefix=RAN
// RUN: ls %t.d | count 1
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  char *volatile p = malloc(100);
  free(p);
  printf("main ran\n");
  return 0;
}

// SIG: HeapProf: ERROR: invalid value 'SIGSEGV' for option 'dump_signal'
// SIG-NOT: main ran
// ALLOC: HeapProf: ERROR: allocator=/nonexistent/liballoc.so: cannot profile this allocator: the library is not loaded
// ALLOC-NOT: main ran
// PARSE: HeapProf: ERROR: invalid value 'maybe' for option 'print_text'
// PARSE-NOT: main ran
// RAN: main ran
