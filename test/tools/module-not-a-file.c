// The report opens the files a profile names as its modules, to check
// their build ids and read their debug info.  A path that is not a regular
// file (in a profile someone else wrote, or a program since replaced) was
// opened all the same: a FIFO made `heapprof report` wait for a writer for
// ever, and /dev/zero was read until memory ran out ("LLVM ERROR: out of
// memory").  Such a module is now "not a regular file", like a missing one:
// an error for the only program, a warning for a library (its frames stay
// module+offset), and the same for a FIFO given as --binary.
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: %clang_heapprof -O0 -g %s -o %t.d/prog
// RUN: %env_heapprof_opts=profile_dir=%t.d %run %t.d/prog
// RUN: mv %t.d/prog %t.prog && mkfifo %t.d/prog
// RUN: not timeout 60 heapprof report %t.d 2>&1 | FileCheck %s -DPROG=%t.d/prog
// RUN: rm %t.d/prog && ln -s /dev/zero %t.d/prog
// RUN: not sh -c 'ulimit -v 4000000; timeout 60 heapprof report %t.d' 2>&1 | FileCheck %s -DPROG=%t.d/prog
// CHECK: heapprof: error: [[PROG]]: cannot open: not a regular file (the profiled program; pass --binary if it moved)
//
// --binary names the program instead: the report is whole.  A FIFO given
// as --binary is refused at once.
// RUN: heapprof report --binary %t.prog %t.d | FileCheck %s --check-prefix=BINARY
// BINARY: allocations      3 objects, 96 bytes
// BINARY: make_object
// RUN: rm -f %t.fifo && mkfifo %t.fifo
// RUN: not timeout 60 heapprof report --binary %t.fifo %t.d 2>&1 | FileCheck %s --check-prefix=FIFO -DFIFO=%t.fifo
// FIFO: heapprof: error: [[FIFO]]: cannot open: not a regular file
#include <stdlib.h>

void *volatile kept[3];

__attribute__((noinline)) static void *make_object(void) { return malloc(32); }

int main(void) {
  for (int i = 0; i < 3; i++)
    kept[i] = make_object();
  return 0;
}
