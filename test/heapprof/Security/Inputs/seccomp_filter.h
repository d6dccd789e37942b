// seccomp_filter: a seccomp filter written as a list of system calls, as
// seccomp.c and seccomp_spill_growth.c install one (OpenSSH's privilege-
// separated child does the same):
//
//   struct sock_filter f[] = {
//       SECCOMP_LOAD_NR,                  // the system call's number
//       FAIL(__NR_openat, EACCES),        // fails with that errno
//       ALLOW(__NR_read), ...,            // allowed
//       SECCOMP_KILL_REST,                // any other kills the process
//   };
//   struct sock_fprog prog = {sizeof(f) / sizeof(f[0]), f};
//
// Each test keeps its own list, which is what it is about: a system call
// missing from it kills the process (SIGSYS) when made.
#ifndef HEAPPROF_TEST_SECCOMP_FILTER_H
#define HEAPPROF_TEST_SECCOMP_FILTER_H

#include <errno.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

#define SECCOMP_LOAD_NR                                                        \
  BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr))
#define ALLOW(nr)                                                              \
  BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (nr), 0, 1),                             \
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW)
#define FAIL(nr, e)                                                            \
  BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (nr), 0, 1),                             \
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (e))
#define SECCOMP_KILL_REST BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS)

#endif
