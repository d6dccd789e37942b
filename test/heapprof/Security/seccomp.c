// A program that installs a seccomp filter of its own (OpenSSH's privilege-
// separated child does) allows the system calls it makes and kills the
// process for others, among them the profile's (openat, mincore, linkat,
// ...): written at exit, the profile got the process killed by SIGSYS where
// it exits 0.  The profile up to the filter is written as a checkpoint
// before it goes in, with a warning, and nothing after it.
//
// The filter below allows what the program (and an allocator) needs after
// it, fails openat with EACCES as OpenSSH's does, and kills for the rest.
// Before it: 5 objects of 48 bytes, live; after it: 3 of 200, freed.
//
// prctl(PR_SET_SECCOMP), instrumented:
// RUN: %clang_heapprof -O0 %s -o %t -lpthread
// RUN: rm -rf %t.d1 && %env_heapprof_opts=profile_dir=%t.d1 %run %t prctl 2> %t.err1 | FileCheck %s --check-prefix=DONE
// RUN: FileCheck %s --check-prefix=WARN < %t.err1
// RUN: ls %t.d1 | FileCheck %s --check-prefix=FILES
// RUN: ls %t.d1 | count 1
// RUN: heapprof report %t.d1 | FileCheck %s --check-prefix=BEFORE
// syscall(SYS_seccomp) (libseccomp's way), under heapprof run:
// RUN: %clang_plain -O0 -g %s -o %t.plain -lpthread
// RUN: rm -rf %t.d2 && env -u LD_PRELOAD heapprof run -o %t.d2 -- %t.plain syscall 2> %t.err2 | FileCheck %s --check-prefix=DONE
// RUN: FileCheck %s --check-prefix=WARN < %t.err2
// RUN: ls %t.d2 | count 1
// RUN: heapprof report %t.d2 | FileCheck %s --check-prefix=BEFORE
// After the filter a thread starts and allocates: on another allocator
// (--allocator=system, in full and in sampled mode) its first call opened
// a page-fault counter (perf_event_open), which the filter kills for; now
// no counter is opened in the sandbox.
// RUN: rm -rf %t.d4 && env -u LD_PRELOAD heapprof run --allocator=system -o %t.d4 -- %t.plain thread 2> %t.err4 | FileCheck %s --check-prefix=DONE
// RUN: FileCheck %s --check-prefix=WARN < %t.err4
// RUN: rm -rf %t.d5 && env -u LD_PRELOAD HEAPPROF_OPTIONS=sample_bytes=524288 heapprof run --allocator=system -o %t.d5 -- %t.plain thread | FileCheck %s --check-prefix=DONE
// A filter the kernel refuses (EINVAL: an empty program) is no sandbox: the
// warning and the checkpoint came before the call, a line says so, and the
// exit profile adds the objects after it (every object in the directory's
// report).
// RUN: rm -rf %t.d3 && %env_heapprof_opts=profile_dir=%t.d3 %run %t invalid 2> %t.err3 | FileCheck %s --check-prefix=INVALID
// RUN: FileCheck %s --check-prefixes=WARN,REFUSED < %t.err3
// RUN: ls %t.d3 | count 2
// RUN: heapprof report %t.d3 | FileCheck %s --check-prefix=ALL
//
// DONE: done
// WARN: HeapProf: WARNING: the program installs a seccomp filter (pid {{[0-9]+}}): its profile up to here is written as a checkpoint; nothing after it is written, since the filter may kill the process for the profile's system calls
// FILES: heapprof.seccomp.c.tmp.{{[0-9]+}}.1.profraw
// BEFORE: allocations      5 objects, 240 bytes
// BEFORE: live at the end  5 objects, 240 bytes
// INVALID: seccomp: Invalid argument
// INVALID-NEXT: done
// REFUSED-NEXT: HeapProf: the seccomp filter did not go in (EINVAL): the profile goes on
// ALL: allocations      8 objects, 840 bytes
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "Inputs/seccomp_filter.h"

static char *volatile kept[5];

static void say(const char *s) { write(1, s, strlen(s)); }

static void *allocate(void *arg) {
  for (int i = 0; i < 100; i++) {
    char *volatile p = malloc(1000);
    p[0] = 1;
    free(p);
  }
  return arg;
}

int main(int argc, char **argv) {
  for (int i = 0; i < 5; i++)
    kept[i] = malloc(48);
  struct sock_filter f[] = {
      SECCOMP_LOAD_NR,
      FAIL(__NR_openat, EACCES), FAIL(__NR_open, EACCES),
      ALLOW(__NR_read), ALLOW(__NR_write), ALLOW(__NR_exit_group),
      ALLOW(__NR_exit), ALLOW(__NR_brk), ALLOW(__NR_mmap),
      ALLOW(__NR_munmap), ALLOW(__NR_mremap), ALLOW(__NR_madvise),
      ALLOW(__NR_futex), ALLOW(__NR_rt_sigprocmask), ALLOW(__NR_getpid),
      ALLOW(__NR_getrandom), ALLOW(__NR_close), ALLOW(__NR_fstat),
      ALLOW(__NR_newfstatat), ALLOW(__NR_clock_gettime),
      // A thread's start (clone3 fails, so glibc takes clone).
      FAIL(__NR_clone3, ENOSYS), ALLOW(__NR_clone), ALLOW(__NR_mprotect),
      ALLOW(__NR_set_robust_list), ALLOW(__NR_rseq), ALLOW(__NR_gettid),
      ALLOW(__NR_rt_sigaction), ALLOW(__NR_rt_sigreturn),
      ALLOW(__NR_sigaltstack), ALLOW(__NR_sched_yield),
      SECCOMP_KILL_REST,
  };
  struct sock_fprog prog = {sizeof(f) / sizeof(f[0]), f};
  if (!strcmp(argv[1], "invalid"))
    prog.len = 0;
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
    return 2;
  int r = !strcmp(argv[1], "syscall")
              ? (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog)
              : prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog);
  if (r != 0) /* write, not stdio: its buffer would be one more object */
    say(errno == EINVAL ? "seccomp: Invalid argument\n" : "seccomp: failed\n");
  if (!strcmp(argv[1], "thread")) {
    pthread_t t;
    if (pthread_create(&t, NULL, allocate, NULL) != 0)
      return 3;
    pthread_join(t, NULL);
  }
  for (int i = 0; i < 3; i++) {
    char *volatile p = malloc(200);
    p[0] = 1;
    free(p);
  }
  say("done\n");
  return 0;
}
