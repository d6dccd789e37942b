// A vfork child runs in its parent's memory, heapprof's state included.
// One that crashed (a fault, abort, a bad free between vfork and exec)
// wrote a profile as its parent's last and marked the parent's exit
// profile as done: the parent's profile ended at the vfork, the rest of
// its run lost.  Such a child writes none now.  A child that calls exit()
// instead of _exit (a common slip after a failed exec) still writes the
// parent's profile as it is at the vfork: exit runs the exit handlers,
// which glibc keeps in the shared memory, so none of them, heapprof's
// neither, runs again at the parent's exit.
//
// The parent allocates 10 objects of 100 bytes, vforks, and after the
// child ended frees them and allocates 10 of 200 (and stdout's 4096-byte
// buffer, printf).  Crash, abort, bad free: the parent's exit profile
// has all 21 allocations (1000 + 2000 + 4096 = 7096 bytes) and 10 frees.
// exit(): the profile holds the 10 objects of before the vfork.
// RUN: %clang_heapprof -O1 -g %s -o %t
// RUN: %clang_plain -O1 -g %s -o %t-plain
// RUN: rm -rf %t.d && %env_heapprof_opts=profile_dir=%t.d %run %t crash 2>&1 | FileCheck %s --check-prefix=CRASH
// RUN: heapprof report %t.d --depth 1 | FileCheck %s --check-prefix=WHOLE
// RUN: rm -rf %t.d && %env_heapprof_opts=profile_dir=%t.d %run %t abort 2>&1 | FileCheck %s --check-prefix=ABORT
// RUN: heapprof report %t.d --depth 1 | FileCheck %s --check-prefix=WHOLE
// RUN: rm -rf %t.d && %env_heapprof_opts=profile_dir=%t.d %run %t bad-free 2>&1 | FileCheck %s --check-prefix=DOUBLE
// RUN: heapprof report %t.d --depth 1 | FileCheck %s --check-prefix=WHOLE
// RUN: rm -rf %t.d && %env_heapprof_opts=profile_dir=%t.d %run %t exit 2>&1 | FileCheck %s --check-prefix=EXIT
// RUN: heapprof report %t.d --depth 1 | FileCheck %s --check-prefix=ATVFORK
// RUN: rm -rf %t.r && env -u LD_PRELOAD heapprof run -o %t.r -- %t-plain crash 2>&1 | FileCheck %s --check-prefix=CRASH
// RUN: heapprof report %t.r --depth 1 | FileCheck %s --check-prefix=WHOLE
// CRASH-NOT: writing the profile
// CRASH: child: signal 11
// ABORT-NOT: writing the profile
// ABORT: child: signal 6
// DOUBLE: HeapProf: ERROR: invalid-free
// DOUBLE: HeapProf: the profile is not written: this is a vfork child, which runs in its parent's memory
// DOUBLE-NOT: writing the profile
// DOUBLE: child: signal 6
// EXIT: child: status 3
// WHOLE: allocations 21 objects, 7096 bytes
// WHOLE-NEXT: frees 10 objects
// ATVFORK: allocations 10 objects, 1000 bytes
// ATVFORK-NEXT: frees 0 objects
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static void *keep[10];

int main(int argc, char **argv) {
  for (int i = 0; i < 10; i++)
    keep[i] = malloc(100);
  pid_t p = vfork();
  if (p == 0) {
    if (!strcmp(argv[1], "crash")) {
      /* Its own fault, as a stray pointer would. */
      volatile int *volatile bad = (int *)16;
      *bad = 1;
    }
    if (!strcmp(argv[1], "abort"))
      abort();
    if (!strcmp(argv[1], "bad-free"))
      free(argv); /* not the heap's: nothing of the parent's changes */
    exit(3);
  }
  int st;
  waitpid(p, &st, 0);
  printf("child: %s %d\n", WIFSIGNALED(st) ? "signal" : "status",
         WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st));
  fflush(stdout);
  for (int i = 0; i < 10; i++) {
    free(keep[i]);
    keep[i] = malloc(200);
  }
  return 0;
}
