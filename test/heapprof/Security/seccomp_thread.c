// A thread's state (its caches, its lane of spans) is made when it starts
// through heapprof's pthread_create wrapper, or at its first allocation;
// making it asked the kernel for the thread's id (gettid).  glibc's malloc
// and glibc's thread start make no such call, so a filter written for them
// (below: what malloc, free and a thread's start need, not gettid) killed
// the process (SIGSYS) when a thread started after it.  In the sandbox the
// state now takes no id (0: only the leak check at exit and the false-
// sharing report read it, and nothing after the filter is written), and
// which thread is the main one is told by its thread pointer.
//
// Two threads, each 100 mallocs and frees of 1000 bytes: one created
// before the filter that waits for it to go in before its first malloc,
// and one created after it.  "done", exit 0.
// RUN: %clang_rt_heapprof -O0 %s -o %t -lpthread
// RUN: rm -rf %t.d && %env_heapprof_opts=profile_dir=%t.d %run %t 2> %t.err | FileCheck %s
// RUN: %clang_plain -O0 %s -o %t.plain -lpthread
// RUN: rm -rf %t.r && env -u LD_PRELOAD heapprof run -o %t.r -- %t.plain 2> %t.rerr | FileCheck %s
// false_sharing=1, with the pass's stores counted per line: a thread's
// first store to the heap asked its id (gettid) too; in the sandbox it
// takes one from its thread pointer.
// RUN: %clang_heapprof -O0 -mllvm -heapprof-false-sharing %s -o %t.fs -lpthread
// RUN: rm -rf %t.f && %env_heapprof_opts=profile_dir=%t.f:false_sharing=1 %run %t.fs 2> %t.ferr | FileCheck %s
// CHECK: thread before the filter: joined
// CHECK-NEXT: thread after the filter: joined
// CHECK-NEXT: done
#include "Inputs/seccomp_filter.h"
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static volatile int filtered;

static void say(const char *s) { write(1, s, strlen(s)); }

static void *allocate(void *arg) {
  while (!__atomic_load_n(&filtered, __ATOMIC_ACQUIRE))
    sched_yield();
  for (int i = 0; i < 100; i++) {
    char *volatile p = malloc(1000);
    p[0] = 1;
    free(p);
  }
  return arg;
}

int main(void) {
  free(malloc(48));
  pthread_t before, after;
  if (pthread_create(&before, NULL, allocate, NULL) != 0)
    return 3;
  struct sock_filter f[] = {
      SECCOMP_LOAD_NR,
      ALLOW(__NR_read), ALLOW(__NR_write), ALLOW(__NR_exit_group),
      ALLOW(__NR_exit), ALLOW(__NR_brk), ALLOW(__NR_mmap),
      ALLOW(__NR_munmap), ALLOW(__NR_madvise), ALLOW(__NR_futex),
      ALLOW(__NR_rt_sigprocmask), ALLOW(__NR_getpid),
      ALLOW(__NR_getrandom), ALLOW(__NR_close), ALLOW(__NR_clock_gettime),
      ALLOW(__NR_rt_sigaction), ALLOW(__NR_rt_sigreturn),
      ALLOW(__NR_sched_yield),
      // A thread's start (clone3 fails, so glibc takes clone).
      FAIL(__NR_clone3, ENOSYS), ALLOW(__NR_clone), ALLOW(__NR_mprotect),
      ALLOW(__NR_set_robust_list), ALLOW(__NR_rseq),
      SECCOMP_KILL_REST,
  };
  if (seccomp_install(f, sizeof(f) / sizeof(f[0])) != 0)
    return 2;
  __atomic_store_n(&filtered, 1, __ATOMIC_RELEASE);
  pthread_join(before, NULL);
  say("thread before the filter: joined\n");
  if (pthread_create(&after, NULL, allocate, NULL) != 0)
    return 3;
  pthread_join(after, NULL);
  say("thread after the filter: joined\n");
  say("done\n");
  return 0;
}
