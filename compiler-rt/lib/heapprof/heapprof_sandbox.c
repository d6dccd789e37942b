/*===- heapprof_sandbox.c - the program's own seccomp sandbox -----------===
 *
 * Part of heapprof.  A program that installs a seccomp filter (OpenSSH's
 * privilege-separated child, vsftpd, programs using libseccomp) allows the
 * system calls it makes and kills the process, or fails the call, for the
 * others.  heapprof's profile needs calls the program never makes (mkdir,
 * openat of the profile and of /proc, linkat, mincore, sigaltstack,
 * timer_create, ...): written at exit, it got the process killed by SIGSYS
 * where it would have exited 0.  So prctl(PR_SET_SECCOMP) and
 * syscall(SYS_seccomp) are interposed (both runtimes); before the filter
 * goes in, while every call is still allowed:
 *
 *  - the profile so far is written, as a checkpoint with reason "seccomp";
 *  - a warning says that nothing after it will be;
 *  - heapprof's deadly-signal handlers give the signals back to the actions
 *    they replaced (a crash's profile cannot be written either);
 *  - hp_sandboxed is set: no profile is written from then on (exit, _exit,
 *    checkpoints, the dump signal), and the runtime makes no system call a
 *    malloc or free would not (the shadow's and the peak's residency
 *    questions, mincore and /proc/self/pagemap, and the peak's resident
 *    set, /proc/thread-self/statm, are not asked; an exec checks nothing
 *    and passes no heapprof run environment on, since the new image
 *    inherits the filter; a new span is not marked for core dumps
 *    (madvise), and after mlockall(MCL_FUTURE) it is locked by mapping it
 *    afresh, not with mlock (heapprof_mlock.c); a new
 *    thread gets no alternate signal stack, and no page-fault or PMU
 *    counter: perf_event_open; its state, and false_sharing's line
 *    writes, no thread id, gettid, which glibc's thread start never
 *    asks); hp_grow_by_copy with it: the runtime's
 *    arrays grow by mmap and munmap, not mremap.
 *
 * A filter call with a NULL program (a probe whether filters are
 * supported: EFAULT, nothing installed) is passed straight through.
 * A filter that fails to go in (EINVAL, EFAULT, ...) clears the flag and
 * puts heapprof's deadly handlers back, with a line saying so: the
 * checkpoint stays, and the exit profile adds what follows it.  A vfork
 * child does nothing of this: it shares its parent's memory, and execs or
 * _exits.  Not covered: a filter installed with the raw instruction
 * (Chromium's sandbox), and a process that starts with a filter already in
 * place (a systemd unit's SystemCallFilter, a container's profile: they
 * allow ordinary file calls, and the runtime's own start needs them
 * anyway).
 *
 * The system calls themselves are made here, by the instruction: an
 * interposed syscall() that called glibc's would need dlsym, which may
 * allocate and is not for a vfork child; the runtime's own syscall() calls
 * land here too and pass straight through.
 *===----------------------------------------------------------------------===*/
#include "heapprof_internal.h"

#include <errno.h>
#include <sched.h>
#include <linux/seccomp.h>
#include <stdarg.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

bool hp_sandboxed;

/* glibc's convention: -1 and errno for the kernel's -4095..-1. */
static long result(long ret) {
  if ((unsigned long)ret > -4096ul) {
    errno = (int)-ret;
    return -1;
  }
  return ret;
}

/* Before a filter goes in: whether to call entered() after it.  Nothing in
 * a vfork child, which runs in its parent's memory: the flag would end the
 * parent's profile (the child execs or _exits, writing nothing). */
static bool enter(void) {
  if (__atomic_load_n(&hp_sandboxed, __ATOMIC_ACQUIRE) ||
      !(hp_signals_own_image() || hp_signals_fork_child()))
    return false;
  if (hp_rtl.inited && hp_flags.profiling) {
    int saved = errno;
    int r = hp_rtl_checkpoint("seccomp");
    hp_printf("HeapProf: WARNING: the program installs a seccomp filter "
              "(pid %d): its profile up to here %s; nothing after it is "
              "written, since the filter may kill the process for the "
              "profile's system calls\n",
              (int)hp_raw_syscall6(SYS_getpid, 0, 0, 0, 0, 0, 0),
              r == 0 ? "is written as a checkpoint" : "could not be written");
    hp_signals_sandboxed(true);
    errno = saved;
  }
  __atomic_store_n(&hp_sandboxed, true, __ATOMIC_RELEASE);
  __atomic_store_n(&hp_grow_by_copy, true, __ATOMIC_RELEASE);
  return true;
}

/* Why seccomp refused a filter (its manual page's errors). */
static const char *refusal(int e) {
  switch (e) {
  case EACCES: return "EACCES: without no_new_privs or CAP_SYS_ADMIN";
  case EINVAL: return "EINVAL";
  case EFAULT: return "EFAULT";
  case ENOMEM: return "ENOMEM";
  case ESRCH: return "ESRCH: another thread's filters differ";
  default: return "refused";
  }
}

/* After it: a filter that did not go in leaves no sandbox. */
static void entered(long ret) {
  if (ret >= 0)
    return;
  int saved = errno;
  __atomic_store_n(&hp_sandboxed, false, __ATOMIC_RELEASE);
  __atomic_store_n(&hp_grow_by_copy, false, __ATOMIC_RELEASE);
  if (hp_rtl.inited && hp_flags.profiling) {
    hp_signals_sandboxed(false);
    hp_printf("HeapProf: the seccomp filter did not go in (%s): the profile "
              "goes on\n",
              refusal(saved));
  }
  errno = saved;
}

/* A filter call with no program installs nothing: the kernel fails it
 * with EFAULT.  Chromium's sandbox asks so, in each process, whether
 * filters are supported (with SECCOMP_FILTER_FLAG_TSYNC too): no
 * checkpoint, nothing said (test/heapprof/Security/seccomp_probe.c). */
static bool probe(unsigned long prog) { return prog == 0; }

HP_INTERFACE int prctl(int option, ...) {
  va_list ap;
  va_start(ap, option);
  unsigned long a = va_arg(ap, unsigned long), b = va_arg(ap, unsigned long),
                c = va_arg(ap, unsigned long), d = va_arg(ap, unsigned long);
  va_end(ap);
  bool filter = option == PR_SET_SECCOMP &&
                (a == SECCOMP_MODE_STRICT ||
                 (a == SECCOMP_MODE_FILTER && !probe(b)));
  bool undo = filter && enter();
  long ret = result(hp_raw_syscall6(SYS_prctl, option, (long)a, (long)b,
                                 (long)c, (long)d, 0));
  if (undo)
    entered(ret);
  return (int)ret;
}

/* clone3's arguments (struct clone_args, linux/sched.h, readable since
 * Linux 5.3): a copy of the process that returns on this stack. */
static bool copies_without_stack(long args, long size) {
  const u64 *a = (const u64 *)args;
  /* flags, pidfd, child_tid, parent_tid, exit_signal, stack, ... */
  return a && size >= 64 && !(a[0] & CLONE_VM) && !a[5];
}

HP_INTERFACE long syscall(long nr, ...) {
  va_list ap;
  va_start(ap, nr);
  long a = va_arg(ap, long), b = va_arg(ap, long), c = va_arg(ap, long),
       d = va_arg(ap, long), e = va_arg(ap, long), f = va_arg(ap, long);
  va_end(ap);
  /* A copy of the process that returns here: heapprof's fork handlers
   * around it (heapprof_fork.c).  A clone given a stack cannot return
   * through this frame; one with CLONE_VM shares the memory. */
  if (nr == SYS_fork || (nr == SYS_clone && !(a & CLONE_VM) && !b) ||
      (nr == SYS_clone3 && copies_without_stack(a, b))) {
    int saved = errno;
    bool prepared = hp_fork_prepare();
    errno = saved;
    long ret = hp_raw_syscall6(nr, a, b, c, d, e, f);
    hp_fork_after(prepared, ret == 0);
    return result(ret);
  }
  bool filter = nr == SYS_seccomp &&
                (a == SECCOMP_SET_MODE_STRICT ||
                 (a == SECCOMP_SET_MODE_FILTER && !probe(c)));
  bool undo = filter && enter();
  long ret = result(hp_raw_syscall6(nr, a, b, c, d, e, f));
  if (undo)
    entered(ret);
  return ret;
}
