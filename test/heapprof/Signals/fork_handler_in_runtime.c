// fork() from a signal handler that interrupted the program inside
// heapprof (an allocator call holding one of its locks).  glibc's fork ran
// heapprof's prepare handler, which waited for that lock, held by the very
// frame the handler interrupted: the process hung (6 runs in 8 here, at
// 100 forks).  Now such a fork runs none of heapprof's handlers, as _Fork
// and syscall()'s forks did already (hp_fork_prepare); its child ends
// with _exit at once.  main allocates and frees in a loop while a timer
// every 3 ms forks from its handler, until 100 forks: each of 5 runs ends
// with status 0 and writes its profile (the children none: they made no
// allocator call), well within the time bound.
// RUN: %clang_heapprof -O0 -g %s -o %t
// RUN: rm -rf %t.d && sh -c 'for i in 1 2 3 4 5; do HEAPPROF_OPTIONS=profile_dir=$0 timeout 20 $1 || echo "run $i: status $?"; done' %t.d %t > %t.out
// RUN: FileCheck %s < %t.out
// RUN: ls %t.d | count 5
// CHECK-COUNT-5: forked 100 times
// CHECK-NOT: status
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile int forks;

static void on_alarm(int sig) {
  (void)sig;
  if (forks >= 100)
    return;
  pid_t p = fork();
  if (p == 0)
    _exit(0);
  if (p > 0 && waitpid(p, NULL, 0) == p)
    forks++;
}

int main(void) {
  static void *volatile keep[512];
  signal(SIGALRM, on_alarm);
  struct itimerval it = {{0, 3000}, {0, 3000}};
  setitimer(ITIMER_REAL, &it, NULL);
  while (forks < 100)
    for (int i = 0; i < 512 && forks < 100; i++) {
      free(keep[i]);
      keep[i] = malloc(16 + (i * 37) % 30000);
    }
  memset(&it, 0, sizeof(it));
  setitimer(ITIMER_REAL, &it, NULL);
  printf("forked %d times\n", forks);
  return 0;
}
