// A program in its own seccomp sandbox whose heap grows after the filter
// is not killed: a new span of heapprof's allocator was marked for core
// dumps a MiB at a time with madvise(MADV_DODUMP), which glibc's malloc
// never calls, so a filter that allows what glibc's malloc needs (brk,
// mmap, munmap) and not madvise killed the program (SIGSYS) at its first
// MiB of 512-byte blocks after the filter.  In the sandbox the marking is
// left out (those spans stay out of core dumps).  One block before the
// filter; after it 8 MiB of 512-byte blocks (16,384), written and freed:
// "done", exit 0.
// RUN: %clang_rt_heapprof -O0 %s -o %t
// RUN: rm -rf %t.d && %env_heapprof_opts=profile_dir=%t.d %run %t 2> %t.err | FileCheck %s
// RUN: %clang_plain -O0 %s -o %t.plain
// RUN: rm -rf %t.r && env -u LD_PRELOAD heapprof run -o %t.r -- %t.plain 2> %t.rerr | FileCheck %s
// CHECK: grown
// CHECK-NEXT: done
#include "Inputs/seccomp_filter.h"
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define N 16384
static char *volatile blocks[N];

static void say(const char *s) { write(1, s, strlen(s)); }

int main(void) {
  /* The thread's first malloc, before the filter, as a real program's is
   * (it sets up the thread's state); it marks the class's first MiB. */
  free(malloc(480));
  struct sock_filter f[] = {
      SECCOMP_LOAD_NR,
      ALLOW(__NR_read), ALLOW(__NR_write), ALLOW(__NR_exit_group),
      ALLOW(__NR_exit), ALLOW(__NR_brk), ALLOW(__NR_mmap),
      ALLOW(__NR_munmap), ALLOW(__NR_futex), ALLOW(__NR_rt_sigprocmask),
      ALLOW(__NR_getpid), ALLOW(__NR_getrandom), ALLOW(__NR_close),
      ALLOW(__NR_clock_gettime), ALLOW(__NR_rt_sigaction),
      ALLOW(__NR_rt_sigreturn),
      SECCOMP_KILL_REST,
  };
  if (seccomp_install(f, sizeof(f) / sizeof(f[0])) != 0)
    return 2;
  for (int i = 0; i < N; i++) {
    blocks[i] = malloc(480);
    memset(blocks[i], 1, 480);
  }
  say("grown\n");
  for (int i = 0; i < N; i++)
    free(blocks[i]);
  say("done\n");
  return 0;
}
