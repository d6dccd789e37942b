/*===- heapprof_spawn.c - posix_spawn under the program's own limit ------===
 *
 * Part of heapprof.  A program that lowered its own RLIMIT_AS or
 * RLIMIT_DATA holds it raised by the runtime's reservations
 * (heapprof_rlimit.c); an exec gives the new image the program's soft
 * limit back (hp_rlimit_before_exec), but glibc's posix_spawn and
 * posix_spawnp exec inside libc, in a child that inherits the raised
 * limit: `sh -c 'ulimit -v'` printed 37606611171 where natively it prints
 * 262144 (test/heapprof/Run/rlimit-spawn.c).  Lowering the limit in the
 * parent around the call cannot work: the process has its reservations
 * mapped, so under the program's value glibc's own mapping of the child's
 * stack, and every mapping of the program's other threads meanwhile,
 * would be refused.
 *
 * So while the program holds such a limit, the spawn is made here, as
 * glibc 2.36 makes it (sysdeps/unix/sysv/linux/spawni.c): a child in the
 * parent's memory (clone with CLONE_VM | CLONE_VFORK) on a stack of its
 * own, every signal blocked meanwhile; the child resets its handlers,
 * applies the attributes and the file actions, lowers its limits to the
 * program's (hp_rlimit_spawn_child: the child is a process of its own,
 * its limits its own, and it exits if the exec fails, so its hard limits
 * too, unlike an exec's), restores the signal mask and execs; a failure
 * goes to the parent through the shared memory, and posix_spawn returns
 * it.  posix_spawnp searches PATH as glibc's __execvpex does (no shell
 * for a file without #!).  The child makes raw system calls only: it runs
 * on the parent's thread pointer (errno is the parent's) and must not
 * enter the runtime, whose state is the parent's.
 *
 * The file actions are glibc's private array (struct __spawn_action); its
 * layout is checked once, on an array made with glibc's own add functions
 * (layout_ok), and when it differs the call goes to glibc's posix_spawn,
 * whose child then inherits the raised limit, as before.
 *===----------------------------------------------------------------------===*/
#include "heapprof_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

extern char **environ;

/* glibc's struct __spawn_action (posix/spawn_int.h, 2.35 and later). */
enum {
  ACT_CLOSE,
  ACT_DUP2,
  ACT_OPEN,
  ACT_CHDIR,
  ACT_FCHDIR,
  ACT_CLOSEFROM,
  ACT_TCSETPGRP
};
typedef struct spawn_action {
  int tag;
  union {
    struct {
      int fd;
    } close;
    struct {
      int fd, newfd;
    } dup2;
    struct {
      int fd;
      char *path;
      int oflag;
      mode_t mode;
    } open;
    struct {
      char *path;
    } chdir;
    struct {
      int fd;
    } fchdir;
    struct {
      int from;
    } closefrom;
    struct {
      int fd;
    } tcsetpgrp;
  } a;
} spawn_action_t;

#define RAW(nr, ...) raw_n(nr, __VA_ARGS__, 0, 0, 0, 0, 0, 0)
#define raw_n(nr, a, b, c, d, e, f, ...)                                     \
  hp_raw_syscall6((nr), (long)(a), (long)(b), (long)(c), (long)(d),          \
                  (long)(e), (long)(f))
static bool failed(long r) { return (unsigned long)r > -4096ul; }

/* Whether glibc's array has the layout above: checked once, on actions
 * of every kind made by glibc's functions (which allocate: not from a
 * vfork child, nor a handler; the caller is neither). 0: not checked,
 * 1: it has, 2: it has not. */
static int layout;

static bool layout_ok(void) {
  int l = __atomic_load_n(&layout, __ATOMIC_ACQUIRE);
  if (l)
    return l == 1;
  posix_spawn_file_actions_t fa;
  bool ok = posix_spawn_file_actions_init(&fa) == 0;
  if (!ok)
    return false;
  static char p1[] = "/p1", p2[] = "/p2";
  ok = posix_spawn_file_actions_addclose(&fa, 11) == 0 &&
       posix_spawn_file_actions_adddup2(&fa, 12, 13) == 0 &&
       posix_spawn_file_actions_addopen(&fa, 14, p1, O_RDWR | O_CREAT,
                                        0640) == 0 &&
       posix_spawn_file_actions_addchdir_np(&fa, p2) == 0 &&
       posix_spawn_file_actions_addfchdir_np(&fa, 15) == 0 &&
       posix_spawn_file_actions_addclosefrom_np(&fa, 16) == 0 &&
       posix_spawn_file_actions_addtcsetpgrp_np(&fa, 17) == 0 &&
       fa.__used == 7;
  if (ok) {
    const spawn_action_t *a = (const spawn_action_t *)fa.__actions;
    ok = a[0].tag == ACT_CLOSE && a[0].a.close.fd == 11 &&
         a[1].tag == ACT_DUP2 && a[1].a.dup2.fd == 12 &&
         a[1].a.dup2.newfd == 13 && a[2].tag == ACT_OPEN &&
         a[2].a.open.fd == 14 && !hp_strcmp(a[2].a.open.path, p1) &&
         a[2].a.open.oflag == (O_RDWR | O_CREAT) &&
         a[2].a.open.mode == 0640 && a[3].tag == ACT_CHDIR &&
         !hp_strcmp(a[3].a.chdir.path, p2) && a[4].tag == ACT_FCHDIR &&
         a[4].a.fchdir.fd == 15 && a[5].tag == ACT_CLOSEFROM &&
         a[5].a.closefrom.from == 16 && a[6].tag == ACT_TCSETPGRP &&
         a[6].a.tcsetpgrp.fd == 17;
  }
  posix_spawn_file_actions_destroy(&fa);
  __atomic_store_n(&layout, ok ? 1 : 2, __ATOMIC_RELEASE);
  return ok;
}

bool hp_spawn_limited_wanted(void) {
  return !hp_in_sandbox() &&
         hp_rlimit_program_holds() &&
         layout_ok();
}

typedef struct spawn_args {
  u64 oldmask;
  const char *file;
  bool search;
  const posix_spawn_file_actions_t *fa;
  const posix_spawnattr_t *attr;
  char *const *argv, *const *envp;
  const char *path_env; /* the caller's PATH, for search */
  volatile int err;     /* the child's failure, or 0 */
} spawn_args_t;

/* The kernel's struct sigaction. */
typedef struct ksigaction {
  void *handler;
  unsigned long flags;
  void *restorer;
  u64 mask;
} ksigaction_t;

#define NSIG_KERNEL 65 /* signals 1..64 */

/* PATH search as glibc's __execvpex: each directory in turn; EACCES is
 * remembered, a name that is not there (or not a directory on the way)
 * goes on to the next, anything else ends the search.  Returns the
 * error. */
static long exec_search(spawn_args_t *a) {
  const char *file = a->file;
  uptr len = hp_strlen(file);
  if (len > NAME_MAX)
    return -ENAMETOOLONG;
  const char *path = a->path_env ? a->path_env : "/bin:/usr/bin";
  char buf[PATH_MAX + NAME_MAX + 2];
  bool eacces = false;
  long r = -ENOENT;
  for (const char *p = path;;) {
    const char *end = hp_strchr(p, ':');
    if (!end)
      end = p + hp_strlen(p);
    uptr n = (uptr)(end - p);
    if (n < PATH_MAX) {
      hp_memcpy(buf, p, n);
      if (n)
        buf[n++] = '/';
      hp_memcpy(buf + n, file, len + 1);
      r = RAW(SYS_execve, buf, a->argv, a->envp);
      if (r == -EACCES)
        eacces = true;
      else if (r != -ENOENT && r != -ESTALE && r != -ENOTDIR &&
               r != -ENODEV && r != -ETIMEDOUT)
        return r;
    }
    if (!*end)
      break;
    p = end + 1;
  }
  return eacces ? -EACCES : r;
}

static int child(void *p) {
  spawn_args_t *a = p;
  const posix_spawnattr_t *attr = a->attr;
  short flags = attr ? attr->__flags : 0;
  long r = 0;
  /* No handler of the parent's may run here, in its memory: each signal
   * the program handles goes to its default (glibc's internal ones,
   * SIGCANCEL and SIGSETXID, to ignored), as glibc's child does. */
  for (int sig = 1; sig < NSIG_KERNEL; sig++) {
    ksigaction_t sa = {0};
    if ((flags & POSIX_SPAWN_SETSIGDEF) && sigismember(&attr->__sd, sig)) {
      sa.handler = SIG_DFL;
    } else if (sig == 32 || sig == 33) {
      sa.handler = SIG_IGN;
    } else {
      ksigaction_t old;
      if (failed(RAW(SYS_rt_sigaction, sig, NULL, &old, 8)) ||
          old.handler == SIG_IGN || old.handler == SIG_DFL)
        continue;
      sa.handler = SIG_DFL;
    }
    RAW(SYS_rt_sigaction, sig, &sa, NULL, 8);
  }
  if ((flags & (POSIX_SPAWN_SETSCHEDPARAM | POSIX_SPAWN_SETSCHEDULER)) ==
      POSIX_SPAWN_SETSCHEDPARAM) {
    if (failed(r = RAW(SYS_sched_setparam, 0, &attr->__sp)))
      goto fail;
  } else if (flags & POSIX_SPAWN_SETSCHEDULER) {
    if (failed(r = RAW(SYS_sched_setscheduler, 0, attr->__policy,
                       &attr->__sp)))
      goto fail;
  }
  if ((flags & POSIX_SPAWN_SETSID) && failed(r = RAW(SYS_setsid, 0)))
    goto fail;
  if ((flags & POSIX_SPAWN_SETPGROUP) &&
      failed(r = RAW(SYS_setpgid, 0, attr->__pgrp)))
    goto fail;
  if ((flags & POSIX_SPAWN_RESETIDS) &&
      (failed(r = RAW(SYS_setresuid, -1, RAW(SYS_getuid, 0), -1)) ||
       failed(r = RAW(SYS_setresgid, -1, RAW(SYS_getgid, 0), -1))))
    goto fail;
  const posix_spawn_file_actions_t *fa = a->fa;
  for (int k = 0; fa && k < fa->__used; k++) {
    const spawn_action_t *act = (const spawn_action_t *)fa->__actions + k;
    switch (act->tag) {
    case ACT_CLOSE:
      if (failed(r = RAW(SYS_close, act->a.close.fd))) {
        /* Only a descriptor out of range is an error. */
        struct rlimit nofile;
        if (failed(RAW(SYS_prlimit64, 0, RLIMIT_NOFILE, NULL, &nofile)) ||
            act->a.close.fd < 0 ||
            (rlim_t)act->a.close.fd >= nofile.rlim_cur)
          goto fail;
      }
      break;
    case ACT_OPEN: {
      RAW(SYS_close, act->a.open.fd);
      r = RAW(SYS_open, act->a.open.path, act->a.open.oflag | O_LARGEFILE,
              act->a.open.mode);
      if (failed(r))
        goto fail;
      long fd = r;
      if (fd != act->a.open.fd) {
        if (failed(r = RAW(SYS_dup2, fd, act->a.open.fd)) ||
            failed(r = RAW(SYS_close, fd)))
          goto fail;
      }
      break;
    }
    case ACT_DUP2:
      if (act->a.dup2.fd == act->a.dup2.newfd) {
        /* The same descriptor: kept across the exec (POSIX 2024). */
        if (failed(r = RAW(SYS_fcntl, act->a.dup2.fd, F_GETFD)) ||
            failed(r = RAW(SYS_fcntl, act->a.dup2.fd, F_SETFD,
                           r & ~FD_CLOEXEC)))
          goto fail;
      } else if (failed(r = RAW(SYS_dup2, act->a.dup2.fd,
                                act->a.dup2.newfd))) {
        goto fail;
      }
      break;
    case ACT_CHDIR:
      if (failed(r = RAW(SYS_chdir, act->a.chdir.path)))
        goto fail;
      break;
    case ACT_FCHDIR:
      if (failed(r = RAW(SYS_fchdir, act->a.fchdir.fd)))
        goto fail;
      break;
    case ACT_CLOSEFROM:
      if (failed(r = RAW(SYS_close_range, act->a.closefrom.from, ~0u, 0)))
        goto fail;
      break;
    case ACT_TCSETPGRP: {
      pid_t pgrp = (pid_t)RAW(SYS_getpgid, 0);
      if (failed(r = RAW(SYS_ioctl, act->a.tcsetpgrp.fd, TIOCSPGRP, &pgrp)))
        goto fail;
      break;
    }
    default:
      r = -EINVAL;
      goto fail;
    }
  }
  /* The program's limits, not the raised ones: this process's own, and
   * one that exits if its exec fails, so the hard ones too. */
  hp_rlimit_spawn_child();
  RAW(SYS_rt_sigprocmask, SIG_SETMASK,
      (flags & POSIX_SPAWN_SETSIGMASK) ? (const void *)&attr->__ss
                                       : (const void *)&a->oldmask,
      NULL, 8);
  if (a->search && *a->file && !hp_strchr(a->file, '/'))
    r = exec_search(a);
  else
    r = RAW(SYS_execve, a->file, a->argv, a->envp);
fail:
  a->err = failed(r) ? (int)-r : ECHILD;
  RAW(SYS_exit_group, 127);
  return 127;
}

#define SPAWN_STACK (64u << 10) /* the search's buffer, 4 KiB, among it */

int hp_spawn_limited(pid_t *pid, const char *file, bool search,
                     const posix_spawn_file_actions_t *fa,
                     const posix_spawnattr_t *attr, char *const argv[],
                     char *const envp[]) {
  int saved = errno;
  void *stack = mmap(NULL, SPAWN_STACK, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
  if (stack == MAP_FAILED) {
    int e = errno;
    errno = saved;
    return e;
  }
  spawn_args_t a = {0};
  a.file = file;
  a.search = search;
  a.fa = fa;
  a.attr = attr;
  a.argv = argv;
  a.envp = envp;
  for (char **e = environ; search && e && *e; e++)
    if (!hp_strncmp(*e, "PATH=", 5)) {
      a.path_env = *e + 5;
      break;
    }
  int cancel;
  pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &cancel);
  u64 all = ~0ull;
  RAW(SYS_rt_sigprocmask, SIG_SETMASK, &all, &a.oldmask, 8);
  long child_pid = clone(child, (char *)stack + SPAWN_STACK,
                         CLONE_VM | CLONE_VFORK | SIGCHLD, &a);
  int ec;
  if (child_pid > 0) {
    ec = a.err;
    if (ec > 0) /* it failed, and exited: reaped here, as glibc does */
      RAW(SYS_wait4, child_pid, NULL, 0, NULL);
  } else {
    ec = errno;
  }
  munmap(stack, SPAWN_STACK);
  if (ec == 0 && pid)
    *pid = (pid_t)child_pid;
  RAW(SYS_rt_sigprocmask, SIG_SETMASK, &a.oldmask, NULL, 8);
  pthread_setcancelstate(cancel, NULL);
  errno = saved;
  return ec;
}
