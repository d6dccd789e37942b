// An address-space or data-size limit lowered inside a profiled program
// (a script's `ulimit -v`, a program's setrlimit) is below the ~19 TiB the
// runtime reserves: an image started under it, its runtime preloaded,
// could only abort (SIGABRT, "cannot map ... for shadow memory"), where
// without heapprof the program runs.  Such an exec -- by a child under
// --follow-exec (fork, vfork, posix_spawn), or by the program replacing
// itself -- now runs the new image without heapprof (LD_PRELOAD and
// HEAPPROF_RUN taken out), with a warning naming the limit.  A checkpoint
// in a process that lowered its own limit (its exec's, a
// __heapprof_dump()) needs 16 TiB more for its baselines: it aborted the
// program, then was not written; such a limit is the program's own now,
// heapprof's reservations added to it, and the checkpoint is written.
// RUN: %clang_plain -O0 %s -o %t
//
// --follow-exec: the shell's child (./t leaf) exits 0 and sees no
// LD_PRELOAD nor HEAPPROF_RUN, as without heapprof; so do the children
// of a program that lowers its own limit, forked and vfork'd.
// RUN: rm -rf %t.f && heapprof run -o %t.f --follow-exec -- sh -c 'ulimit -v 4000000; %t leaf; echo "status $?"; true' > %t.fout 2> %t.ferr
// RUN: heapprof run -o %t.f --follow-exec -- %t lower-fork >> %t.fout 2>> %t.ferr
// RUN: heapprof run -o %t.f --follow-exec -- %t lower-vfork >> %t.fout 2>> %t.ferr
// RUN: FileCheck %s --check-prefix=FOLLOW < %t.fout
// FOLLOW: leaf LD_PRELOAD=unset HEAPPROF_RUN=unset
// FOLLOW-NEXT: status 0
// FOLLOW-NEXT: leaf LD_PRELOAD=unset HEAPPROF_RUN=unset
// FOLLOW-NEXT: child status 0
// FOLLOW-NEXT: leaf LD_PRELOAD=unset HEAPPROF_RUN=unset
// FOLLOW-NEXT: child status 0
// RUN: FileCheck %s --check-prefix=WARN < %t.ferr
// WARN: HeapProf: WARNING: '{{.*}}' runs without heapprof: the address-space limit (ulimit -v, RLIMIT_AS) is 4096000000 bytes, and heapprof's runtime reserves about 19 TiB of address space at start (run with ulimit -v unlimited to profile it)
// RUN: not grep -q 'ERROR' %t.ferr
// A forked child's fexecve (no path: the file is an open descriptor) names
// the new image '?' in the warning; it read '' once fexecve passed the
// descriptor's empty path to the check whether the exec can start.
// RUN: heapprof run -o %t.f --follow-exec -- %t lower-fexecve > %t.xout 2> %t.xerr
// RUN: FileCheck %s --check-prefix=FOLLOW-FD < %t.xout
// RUN: FileCheck %s --check-prefix=WARN-FD < %t.xerr
// FOLLOW-FD: leaf LD_PRELOAD=unset HEAPPROF_RUN=unset
// FOLLOW-FD-NEXT: child status 0
// WARN-FD: HeapProf: WARNING: '?' runs without heapprof: the address-space limit (ulimit -v, RLIMIT_AS) is 4294967296 bytes
// The same under a data-size limit.
// RUN: rm -rf %t.d && heapprof run -o %t.d --follow-exec -- sh -c 'ulimit -d 4000000; %t leaf' | FileCheck %s --check-prefix=LEAF
// LEAF: leaf LD_PRELOAD=unset HEAPPROF_RUN=unset
//
// Without --follow-exec, the program replacing itself under the limit:
// the new image runs, without heapprof.  The shell's exec checkpoint was
// not written (a mapping refused: the limit counted heapprof's
// reservations); the limit a program sets for itself is its own now, with
// heapprof's reservations added (heapprof_rlimit.c,
// test/heapprof/Run/rlimit-lowered.c), and the checkpoint is written.
// RUN: rm -rf %t.s && heapprof run -o %t.s -- sh -c 'ulimit -v 4000000; exec %t leaf' > %t.sout 2> %t.serr
// RUN: FileCheck %s --check-prefix=LEAF < %t.sout
// RUN: FileCheck %s --check-prefix=SELF < %t.serr
// SELF-NOT: not written
// SELF: HeapProf: WARNING: '{{.*}}' runs without heapprof: the address-space limit (ulimit -v, RLIMIT_AS) is 4096000000 bytes
// RUN: ls %t.s | FileCheck %s --check-prefix=SELF-FILE
// SELF-FILE: heapprof.sh.{{[0-9]+}}.1.profraw
//
// A program that lowers its own limit and then asks for a checkpoint: it
// got -1, and its exit profile could not be written either; both are
// written now, and nothing is said.
// RUN: rm -rf %t.l && heapprof run -o %t.l -- %t lower > %t.lout 2> %t.lerr
// RUN: FileCheck %s --check-prefix=LOWER < %t.lout
// LOWER: checkpoint 0
// LOWER-NEXT: done
// RUN: not grep HeapProf %t.lerr
// RUN: ls %t.l | FileCheck %s --check-prefix=LOWER-FILES
// LOWER-FILES: .1.profraw
// LOWER-FILES-NEXT: {{[0-9]}}.profraw
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

int __heapprof_dump(void) __attribute__((weak));

static void *volatile keep;

static void child_status(pid_t c) {
  int st = -1;
  waitpid(c, &st, 0);
  printf("child status %d\n", WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st));
}

int main(int argc, char **argv) {
  keep = malloc(100);
  char *leaf[] = {argv[0], "leaf", NULL};
  if (!strcmp(argv[1], "leaf")) {
    printf("leaf LD_PRELOAD=%s HEAPPROF_RUN=%s\n",
           getenv("LD_PRELOAD") ? "set" : "unset",
           getenv("HEAPPROF_RUN") ? "set" : "unset");
    return 0;
  }
  struct rlimit r = {1ull << 32, 1ull << 32};
  setrlimit(RLIMIT_AS, &r);
  keep = malloc(200);
  fflush(stdout);
  if (!strcmp(argv[1], "lower-fork")) {
    pid_t c = fork();
    if (c == 0) {
      execv(argv[0], leaf);
      _exit(127);
    }
    child_status(c);
  } else if (!strcmp(argv[1], "lower-vfork")) {
    pid_t c = vfork();
    if (c == 0) {
      execv(argv[0], leaf);
      _exit(127);
    }
    child_status(c);
  } else if (!strcmp(argv[1], "lower-fexecve")) {
    int fd = open(argv[0], O_RDONLY | O_CLOEXEC);
    pid_t c = fork();
    if (c == 0) {
      fexecve(fd, leaf, environ);
      _exit(127);
    }
    child_status(c);
  } else if (!strcmp(argv[1], "lower")) {
    printf("checkpoint %d\n", __heapprof_dump ? __heapprof_dump() : 0);
    printf("done\n");
  }
  return 0;
}
