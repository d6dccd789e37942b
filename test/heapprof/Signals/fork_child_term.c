// A fork child's deadly signal that lands while the child is writing its
// exit profile waits for the profile, then kills the child.  The child's
// lock count (the deferral of a signal that interrupts heapprof) started at
// -1 after every fork: the symbolizer's fork handler released a lock the
// thread had not counted.  A SIGTERM during the child's dump then ran inside
// the dump and waited for the dump itself until deadly_signal_timeout_s,
// and the child died without its profile (Python's multiprocessing pools
// end their workers with SIGTERM, with handle_term=1).
// The child holds 300,000 objects (its dump takes a while), tells the
// parent it is about to _exit, and gets SIGTERM 2 ms later: the child's
// profile is written, and the child still dies of the signal.
// RUN: %clang_heapprof -O1 %s -o %t
// RUN: rm -rf %t.dir && %env_heapprof_opts=handle_term=1:deadly_signal_timeout_s=10:profile_dir=%t.dir %run %t 2>&1 | FileCheck %s
// RUN: ls %t.dir | count 2
// CHECK-NOT: the program dies without it
// CHECK: child: killed by signal 15
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

int main(void) {
  int fds[2];
  if (pipe(fds))
    return 1;
  pid_t c = fork();
  if (c == 0) {
    for (int i = 0; i < 300000; i++) {
      char *volatile p = malloc(32 + i % 100);
      p[0] = 1;
    }
    if (write(fds[1], "x", 1) != 1)
      return 1;
    _exit(0);
  }
  char b;
  if (read(fds[0], &b, 1) != 1)
    return 1;
  usleep(2000);
  kill(c, SIGTERM);
  int st;
  waitpid(c, &st, 0);
  if (WIFSIGNALED(st))
    printf("child: killed by signal %d\n", WTERMSIG(st));
  else
    printf("child: exit %d\n", WEXITSTATUS(st));
  return 0;
}
