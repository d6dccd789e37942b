// Threads a program makes itself with clone(): mode 0, a thread of the
// same group without a TLS of its own (it shares its creator's, and so
// the creator's state; the creator waits on the child's tid meanwhile);
// mode 1, a CLONE_VM process the parent waits for (posix_spawn-like).
// Either allocates 10 blocks of 40 bytes and frees 5; the parent frees the
// other 5.  Each block is counted once, in its context, and only the
// parent writes a profile (the child leaves by the exit system call).
// RUN: %clang_heapprof -O0 -g %s -o %t
// RUN: rm -rf %t.0 && %env_heapprof_opts=profile_dir=%t.0 %run %t 0 | FileCheck %s --check-prefix=OUT
// RUN: ls %t.0 | wc -l | FileCheck %s --check-prefix=ONE
// RUN: heapprof report --top 0 %t.0 | FileCheck %s
// RUN: rm -rf %t.1 && %env_heapprof_opts=profile_dir=%t.1 %run %t 1 | FileCheck %s --check-prefix=OUT
// RUN: ls %t.1 | wc -l | FileCheck %s --check-prefix=ONE
// RUN: heapprof report --top 0 %t.1 | FileCheck %s
// RUN: %clang_plain -O0 -g %s -o %t.plain
// RUN: rm -rf %t.r && heapprof run --allocator=system -o %t.r -- %t.plain 0 | FileCheck %s --check-prefix=OUT
// RUN: heapprof report --top 0 %t.r | FileCheck %s
// OUT: done
// ONE: {{^}}1{{$}}
// CHECK: 400 B in 10 objects (40 B each), 0 live (0 B)
// CHECK-NEXT: clone_site
// CHECK-NEXT: child
#define _GNU_SOURCE
#include <linux/futex.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define N 10
static void *kept[N];
static volatile pid_t ctid;

__attribute__((noinline)) void *clone_site(void) { return malloc(40); }

static int child(void *arg) {
  (void)arg;
  for (int i = 0; i < N; i++) {
    void *volatile p = clone_site();
    memset(p, 1, 40);
    if (i % 2)
      free(p);
    else
      kept[i] = p;
  }
  return 0;
}

int main(int argc, char **argv) {
  size_t sz = 1 << 20;
  char *stack = malloc(sz);
  if (argv[1][0] == '0') {
    int flags = CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND |
                CLONE_THREAD | CLONE_SYSVSEM | CLONE_CHILD_CLEARTID |
                CLONE_CHILD_SETTID;
    ctid = 1;
    if (clone(child, stack + sz, flags, NULL, NULL, NULL, &ctid) < 0)
      return 1;
    while (ctid)
      syscall(SYS_futex, &ctid, FUTEX_WAIT, ctid, NULL, NULL, 0);
  } else {
    int pid = clone(child, stack + sz, CLONE_VM | SIGCHLD, NULL);
    if (pid < 0)
      return 1;
    waitpid(pid, NULL, 0);
  }
  for (int i = 0; i < N; i += 2)
    free(kept[i]);
  free(stack);
  printf("done\n");
  (void)argc;
  return 0;
}
