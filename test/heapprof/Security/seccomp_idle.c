// A program in its own seccomp sandbox is not killed for release_idle_ms's
// madvise: in the sandbox the runtime makes no system call a malloc or free
// would not (glibc's single-threaded malloc and free call brk, mmap and
// munmap, not madvise), so the idle pass does not run there and the freed
// pages stay, as release_freed_pages's do not go in the spill log's case.
// The filter below allows what the program and a malloc need, not madvise,
// and kills for the rest.  Before it: 16,384 blocks of 512 bytes (8 MiB,
// 128 spans of 64 KiB), and a churn of the 64-byte class, so that no span
// is made after it (a new span's madvise(MADV_DODUMP)).  After it: all are
// freed, then two sleeps of 1.1 s each followed by a churn (refills and
// drains): the second starts a pass that sees the spans idle for two
// epochs and gave their pages back with madvise, which the filter killed
// for (SIGSYS before the fix).  Now: done, exit 0.
// RUN: %clang_rt_heapprof -O0 %s -o %t
// RUN: rm -rf %t.d && %env_heapprof_opts=profile_dir=%t.d %run %t 2> %t.err | FileCheck %s
// CHECK: freed
// CHECK-NEXT: done
#include "../Inputs/idle_churn.h"
#include "Inputs/seccomp_filter.h"
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define N 16384
static char *volatile blocks[N];

static void say(const char *s) { write(1, s, strlen(s)); }

int main(void) {
  for (int i = 0; i < N; i++) {
    blocks[i] = malloc(480);
    memset(blocks[i], 1, 480);
  }
  churn();
  struct sock_filter f[] = {
      SECCOMP_LOAD_NR,
      ALLOW(__NR_read), ALLOW(__NR_write), ALLOW(__NR_exit_group),
      ALLOW(__NR_exit), ALLOW(__NR_brk), ALLOW(__NR_mmap),
      ALLOW(__NR_munmap), ALLOW(__NR_mremap), ALLOW(__NR_futex),
      ALLOW(__NR_rt_sigprocmask), ALLOW(__NR_getpid), ALLOW(__NR_gettid),
      ALLOW(__NR_getrandom), ALLOW(__NR_close), ALLOW(__NR_fstat),
      ALLOW(__NR_newfstatat), ALLOW(__NR_clock_gettime),
      ALLOW(__NR_clock_nanosleep), ALLOW(__NR_nanosleep),
      ALLOW(__NR_rt_sigaction), ALLOW(__NR_rt_sigreturn),
      ALLOW(__NR_sched_yield),
      SECCOMP_KILL_REST,
  };
  if (seccomp_install(f, sizeof(f) / sizeof(f[0])) != 0)
    return 2;
  for (int i = 0; i < N; i++)
    free(blocks[i]);
  say("freed\n");
  struct timespec ts = {1, 100000000};
  for (int i = 0; i < 2; i++) {
    nanosleep(&ts, NULL);
    churn();
  }
  say("done\n");
  return 0;
}
