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
//   if (seccomp_install(f, sizeof(f) / sizeof(f[0])) != 0)
//     return 2;                         // no new privileges, then the filter
//
// Each test keeps its own list, which is what it is about: a system call
// missing from it kills the process (SIGSYS) when made.  (seccomp_mlock.c
// and seccomp_mlock_dump.c share one, which differs in one call they
// name: Inputs/sandboxed_heap.h.)
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

// Installs the n instructions at f as the program's filter, as a program
// does: no new privileges, then prctl(PR_SET_SECCOMP).  0, or -1 if either
// call failed.
static inline int seccomp_install(struct sock_filter *f, unsigned short n) {
  struct sock_fprog prog = {n, f};
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 ||
      prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) != 0)
    return -1;
  return 0;
}

#endif
