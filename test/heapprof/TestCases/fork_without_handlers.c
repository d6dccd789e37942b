// fork() runs heapprof's fork handlers (pthread_atfork), which give the
// child a profile of its own.  _Fork(), syscall(SYS_fork), syscall(SYS_clone)
// and syscall(SYS_clone3) without CLONE_VM, and glibc's clone() with a
// function and no CLONE_VM run no pthread_atfork handler: their children
// wrote profiles that counted the parent's allocations again (27 objects
// where 17 were made), and a clone() child died of SIGSEGV under
// --allocator=system.  heapprof runs its own handlers around each now.
// A copy made by the instruction itself is not seen: it writes no profile
// and says so, rather than count its parent's objects twice.
//
// The parent allocates 10 objects of 100 bytes, copies itself, and the
// child allocates 7 of 300 and calls exit(); the parent waits and prints
// (stdout's 4096-byte buffer: stdout is a pipe).  The profiles of both:
// 18 objects, 1000 + 2100 + 4096 = 7196 bytes.  The instruction's copy:
// the parent's alone, 11 objects, 5096 bytes.
// RUN: %clang_heapprof -O1 -g %s -o %t
// RUN: %clang_plain -O1 -g %s -o %t-plain
// RUN: rm -rf %t.d && %env_heapprof_opts=profile_dir=%t.d %run %t _Fork | FileCheck %s --check-prefix=STATUS
// RUN: heapprof report %t.d --depth 1 | FileCheck %s --check-prefix=BOTH
// RUN: rm -rf %t.r && env -u LD_PRELOAD heapprof run --allocator=heapprof -o %t.r -- %t-plain _Fork | FileCheck %s --check-prefix=STATUS
// RUN: heapprof report %t.r --depth 1 | FileCheck %s --check-prefix=BOTH
// RUN: rm -rf %t.r && env -u LD_PRELOAD heapprof run --allocator=system -o %t.r -- %t-plain _Fork | FileCheck %s --check-prefix=STATUS
// RUN: heapprof report %t.r --depth 1 | FileCheck %s --check-prefix=BOTH
// RUN: rm -rf %t.d && %env_heapprof_opts=profile_dir=%t.d %run %t SYS_fork | FileCheck %s --check-prefix=STATUS
// RUN: heapprof report %t.d --depth 1 | FileCheck %s --check-prefix=BOTH
// RUN: rm -rf %t.r && env -u LD_PRELOAD heapprof run --allocator=heapprof -o %t.r -- %t-plain SYS_fork | FileCheck %s --check-prefix=STATUS
// RUN: heapprof report %t.r --depth 1 | FileCheck %s --check-prefix=BOTH
// RUN: rm -rf %t.r && env -u LD_PRELOAD heapprof run --allocator=system -o %t.r -- %t-plain SYS_fork | FileCheck %s --check-prefix=STATUS
// RUN: heapprof report %t.r --depth 1 | FileCheck %s --check-prefix=BOTH
// RUN: rm -rf %t.d && %env_heapprof_opts=profile_dir=%t.d %run %t SYS_clone | FileCheck %s --check-prefix=STATUS
// RUN: heapprof report %t.d --depth 1 | FileCheck %s --check-prefix=BOTH
// RUN: rm -rf %t.r && env -u LD_PRELOAD heapprof run --allocator=heapprof -o %t.r -- %t-plain SYS_clone | FileCheck %s --check-prefix=STATUS
// RUN: heapprof report %t.r --depth 1 | FileCheck %s --check-prefix=BOTH
// RUN: rm -rf %t.r && env -u LD_PRELOAD heapprof run --allocator=system -o %t.r -- %t-plain SYS_clone | FileCheck %s --check-prefix=STATUS
// RUN: heapprof report %t.r --depth 1 | FileCheck %s --check-prefix=BOTH
// RUN: rm -rf %t.d && %env_heapprof_opts=profile_dir=%t.d %run %t SYS_clone3 | FileCheck %s --check-prefix=STATUS
// RUN: heapprof report %t.d --depth 1 | FileCheck %s --check-prefix=BOTH
// RUN: rm -rf %t.r && env -u LD_PRELOAD heapprof run --allocator=heapprof -o %t.r -- %t-plain SYS_clone3 | FileCheck %s --check-prefix=STATUS
// RUN: heapprof report %t.r --depth 1 | FileCheck %s --check-prefix=BOTH
// RUN: rm -rf %t.r && env -u LD_PRELOAD heapprof run --allocator=system -o %t.r -- %t-plain SYS_clone3 | FileCheck %s --check-prefix=STATUS
// RUN: heapprof report %t.r --depth 1 | FileCheck %s --check-prefix=BOTH
// RUN: rm -rf %t.d && %env_heapprof_opts=profile_dir=%t.d %run %t clone | FileCheck %s --check-prefix=STATUS
// RUN: heapprof report %t.d --depth 1 | FileCheck %s --check-prefix=BOTH
// RUN: rm -rf %t.r && env -u LD_PRELOAD heapprof run --allocator=heapprof -o %t.r -- %t-plain clone | FileCheck %s --check-prefix=STATUS
// RUN: heapprof report %t.r --depth 1 | FileCheck %s --check-prefix=BOTH
// RUN: rm -rf %t.r && env -u LD_PRELOAD heapprof run --allocator=system -o %t.r -- %t-plain clone | FileCheck %s --check-prefix=STATUS
// RUN: heapprof report %t.r --depth 1 | FileCheck %s --check-prefix=BOTH
// STATUS: child: status 0
// BOTH: allocations 18 objects, 7196 bytes
// RUN: rm -rf %t.d && %env_heapprof_opts=profile_dir=%t.d %run %t instruction 2>&1 | FileCheck %s --check-prefix=INSN
// RUN: heapprof report %t.d --depth 1 | FileCheck %s --check-prefix=PARENT
// RUN: rm -rf %t.r && env -u LD_PRELOAD heapprof run -o %t.r -- %t-plain instruction 2>&1 | FileCheck %s --check-prefix=INSN
// RUN: heapprof report %t.r --depth 1 | FileCheck %s --check-prefix=PARENT
// On glibc's allocator too: the copy has no page-fault ring (the kernel
// copies none into a child), and it died of SIGSEGV at its first malloc
// reading its thread's (alloc_faults=1, the default):
// RUN: rm -rf %t.r && env -u LD_PRELOAD heapprof run --allocator=system -o %t.r -- %t-plain instruction 2>&1 | FileCheck %s --check-prefix=INSN
// RUN: heapprof report %t.r --depth 1 | FileCheck %s --check-prefix=PARENT
// INSN: HeapProf: WARNING: process [[#]] is a copy of process [[#]] made without fork's handlers (the clone instruction without CLONE_VM, or a fork from a signal handler that interrupted heapprof): its profile is not written, since it would count its parent's allocations again
// INSN: child: status 0
// PARENT: allocations 11 objects, 5096 bytes
// The child's 7 objects of 300 bytes are nowhere:
// PARENT-NOT: 300 B
#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

extern pid_t _Fork(void);

static void *keep[17];
static char stack[1 << 16] __attribute__((aligned(16)));

__attribute__((noinline)) static void *parent_alloc(void) {
  return malloc(100);
}
__attribute__((noinline)) static void *child_alloc(void) {
  return malloc(300);
}

static int child(void *arg) {
  (void)arg;
  for (int i = 0; i < 7; i++)
    keep[10 + i] = child_alloc();
  exit(0);
}

static pid_t copy(const char *how) {
  if (!strcmp(how, "_Fork"))
    return _Fork();
  if (!strcmp(how, "SYS_fork"))
    return (pid_t)syscall(SYS_fork);
  if (!strcmp(how, "SYS_clone"))
    return (pid_t)syscall(SYS_clone, SIGCHLD, 0, 0, 0, 0);
  if (!strcmp(how, "SYS_clone3")) {
    /* struct clone_args: flags, pidfd, child_tid, parent_tid, exit_signal,
     * stack, stack_size, tls */
    unsigned long long args[8] = {0, 0, 0, 0, SIGCHLD, 0, 0, 0};
    return (pid_t)syscall(SYS_clone3, args, sizeof(args));
  }
  if (!strcmp(how, "clone"))
    return clone(child, stack + sizeof(stack), SIGCHLD, NULL);
  long r; /* the instruction */
  __asm__ volatile("syscall"
                   : "=a"(r)
                   : "a"((long)SYS_clone), "D"((long)SIGCHLD), "S"(0L),
                     "d"(0L)
                   : "rcx", "r11", "r10", "r8", "r9", "memory");
  return (pid_t)r;
}

int main(int argc, char **argv) {
  if (argc < 2)
    return 2;
  for (int i = 0; i < 10; i++)
    keep[i] = parent_alloc();
  pid_t pid = copy(argv[1]);
  if (pid < 0) {
    perror("copy");
    return 1;
  }
  if (pid == 0)
    child(NULL);
  int st;
  if (waitpid(pid, &st, 0) != pid)
    return 1;
  if (WIFSIGNALED(st))
    printf("child: signal %d\n", WTERMSIG(st));
  else
    printf("child: status %d\n", WEXITSTATUS(st));
  return 0;
}
