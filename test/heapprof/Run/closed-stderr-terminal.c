// A program that closes its stderr before heapprof's last dump: every
// gnulib program does at exit (close_stdout closes stdout and stderr), so
// all of coreutils under heapprof run.  The dump's warnings were lost, the
// one saying where the profile went instead included.  When stderr was a
// terminal at the start, the dump opens it again for its messages and
// closes it after, so the program never sees the descriptor: a file it
// opens after a checkpoint still gets number 2.  (The checkpoint returns
// -1: its profile is not where it was asked for.)
// RUN: %clang_plain -O0 %s -o %t
// RUN: rm -rf %t.open %t.tmp && mkdir %t.open %t.tmp && chmod 777 %t.open
// RUN: env TMPDIR=%t.tmp %python %S/Inputs/on-terminal.py heapprof run -o %t.open -- %t | FileCheck %s -DDIR=%t.open -DTMP=%t.tmp
// CHECK: HeapProf: WARNING: cannot write profile '[[DIR]]/heapprof.closed-stderr-terminal.c.tmp.[[PID:[0-9]+]].1.profraw': directory '[[DIR]]' is writable by others and not sticky; wrote it to '[[TMP]]/heapprof.closed-stderr-terminal.c.tmp.[[PID]].1.profraw' instead
// CHECK-NEXT: HeapProf: WARNING: cannot write profile '[[DIR]]/heapprof.closed-stderr-terminal.c.tmp.[[PID]].profraw': directory '[[DIR]]' is writable by others and not sticky; wrote it to '[[TMP]]/heapprof.closed-stderr-terminal.c.tmp.[[PID]].profraw' instead
// CHECK-NEXT: status 0
// RUN: FileCheck %s --check-prefix=FD < %t.tmp/fd
// FD: checkpoint -1, then a file opened on 2
// RUN: ls %t.tmp | FileCheck %s --check-prefix=FILES
// FILES: .1.profraw
// FILES: .profraw
// Debian's cat (gnulib's close_stdout at exit).
// RUN: env TMPDIR=%t.tmp %python %S/Inputs/on-terminal.py heapprof run -o %t.open -- cat /dev/null | FileCheck %s --check-prefix=CAT -DDIR=%t.open -DTMP=%t.tmp
// CAT: HeapProf: WARNING: cannot write profile '[[DIR]]/heapprof.cat.[[PID:[0-9]+]].profraw': directory '[[DIR]]' is writable by others and not sticky; wrote it to '[[TMP]]/heapprof.cat.[[PID]].profraw' instead
// CAT-NEXT: status 0
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

__attribute__((weak)) int __heapprof_dump(void);

static void close_std(void) { /* as gnulib's close_stdout */
  close(1);
  close(2);
}

int main(void) {
  atexit(close_std);
  char *volatile p = malloc(40);
  p[0] = 1;
  free(p);
  close(2);
  int r = __heapprof_dump ? __heapprof_dump() : -2;
  char path[4096];
  snprintf(path, sizeof(path), "%s/fd", getenv("TMPDIR"));
  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  dprintf(fd, "checkpoint %d, then a file opened on %d\n", r, fd);
  close(fd);
  return 0;
}
