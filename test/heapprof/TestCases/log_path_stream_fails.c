// log_path=stdout or stderr on a stream that fails: the profile is lost,
// a warning on stderr says so (before: nothing), and the program ends as
// it would without heapprof.  A pipe whose reader has gone raised SIGPIPE
// at heapprof's write and killed a program that wrote nothing there
// itself: status 141 instead of 3; SIGPIPE is blocked during a dump, as
// SIGXFSZ is (heapprof_signals.c), and the write fails with EPIPE.
// RUN: %clang_rt_heapprof -O0 %s -o %t
// RUN: %env_heapprof_opts=log_path=stdout sh -c '%run %t > /dev/full 2> %t.full; echo "status $?"' | FileCheck %s --check-prefix=STATUS
// RUN: FileCheck %s --check-prefix=FULL < %t.full
// FULL: HeapProf: WARNING: cannot write profile to stdout: no space left on device; it is lost
// RUN: %env_heapprof_opts=log_path=stdout sh -c '%run %t >&- 2> %t.closed; echo "status $?"' | FileCheck %s --check-prefix=STATUS
// RUN: FileCheck %s --check-prefix=CLOSED < %t.closed
// CLOSED: HeapProf: WARNING: cannot write profile to stdout: not open for writing (closed); it is lost
// The program makes its stdout a pipe nobody reads.
// RUN: %env_heapprof_opts=log_path=stdout sh -c '%run %t stdout 2> %t.pipe; echo "status $?"' | FileCheck %s --check-prefix=STATUS
// RUN: FileCheck %s --check-prefix=PIPE < %t.pipe
// PIPE: HeapProf: WARNING: cannot write profile to stdout: broken pipe (nothing reads it any more); it is lost
// Its stderr such a pipe: the profile and the warning both fail there.
// RUN: %env_heapprof_opts=log_path=stderr sh -c '%run %t stderr; echo "status $?"' | FileCheck %s --check-prefix=STATUS
// RUN: %env_heapprof_opts=log_path=stdout:print_text=0 sh -c '%run %t stdout stderr; echo "status $?"' | FileCheck %s --check-prefix=STATUS
// STATUS: status 3
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv) {
  for (int i = 0; i < 10; i++) {
    char *volatile p = malloc(40);
    p[0] = 1;
    free(p);
  }
  for (int i = 1; i < argc; i++) {
    int fds[2];
    if (pipe(fds) != 0)
      return 1;
    close(fds[0]);
    dup2(fds[1], strcmp(argv[i], "stdout") ? 2 : 1);
    close(fds[1]);
  }
  return 3;
}
