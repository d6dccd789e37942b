/*===- heapprof_exec.c - the profile at exec ----------------------------===
 *
 * Part of heapprof.  An exec replaces the process image: no exit, no
 * destructor runs, so without this the image's profile would be lost, and
 * under heapprof run a program that replaces itself (a wrapper script's
 * `exec`, a pyenv or rbenv shim: `python3` that is really bash running
 * `exec .../python3.11`) would leave no profile at all.  The exec family
 * the program calls (execve, execv, execvp, execvpe, execl, execle, execlp,
 * execveat, fexecve; libc's own internal execs, as in system() or
 * posix_spawn, do not pass through here: posix_spawn and posix_spawnp are
 * interposed for the environment, at the end, and made by heapprof_spawn.c
 * under a memory limit the program set itself) is interposed, in both
 * runtimes:
 *
 *  - The image's own process (not a fork or vfork child: what a shell does
 *    between fork and exec is not a profile) writes its profile first, as
 *    a checkpoint with reason "exec": the last of its series if the exec
 *    succeeds, and if it fails the process goes on and its exit profile
 *    ends the series as usual (each dump holds what happened since the
 *    previous one).
 *  - Under heapprof run without --follow-exec, that process's exec is the
 *    program replacing itself, not a child: the new image is still the
 *    program the user asked to profile, so it gets heapprof run's
 *    environment back (hp_preload_exec_env, heapprof_preload.c) and with it
 *    the runtime, and writes heapprof.<its exe>.<pid>.profraw.  Children (a
 *    fork, then an exec) stay unprofiled.
 *  - With --follow-exec every exec is followed, the exec of a fork child
 *    too: an environment without heapprof run's variables (`env -i`, an
 *    exec with an environment the program made) gets them added.  In a
 *    vfork child (Python's subprocess) the new array is built on the
 *    child's stack, the part of its parent's stack below the vfork: a
 *    mapping made there would stay in the parent.  Not libc's own execs.
 *
 * The static runtime has no such environment: its hp_preload_exec_env is
 * the weak one below, which asks the preloaded runtime when one is loaded
 * too (a program built with -fheapprof, run under heapprof run).
 *
 * The exec itself is the next definition's (hp_exec_next: libc's, or a
 * library preloaded after heapprof's runtime that wraps it: an exec
 * logger, a sandbox), resolved at init (hp_exec_init), so never in a
 * vfork child (in a -fheapprof program under heapprof run, the one after
 * the preloaded runtime's idle copy: hp_exec_next); before init (a
 * library's constructor that runs before heapprof's and execs) looked up
 * when the program installs its first signal handler
 * (hp_exec_resolve_early, from sigaction and signal), so never from a
 * handler (dlsym is not async-signal-safe), or at the call when it
 * installed none; the execve system call when there is none.  The PATH
 * search of execvp/execvpe/execlp is glibc's execvpe, resolved so too; its
 * tries are execves inside libc, which reach no interposer, so whether the
 * search can start anything is asked before it (search_cannot_start).
 *===----------------------------------------------------------------------===*/
#include "heapprof_internal.h"
#include "heapprof_leaks.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <spawn.h>
#include <stdarg.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

extern char **environ;

typedef int (*execvpe_fn)(const char *, char *const[], char *const[]);
typedef char *const *(*exec_env_fn)(char *const *, void *, uptr *);
typedef int (*spawn_fn)(pid_t *, const char *,
                        const posix_spawn_file_actions_t *,
                        const posix_spawnattr_t *, char *const[],
                        char *const[]);
typedef int (*execve_fn)(const char *, char *const[], char *const[]);
typedef int (*execveat_fn)(int, const char *, char *const[], char *const[],
                           int);
typedef int (*fexecve_fn)(int, char *const[], char *const[]);
/* Set once by hp_exec_init (after init: dlsym may allocate). */
static execvpe_fn real_execvpe;
static execve_fn next_execve;
static execveat_fn next_execveat;
static fexecve_fn next_fexecve;
static spawn_fn real_spawn, real_spawnp;
static exec_env_fn run_exec_env;
typedef void *(*next_fn)(const char *);
static next_fn run_next;
static bool nexts_resolved; /* set by hp_exec_init */
static bool nexts_early;    /* set by hp_exec_resolve_early */
/* Under heapprof run --follow-exec (whose environment is never restored):
 * asked once, at init (hp_exec_init), not at each exec.  A server may have
 * replaced its environment by then (nginx's master and workers build
 * their own, with TZ and what `env` directives name; a program's
 * clearenv), and an exec with an environment of its making was then not
 * followed (test/heapprof/Run/follow-exec-own-environ.c).  Written once
 * by hp_exec_init, before any exec can ask. */
static bool run_following;
static bool following(void) { return run_following; }

/* next, or before hp_exec_init and hp_exec_resolve_early the next
 * definition looked up now: no handler of the program's can be running
 * (it would have been installed through sigaction or signal, which
 * resolve them first), so dlsym, which is not async-signal-safe, is not
 * called from one. */
static void *next_now(void *next, const char *name) {
  return __atomic_load_n(&nexts_resolved, __ATOMIC_ACQUIRE) ||
                 __atomic_load_n(&nexts_early, __ATOMIC_ACQUIRE)
             ? next
             : hp_exec_next(name);
}

void hp_exec_resolve_early(void) {
  if (__atomic_load_n(&nexts_resolved, __ATOMIC_ACQUIRE) ||
      __atomic_load_n(&nexts_early, __ATOMIC_ACQUIRE))
    return;
  /* What next_now would find at the call (before init there is no
   * heapprof run copy to pass over: run_exec_env is set by init). */
  next_execve = (execve_fn)hp_exec_next("execve");
  next_execveat = (execveat_fn)hp_exec_next("execveat");
  next_fexecve = (fexecve_fn)hp_exec_next("fexecve");
  __atomic_store_n(&nexts_early, true, __ATOMIC_RELEASE);
}

/* In a -fheapprof program under heapprof run, this executable's next
 * definition is the preloaded runtime's idle copy (preempted, never
 * initialised): what comes after that copy is asked of it
 * (__heapprof_run_next_definition, its own dlsym(RTLD_NEXT)), so that a
 * library preloaded after it that wraps name (an exec logger) is still
 * called.  NULL only without one (the caller makes the system call). */
void *hp_exec_next(const char *name) {
  void *p = dlsym(RTLD_NEXT, name);
  Dl_info at, pre;
  if (p && run_exec_env && dladdr(p, &at) &&
      dladdr((void *)run_exec_env, &pre) && at.dli_fbase == pre.dli_fbase)
    return run_next ? run_next(name) : NULL;
  return p;
}

void hp_exec_init(void) {
  /* A -fheapprof program under heapprof run: the preloaded runtime is
   * loaded (its definitions preempted by this executable's) and holds
   * heapprof run's environment.  Asked only under heapprof run (the
   * preloaded runtime's constructor has run init, and only then takes
   * HEAPPROF_RUN out of the environment): a dlsym that finds nothing
   * allocates its error message, which would be profiled. */
  const char *run = hp_getenv("HEAPPROF_RUN");
  run_following = run && !hp_strcmp(run, "follow-exec");
  if (run) {
    run_exec_env =
        (exec_env_fn)dlsym(RTLD_DEFAULT, "__heapprof_run_exec_environment");
    if (run_exec_env)
      run_next =
          (next_fn)dlsym(RTLD_DEFAULT, "__heapprof_run_next_definition");
  }
  real_execvpe = (execvpe_fn)dlsym(RTLD_NEXT, "execvpe");
  real_spawn = (spawn_fn)dlsym(RTLD_NEXT, "posix_spawn");
  real_spawnp = (spawn_fn)dlsym(RTLD_NEXT, "posix_spawnp");
  next_execve = (execve_fn)hp_exec_next("execve");
  next_execveat = (execveat_fn)hp_exec_next("execveat");
  next_fexecve = (fexecve_fn)hp_exec_next("fexecve");
  __atomic_store_n(&nexts_resolved, true, __ATOMIC_RELEASE);
}

/* The static runtime's: heapprof run's environment from the preloaded
 * runtime when there is one, else envp unchanged.  (The preloaded
 * runtime links its own, heapprof_preload.c.) */
HP_WEAK char *const *hp_preload_exec_env(char *const *envp, void *buf,
                                         uptr *bytes) {
  return run_exec_env ? run_exec_env(envp, buf, bytes) : envp;
}

/* Whether an exec of the image's own process is followed: under heapprof
 * run.  (The preloaded runtime links its own, heapprof_preload.c.) */
HP_WEAK bool hp_preload_active(void) { return run_exec_env != NULL; }

/* An environment whose new array (pointers, not copies, and heapprof
 * run's few variables) is larger than this, some 32,000 variables, is not
 * followed from a vfork child: the child runs on its parent's stack. */
#define STACK_ENV_MAX (256u << 10)

typedef struct exec_state {
  void *map; /* the environment's mapping, unmapped if exec fails */
  uptr map_size;
  uptr stack_bytes; /* a vfork child's: build it on the stack, this big */
  bool in_limited;  /* built in limited_env, given back if exec fails */
} exec_state_t;

/* Under an address-space or data-size limit that the new image's runtime
 * could not start under (hp_limits_refuse_start), the process is past the
 * limit itself: no mapping can be had for the environment that runs the
 * new image without heapprof.  It is built here, in memory the process
 * has had since it was loaded; one exec at a time (limited_env_busy), the
 * rest pass envp on.  Not by a vfork child, whose successful exec would
 * leave the buffer claimed in its parent: it builds on its stack as
 * always (below its parent's frames, in what the stack had mapped). */
static char limited_env[64 << 10] __attribute__((aligned(16)));
static bool limited_env_busy;

static char *const *env_in_limited(char *const *envp, uptr bytes,
                                   bool *claimed) {
  if (bytes > sizeof(limited_env) ||
      __atomic_exchange_n(&limited_env_busy, true, __ATOMIC_ACQUIRE))
    return envp;
  *claimed = true;
  char *const *env = hp_preload_exec_env(envp, limited_env, &bytes);
  return env ? env : envp;
}

static void limited_release(bool claimed) {
  if (claimed)
    __atomic_store_n(&limited_env_busy, false, __ATOMIC_RELEASE);
}

/* heapprof run's environment for envp, bytes big (hp_preload_exec_env's
 * size), in a mapping of its own (*map, *map_size: to unmap); envp itself
 * when no page can be had (the exec or spawn goes on, unfollowed). */
static char *const *env_in_map(char *const *envp, uptr bytes, void **map,
                               uptr *map_size) {
  bytes = HP_ROUND_UP(bytes, HP_PAGE_SIZE);
  void *m = hp_mmap(bytes);
  if (!m)
    return envp;
  *map = m;
  *map_size = bytes;
  return hp_preload_exec_env(envp, m, &bytes);
}

/* Whether an exec of path (from dirfd, with execveat's flags) cannot
 * start: no such file (or no search permission on the way), not a regular
 * file, or executable by no one -- the kernel refuses each before the image
 * is replaced.  dash's `exec PROG` and its children's execs try PATH's
 * directories in turn, one execve each: a checkpoint before every try wrote
 * one profile per directory tried, all but the first empty, each with a
 * dump's work (test/heapprof/Run/exec-path-search.c).  Only sure
 * failures are passed over: a file some x bit allows goes on to the
 * checkpoint, and if its exec fails anyway the exit profile continues the
 * series, as before.  One system call, nothing allocated. */
static bool exec_cannot_start(int dirfd, const char *path, int flags) {
  if (!path)
    return false;
  struct stat st;
  if (syscall(SYS_newfstatat, (long)dirfd, path, &st,
              (long)(flags & (AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH))) != 0)
    return errno != EINTR && errno != ENOMEM;
  return !S_ISREG(st.st_mode) || !(st.st_mode & 0111);
}

/* Whether glibc's PATH search for file (execvp, execvpe, execlp: a name
 * without a '/') can only fail.  glibc tries each directory of PATH with
 * its own internal execve, which no interposer sees: before, a search that
 * found the program nowhere still wrote the image's profile as a
 * checkpoint, and the exit profile that followed made two files where one
 * was due (test/heapprof/Run/exec-path-search.c).  The names are built as
 * glibc's __execvpe_common builds them (glibc 2.36: PATH, or "/bin:/usr/bin"
 * when it is unset; an empty entry is the current directory; a name over
 * NAME_MAX fails with ENAMETOOLONG) and each is asked exec_cannot_start:
 * doomed only when every one cannot start.  glibc tries a subset of these,
 * in this order, and stops at the first that starts or fails otherwise, so
 * a search all of whose names cannot start fails.  An entry too long for
 * the buffer counts as one that may start.  Nothing is executed or
 * changed: one newfstatat per entry, errno restored by the caller. */
static bool search_cannot_start(const char *file) {
  if (!*file)
    return true; /* ENOENT */
  uptr file_len = hp_strlen(file);
  if (file_len > NAME_MAX)
    return true; /* ENAMETOOLONG */
  const char *path = NULL;
  if (!environ)
    return false;
  for (char **e = environ; *e; e++)
    if (!hp_strncmp(*e, "PATH=", 5)) {
      path = *e + 5;
      break;
    }
  if (!path)
    path = "/bin:/usr/bin"; /* glibc's _CS_PATH */
  char buf[PATH_MAX + NAME_MAX + 2];
  for (const char *p = path;;) {
    const char *end = hp_strchr(p, ':');
    if (!end)
      end = p + hp_strlen(p);
    uptr n = (uptr)(end - p);
    if (n >= PATH_MAX)
      return false;
    hp_memcpy(buf, p, n);
    if (n)
      buf[n++] = '/';
    hp_memcpy(buf + n, file, file_len + 1);
    if (!exec_cannot_start(AT_FDCWD, buf, 0))
      return false;
    if (!*end)
      return true;
    p = end + 1;
  }
}

/* What happens before the exec; returns the environment to pass, or NULL
 * when the caller is to build it on its stack (s->stack_bytes).  An exec
 * that cannot start (exec_cannot_start; with search, a PATH search for
 * path that cannot: search_cannot_start) is left to fail at once: no
 * checkpoint, no environment, no warning. */
static char *const *before_exec(int dirfd, const char *path, int flags,
                                bool search, char *const *envp,
                                exec_state_t *s) {
  s->map = NULL;
  s->map_size = 0;
  s->stack_bytes = 0;
  s->in_limited = false;
  /* Not inside heapprof (a handler that interrupted an allocator call or a
   * dump holds its locks); the image's own process, or under --follow-exec
   * a fork or vfork child. */
  if (!hp_rtl.inited || hp_locks_held > 0)
    return envp;
  /* Nor in the program's seccomp sandbox (heapprof_sandbox.c): no profile
   * is written there, its filter may kill for the calls below (newfstatat,
   * prlimit64), and the new image inherits the filter, so heapprof's
   * runtime could not start or write in it either: it is not followed. */
  if (hp_in_sandbox())
    return envp;
  bool own = hp_signals_own_image();
  bool forked = hp_signals_fork_child();
  if (!own && !following())
    return envp;
  int e = errno;
  bool doomed = search ? search_cannot_start(path)
                      : exec_cannot_start(dirfd, path, flags);
  errno = e;
  if (doomed)
    return envp;
  if (own && hp_flags.dump_at_exit) {
    /* The image ends here: its leak check's roots on this thread's stack
     * begin at this frame. */
    HP_LEAKS_ROOTS_FROM_HERE();
    hp_rtl_checkpoint("exec");
    hp_leaks_stack_from = 0;
  }
  /* The new image is not followed (hp_preload_exec_env): say why. */
  bool limited = hp_preload_active() && hp_limits_refuse_start();
  if (limited) /* fexecve's and execveat's AT_EMPTY_PATH: no name, '?' */
    hp_report_exec_unprofiled(path && *path ? path : NULL);
  uptr bytes = 0;
  char *const *env = hp_preload_exec_env(envp, NULL, &bytes);
  if (env)
    return env;
  if (limited && (own || forked))
    return env_in_limited(envp, bytes, &s->in_limited);
  if (!own && !forked) { /* a vfork child: see above */
    if (bytes > STACK_ENV_MAX)
      return envp;
    s->stack_bytes = bytes;
    return NULL;
  }
  return env_in_map(envp, bytes, &s->map, &s->map_size);
}

/* The exec failed and the process goes on: -1, with the exec's errno. */
static int exec_failed(exec_state_t *s) {
  int e = errno;
  hp_rlimit_exec_failed();
  if (s->map)
    hp_munmap(s->map, s->map_size);
  limited_release(s->in_limited);
  errno = e;
  return -1;
}

/* In the frame of the call that execs: a vfork child's environment, on
 * its stack. */
#define STACK_ENV(env, envp, s)                                              \
  do {                                                                       \
    if (!(env)) {                                                            \
      uptr b_ = (s).stack_bytes;                                             \
      (env) = hp_preload_exec_env((envp), __builtin_alloca(b_), &b_);        \
      if (!(env))                                                            \
        (env) = (envp);                                                      \
    }                                                                        \
  } while (0)

static int do_execve(const char *path, char *const argv[],
                     char *const envp[]) {
  exec_state_t s;
  char *const *env = before_exec(AT_FDCWD, path, 0, false, envp, &s);
  STACK_ENV(env, envp, s);
  execve_fn next = (execve_fn)next_now((void *)next_execve, "execve");
  hp_rlimit_before_exec();
  if (next)
    next(path, argv, env);
  else
    syscall(SYS_execve, path, argv, env);
  return exec_failed(&s);
}

static int do_execvpe(const char *file, char *const argv[],
                      char *const envp[]) {
  execvpe_fn real = real_execvpe;
  if (HP_UNLIKELY(!real)) { /* an exec before init: resolve it now */
    real = (execvpe_fn)dlsym(RTLD_NEXT, "execvpe");
    if (!real) {
      errno = ENOSYS;
      return -1;
    }
  }
  exec_state_t s;
  /* A name without a '/' (or an empty one) is glibc's PATH search. */
  bool search = !*file || !hp_strchr(file, '/');
  char *const *env = before_exec(AT_FDCWD, file, 0, search, envp, &s);
  STACK_ENV(env, envp, s);
  hp_rlimit_before_exec();
  real(file, argv, env);
  return exec_failed(&s);
}

HP_INTERFACE int execve(const char *path, char *const argv[],
                        char *const envp[]) {
  return do_execve(path, argv, envp);
}

/* execveat, and fexecve, which is execveat of the descriptor itself (runc
 * re-executes itself from a memfd so): without them a program that
 * replaced itself so lost its profile, and the new image ran unprofiled.
 * fexecve falls back to /proc/self/fd/N on a kernel without execveat, as
 * glibc's does. */
HP_INTERFACE int execveat(int dirfd, const char *path, char *const argv[],
                          char *const envp[], int flags) {
  exec_state_t s;
  char *const *env = before_exec(dirfd, path, flags, false, envp, &s);
  STACK_ENV(env, envp, s);
  execveat_fn next =
      (execveat_fn)next_now((void *)next_execveat, "execveat");
  hp_rlimit_before_exec();
  if (next)
    next(dirfd, path, argv, env, flags);
  else
    syscall(SYS_execveat, (long)dirfd, path, argv, env, (long)flags);
  return exec_failed(&s);
}

HP_INTERFACE int fexecve(int fd, char *const argv[], char *const envp[]) {
  /* glibc's checks, before any profile.  Its declaration says the arrays
   * are not null, which lets the compiler drop a plain test: the values
   * go through an empty asm first. */
  uptr av = (uptr)argv, ev = (uptr)envp;
  __asm__("" : "+r"(av), "+r"(ev));
  if (fd < 0 || !av || !ev) {
    errno = EINVAL;
    return -1;
  }
  exec_state_t s;
  char *const *env = before_exec(fd, "", AT_EMPTY_PATH, false, envp, &s);
  STACK_ENV(env, envp, s);
  fexecve_fn next = (fexecve_fn)next_now((void *)next_fexecve, "fexecve");
  hp_rlimit_before_exec();
  if (next) {
    next(fd, argv, env);
    return exec_failed(&s);
  }
  syscall(SYS_execveat, (long)fd, "", argv, env, (long)AT_EMPTY_PATH);
  if (errno == ENOSYS) {
    char path[32];
    hp_snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
    syscall(SYS_execve, path, argv, env);
  }
  return exec_failed(&s);
}

HP_INTERFACE int execv(const char *path, char *const argv[]) {
  return do_execve(path, argv, environ);
}

HP_INTERFACE int execvpe(const char *file, char *const argv[],
                         char *const envp[]) {
  return do_execvpe(file, argv, envp);
}

HP_INTERFACE int execvp(const char *file, char *const argv[]) {
  return do_execvpe(file, argv, environ);
}

/* execl, execle, execlp: the arguments up to the NULL, as an array on the
 * stack (glibc's own do the same). */
static u32 count_args(const char *arg, va_list ap) {
  u32 n = 1;
  while (arg && va_arg(ap, const char *))
    n++;
  return arg ? n + 1 : 1; /* and the NULL */
}

#define COLLECT_ARGS(argv, n, arg, last)                                     \
  va_list ap;                                                                \
  va_start(ap, arg);                                                         \
  u32 n = count_args(arg, ap);                                               \
  va_end(ap);                                                                \
  char *argv[n];                                                             \
  argv[0] = (char *)arg;                                                     \
  va_start(ap, arg);                                                         \
  for (u32 k = 1; k < n; k++)                                                \
    argv[k] = va_arg(ap, char *);                                            \
  last;                                                                      \
  va_end(ap)

HP_INTERFACE int execl(const char *path, const char *arg, ...) {
  COLLECT_ARGS(argv, n, arg, (void)0);
  return do_execve(path, argv, environ);
}

HP_INTERFACE int execlp(const char *file, const char *arg, ...) {
  COLLECT_ARGS(argv, n, arg, (void)0);
  return do_execvpe(file, argv, environ);
}

HP_INTERFACE int execle(const char *path, const char *arg, ...) {
  char *const *envp;
  COLLECT_ARGS(argv, n, arg, envp = va_arg(ap, char *const *));
  return do_execve(path, argv, envp);
}

/* posix_spawn and posix_spawnp: glibc's child execs inside libc, past the
 * functions above, so under --follow-exec an environment of the program's
 * own (Rust's Command with env_clear, Python's os.posix_spawn) gets heapprof
 * run's variables here, in the parent.  glibc's parent waits until the
 * child has exec'd or failed, so the array is unmapped when the call
 * returns.  No profile is written: the caller goes on. */
static int do_spawn(spawn_fn real, const char *name, bool search, pid_t *pid,
                    const char *path, const posix_spawn_file_actions_t *fa,
                    const posix_spawnattr_t *attr, char *const argv[],
                    char *const envp[]) {
  if (HP_UNLIKELY(!real)) { /* a spawn before init: resolve it now */
    real = (spawn_fn)dlsym(RTLD_NEXT, name);
    if (!real)
      return ENOSYS;
  }
  uptr bytes = 0, map_size = 0;
  void *map = NULL;
  char *const *env = envp;
  bool limited = false, claimed = false;
  if (hp_rtl.inited && hp_locks_held == 0 && following()) {
    limited = hp_limits_refuse_start();
    if (limited)
      hp_report_exec_unprofiled(path);
    env = hp_preload_exec_env(envp, NULL, &bytes);
  }
  if (!env && limited)
    env = env_in_limited(envp, bytes, &claimed);
  else if (!env)
    env = env_in_map(envp, bytes, &map, &map_size);
  /* Under a memory limit the program set itself, a child of heapprof's
   * making, which gets the program's soft limits (heapprof_spawn.c). */
  int rc = hp_rtl.inited && hp_locks_held == 0 && hp_spawn_limited_wanted()
               ? hp_spawn_limited(pid, path, search, fa, attr, argv, env)
               : real(pid, path, fa, attr, argv, env);
  if (map)
    hp_munmap(map, map_size);
  limited_release(claimed);
  return rc;
}

HP_INTERFACE int posix_spawn(pid_t *pid, const char *path,
                             const posix_spawn_file_actions_t *fa,
                             const posix_spawnattr_t *attr,
                             char *const argv[], char *const envp[]) {
  return do_spawn(real_spawn, "posix_spawn", false, pid, path, fa, attr,
                  argv, envp);
}

HP_INTERFACE int posix_spawnp(pid_t *pid, const char *file,
                              const posix_spawn_file_actions_t *fa,
                              const posix_spawnattr_t *attr,
                              char *const argv[], char *const envp[]) {
  return do_spawn(real_spawnp, "posix_spawnp", true, pid, file, fa, attr,
                  argv, envp);
}
