// In the program's seccomp sandbox the runtime makes only the system calls
// a malloc or free makes (heapprof_sandbox.c).  A free that evicts a record
// from the HIB table appends it to the spill log, and a full log doubled by
// mremap: a filter that allows mmap and munmap but not mremap (as below;
// glibc's malloc and free never call it) killed the process with SIGSYS
// where it exits 0.  In the sandbox the log now grows by a copy (mmap,
// munmap).
//
// A table of one entry (hib_table_sets=1:hib_table_ways=1).  Before the
// filter: 8 contexts (f0..f2 pick one of two call sites each), one object
// of 8 bytes each, freed: the checkpoint written at the filter holds 8
// objects, 64 bytes.  After it: 1024 contexts (f0..f9), so that some 1024
// - 64 (the thread's cache) - 1 (the table) = 959 records are evicted to a
// log that starts at 256 records (the checkpoint took the old one): it
// doubles twice.  The process prints "done" and exits 0; nothing after the
// filter is written, so the directory has the checkpoint alone.
// RUN: %clang_heapprof -O0 %s -o %t
// RUN: rm -rf %t.d && %env_heapprof_opts=profile_dir=%t.d:hib_table_sets=1:hib_table_ways=1 %run %t 2> %t.err | FileCheck %s --check-prefix=DONE
// RUN: ls %t.d | count 1
// RUN: heapprof report %t.d | FileCheck %s --check-prefix=BEFORE
// Under heapprof run (the preloaded runtime):
// RUN: %clang_plain -O0 %s -o %t.plain
// RUN: rm -rf %t.r && env -u LD_PRELOAD HEAPPROF_OPTIONS=hib_table_sets=1:hib_table_ways=1 heapprof run -o %t.r -- %t.plain 2> %t.err2 | FileCheck %s --check-prefix=DONE
// RUN: ls %t.r | count 1
// RUN: heapprof report %t.r | FileCheck %s --check-prefix=BEFORE
//
// DONE: done
// BEFORE: allocations      8 objects, 64 bytes
#include <errno.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#define ALLOW(nr)                                                              \
  BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (nr), 0, 1),                             \
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW)
#define FAIL(nr, e)                                                            \
  BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (nr), 0, 1),                             \
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (e))

static void *volatile sink;

__attribute__((noinline)) static void f10(unsigned bits) {
  (void)bits;
  sink = malloc(8);
  free(sink);
}

// Two call sites of the next level: the bit picks one.
#define LEVEL(i, next)                                                         \
  __attribute__((noinline)) static void f##i(unsigned bits) {                  \
    if (bits & 1)                                                              \
      next(bits >> 1);                                                         \
    else                                                                       \
      next(bits >> 1);                                                         \
  }
LEVEL(9, f10)
LEVEL(8, f9)
LEVEL(7, f8)
LEVEL(6, f7)
LEVEL(5, f6)
LEVEL(4, f5)
LEVEL(3, f4)
LEVEL(2, f3)
LEVEL(1, f2)
LEVEL(0, f1)

int main(void) {
  for (unsigned b = 0; b < 8; b++)
    f0(b);
  struct sock_filter f[] = {
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
      FAIL(__NR_openat, EACCES), FAIL(__NR_open, EACCES),
      ALLOW(__NR_read), ALLOW(__NR_write), ALLOW(__NR_exit_group),
      ALLOW(__NR_exit), ALLOW(__NR_brk), ALLOW(__NR_mmap),
      ALLOW(__NR_munmap), ALLOW(__NR_madvise), ALLOW(__NR_futex),
      ALLOW(__NR_rt_sigprocmask), ALLOW(__NR_getpid), ALLOW(__NR_gettid),
      ALLOW(__NR_getrandom), ALLOW(__NR_close), ALLOW(__NR_fstat),
      ALLOW(__NR_newfstatat), ALLOW(__NR_clock_gettime),
      ALLOW(__NR_rt_sigaction), ALLOW(__NR_rt_sigreturn),
      ALLOW(__NR_sched_yield),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
  };
  struct sock_fprog prog = {sizeof(f) / sizeof(f[0]), f};
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 ||
      prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) != 0)
    return 2;
  for (unsigned b = 0; b < 1024; b++)
    f0(b);
  write(1, "done\n", 5);
  return 0;
}
