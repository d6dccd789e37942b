// A program in its own seccomp sandbox that execs: the runtime asks no
// system call of its own before the exec.  The exec family asks whether an
// exec can start at all (a newfstatat, so that a PATH search's failed
// tries write no profile: Run/exec-path-search.c); in the sandbox it does
// not ask, since the filter may kill for it and no profile is written
// there anyway.  The filter below allows execve and what a malloc needs,
// and kills for the rest, newfstatat among them.  The program execs a path
// that does not exist (ENOENT, the exec's own answer), makes a new peak of
// the heap and exits 0.  Killed by SIGSYS before: the exec asked
// newfstatat and, under heapprof run, prlimit64 (whether the new image
// could start the runtime); the peak's measure read the resident set from
// /proc (openat).  The new image, which would inherit the filter, is not
// followed.
// RUN: %clang_heapprof -O0 %s -o %t
// RUN: rm -rf %t.d1 && %env_heapprof_opts=profile_dir=%t.d1 %run %t 2> %t.err1 | FileCheck %s
// RUN: %clang_plain -O0 %s -o %t.plain
// RUN: rm -rf %t.d2 && env -u LD_PRELOAD heapprof run -o %t.d2 -- %t.plain 2> %t.err2 | FileCheck %s
// RUN: rm -rf %t.d3 && env -u LD_PRELOAD heapprof run --follow-exec -o %t.d3 -- %t.plain 2> %t.err3 | FileCheck %s
// CHECK: exec failed: ENOENT
// CHECK-NEXT: done
#include "Inputs/seccomp_filter.h"
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char *volatile kept, *volatile kept_more[256];

static void say(const char *s) { write(1, s, strlen(s)); }

int main(void) {
  kept = malloc(48);
  struct sock_filter f[] = {
      SECCOMP_LOAD_NR,
      ALLOW(__NR_execve), ALLOW(__NR_read), ALLOW(__NR_write),
      ALLOW(__NR_exit_group), ALLOW(__NR_exit), ALLOW(__NR_brk),
      ALLOW(__NR_mmap), ALLOW(__NR_munmap), ALLOW(__NR_mremap),
      ALLOW(__NR_madvise), ALLOW(__NR_futex), ALLOW(__NR_rt_sigprocmask),
      ALLOW(__NR_getpid), ALLOW(__NR_getrandom), ALLOW(__NR_close),
      ALLOW(__NR_clock_gettime), ALLOW(__NR_rt_sigaction),
      ALLOW(__NR_rt_sigreturn),
      SECCOMP_KILL_REST,
  };
  if (seccomp_install(f, sizeof(f) / sizeof(f[0])) != 0)
    return 2;
  char *args[] = {"x", NULL};
  execve("/nonexistent-heapprof-dir/x", args, args + 1);
  say(errno == ENOENT ? "exec failed: ENOENT\n" : "exec failed: other\n");
  /* A new peak, measured at this free: the measure's resident set read
   * /proc/thread-self/statm in the sandbox, and the filter killed for it. */
  for (int i = 0; i < 256; i++)
    kept_more[i] = malloc(1024);
  for (int i = 0; i < 256; i++)
    free(kept_more[i]);
  say("done\n");
  return 0;
}
