// A program that lowers its own file size limit (setrlimit(RLIMIT_FSIZE),
// a script's ulimit -f) below its profile's size, with its stderr a
// regular file: the profile fits in no file, so the runtime of a program
// linked with it writes it to stderr, and that write too passes the limit
// (heapprof run does not: the program's stderr is its own).  The kernel sends SIGXFSZ
// to the writing thread, whose default action killed the program
// ("File size limit exceeded", status 153) where without heapprof it
// exits with 3.  A program with a SIGXFSZ handler of its own (Debian's
// sort: it removes its temporary files, then dies of the signal) died the
// same way already at the profile's own file, which the guard left to the
// program's handler.  SIGXFSZ is now blocked for the whole dump: each
// write fails with EFBIG, and the program ends as it would have.  (A pipe
// has no such limit, which is why test/heapprof/Signals/temp_file.c's
// stderr, a pipe, never met it.)
// RUN: %clang_plain -O0 %s -o %t
// RUN: %clang_rt_heapprof -O0 %s -o %t.linked
// RUN: sh -c '%t 1024 2> %t.plain-err; echo "status $?"' | FileCheck %s --check-prefix=STATUS
// RUN: rm -rf %t.d %t.tmp && mkdir %t.tmp
// RUN: env TMPDIR=%t.tmp sh -c 'env HEAPPROF_OPTIONS=profile_dir=%t.d %t.linked 1024 2> %t.err; echo "status $?"' | FileCheck %s --check-prefix=STATUS
// STATUS: status 3
// RUN: FileCheck %s --check-prefix=ERR < %t.err
// ERR: HeapProf: WARNING: cannot write profile '{{.*}}': file too large (the file size limit, ulimit -f), nor '{{.*}}': file too large (the file size limit, ulimit -f); writing it to stderr instead
// The stderr file holds the first 1024 bytes of it, no more.
// RUN: wc -c < %t.err | FileCheck %s --check-prefix=SIZE
// SIZE: {{^}}1024{{$}}
// RUN: ls -A %t.d %t.tmp | FileCheck %s --check-prefix=NOFILE
// NOFILE-NOT: heapprof.
// Under heapprof run the program's stderr is its own: the profile does not
// go there (Run/unwritable-no-stderr.c), and the one warning line is all
// heapprof writes on it; the profile's own file still meets the limit.
// RUN: rm -rf %t.d
// RUN: env TMPDIR=%t.tmp sh -c 'heapprof run -o %t.d -- %t 1024 2> %t.rerr; echo "status $?"' | FileCheck %s --check-prefix=STATUS
// RUN: FileCheck %s --check-prefix=RUNERR < %t.rerr
// RUNERR: HeapProf: WARNING: cannot write profile '{{.*}}': file too large (the file size limit, ulimit -f), nor '{{.*}}': file too large (the file size limit, ulimit -f); not writing it (heapprof run: the program's stderr is its own)
// RUN: wc -l < %t.rerr | FileCheck %s --check-prefix=ONELINE
// ONELINE: {{^}}1{{$}}
// RUN: ls -A %t.d %t.tmp | FileCheck %s --check-prefix=NOFILE
//
// Its own handler, which dies of the signal as sort's does: it never runs.
// RUN: sh -c '%t 1024 handler 2> %t.plain-err; echo "status $?"' | FileCheck %s --check-prefix=STATUS
// RUN: rm -rf %t.d
// RUN: env TMPDIR=%t.tmp sh -c 'heapprof run -o %t.d -- %t 1024 handler 2> %t.herr; echo "status $?"' | FileCheck %s --check-prefix=STATUS --implicit-check-not=handler
// RUN: FileCheck %s --check-prefix=RUNERR < %t.herr
//
// sort itself, under ulimit -f 1 (1024 bytes), its stdout /dev/null.
// RUN: rm -rf %t.d && printf 'b\na\n' > %t.in
// RUN: env TMPDIR=%t.tmp sh -c 'ulimit -f 1; heapprof run -o %t.d -- sort %t.in > /dev/null 2> %t.serr; echo "status $?"' | FileCheck %s --check-prefix=SORT
// SORT: status 0
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

static void on_xfsz(int sig) {
  static const char msg[] = "the program's SIGXFSZ handler ran\n";
  write(1, msg, sizeof(msg) - 1); /* stdout: a pipe, no limit */
  signal(sig, SIG_DFL);
  raise(sig);
}

int main(int argc, char **argv) {
  if (argc > 2 && !strcmp(argv[2], "handler"))
    signal(SIGXFSZ, on_xfsz);
  for (int i = 0; i < 100; i++) {
    char *volatile p = malloc(100 + i);
    p[0] = 1;
    if (i % 3)
      free(p);
  }
  struct rlimit rl = {atoi(argv[1]), atoi(argv[1])};
  if (setrlimit(RLIMIT_FSIZE, &rl) != 0)
    return 1;
  return 3;
}
