/*===- heapprof_signals.c - dumps on signals; fork ----------------------===
 *
 * Part of heapprof.
 *
 * dump_signal=SIG: the handler only posts a semaphore (sem_post is
 * async-signal-safe); a dedicated thread waiting on it writes the
 * checkpoint, so nothing that allocates or locks runs in signal context.
 * No file descriptor: a program that closes every descriptor it did not
 * open (a daemon, a child before exec) and reuses their numbers would
 * otherwise get heapprof's byte written into its own file.  The handler
 * is installed with SA_RESTART, so the program's read(), write(), wait()
 * ... resume; calls POSIX never restarts (sleep, nanosleep, poll, select)
 * return early, as for any signal the program would catch itself.  Only
 * signals that carry no other meaning are accepted: not a crash, not a
 * stop request, not one the kernel or the C library sends for its own
 * purpose.
 *
 * Deadly signals (handle_segv, handle_abort, handle_int, handle_term): the
 * handler writes the final profile, then restores the previous action and
 * raises the signal again, so the program dies the way it would have.  A
 * dying program must die, so the handler never waits without bound:
 *  - the signal landed on a thread that is itself inside a profile dump
 *    (it holds the dump lock): no profile, die at once;
 *  - while the final profile is written the signal is unblocked on the
 *    writing thread and a timer sends it again after
 *    deadly_signal_timeout_s (waiting for another thread's checkpoint
 *    included): a crash inside the dump, the timer or a second deadly
 *    signal on any thread find the dump under way and kill the process at
 *    once with the signal's default action.
 *
 * The temporary profile file (heapprof_rtl.c writes a profile there, then
 * gives it its name): while it exists, every signal whose action is still
 * the default and would end the process has a guard handler that removes
 * the file first, then dies of the signal as the default would have.  A
 * SIGXFSZ the kernel sends to the writing thread (RLIMIT_FSIZE) is
 * heapprof's own doing: it is blocked on that thread for the whole dump
 * (hp_signals_own_writes_begin, with SIGPIPE; the guard returns for it
 * too), the write fails with EFBIG and the profile takes the failure path.  No guard can stop
 * SIGKILL.
 *
 * fork: pthread_atfork handlers hold every runtime lock across the fork, so
 * the child never inherits a lock held by a thread that no longer exists.
 * The child starts with an empty table: the parent's merged records are the
 * parent's to write.  Objects the child inherited and still holds are part
 * of its heap and are reported in its profile, as continuations: the parent
 * counted their allocation (hp_fork_gen, heapprof_chunk.h).
 *===----------------------------------------------------------------------===*/
#include "heapprof_internal.h"
#include "heapprof_leaks.h"
#include "heapprof_unloaded.h"

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <sys/mman.h>
#include <semaphore.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

extern int __sigaction(int sig, const struct sigaction *act,
                       struct sigaction *old);
extern __sighandler_t bsd_signal(int sig, __sighandler_t handler);

/* The kernel's actions as they are, heapprof's handlers included: the
 * runtime's own reads and changes go here, not through the interposed
 * sigaction below, which shows the program its own. */
int hp_real_sigaction(int sig, const struct sigaction *act,
                      struct sigaction *old) {
  return __sigaction(sig, act, old);
}

/* Set at init (and in a fork child): the dump signal and its semaphore. */
static sem_t dump_sem;
static bool dump_sem_ready;
static int dump_signo;

static const struct {
  int sig;
  const char *name;
} signal_names[] = {
    {SIGHUP, "SIGHUP"},     {SIGINT, "SIGINT"},       {SIGQUIT, "SIGQUIT"},
    {SIGILL, "SIGILL"},     {SIGTRAP, "SIGTRAP"},     {SIGABRT, "SIGABRT"},
    {SIGBUS, "SIGBUS"},     {SIGFPE, "SIGFPE"},       {SIGKILL, "SIGKILL"},
    {SIGUSR1, "SIGUSR1"},   {SIGSEGV, "SIGSEGV"},     {SIGUSR2, "SIGUSR2"},
    {SIGPIPE, "SIGPIPE"},   {SIGALRM, "SIGALRM"},     {SIGTERM, "SIGTERM"},
    {SIGSTKFLT, "SIGSTKFLT"}, {SIGCHLD, "SIGCHLD"},   {SIGCONT, "SIGCONT"},
    {SIGSTOP, "SIGSTOP"},   {SIGTSTP, "SIGTSTP"},     {SIGTTIN, "SIGTTIN"},
    {SIGTTOU, "SIGTTOU"},   {SIGURG, "SIGURG"},       {SIGXCPU, "SIGXCPU"},
    {SIGXFSZ, "SIGXFSZ"},   {SIGVTALRM, "SIGVTALRM"}, {SIGPROF, "SIGPROF"},
    {SIGWINCH, "SIGWINCH"}, {SIGIO, "SIGIO"},         {SIGPWR, "SIGPWR"},
    {SIGSYS, "SIGSYS"},
};

const char *hp_signal_name(int sig) {
  for (u32 i = 0; i < HP_ARRAY_SIZE(signal_names); i++)
    if (signal_names[i].sig == sig)
      return signal_names[i].name;
  return sig >= SIGRTMIN && sig <= SIGRTMAX ? "a real-time signal" : "signal";
}

#define DUMP_SIGNALS_ACCEPTED                                                \
  "SIGUSR1, SIGUSR2, SIGHUP, SIGPROF or SIGRTMIN+n, by name or number"

/* "SIGUSR2", "USR2", "SIGRTMIN+3", "SIGRTMAX-1" or a number; 0 when empty;
 * -1 when not a signal. */
static int parse_signal(const char *s) {
  if (!s[0])
    return 0;
  const char *n = hp_strncmp(s, "SIG", 3) ? s : s + 3;
  for (u32 i = 0; i < HP_ARRAY_SIZE(signal_names); i++)
    if (!hp_strcmp(n, signal_names[i].name + 3))
      return signal_names[i].sig;
  s64 v = 0;
  if (!hp_strncmp(n, "RTMIN", 5) || !hp_strncmp(n, "RTMAX", 5)) {
    bool min = n[4] == 'N';
    const char *off = n + 5;
    if (*off && !((min && *off == '+') || (!min && *off == '-')))
      return -1;
    if (*off && !hp_parse_s64(off + 1, hp_strlen(off + 1), &v))
      return -1;
    v = min ? SIGRTMIN + v : SIGRTMAX - v;
    return v >= SIGRTMIN && v <= SIGRTMAX ? (int)v : -1;
  }
  if (hp_parse_s64(s, hp_strlen(s), &v) && v > 0 && v <= SIGRTMAX)
    return (int)v;
  return -1;
}

/* Why `sig` cannot be the dump signal (after its name), or NULL when it
 * can. */
static const char *dump_signal_refusal(int sig) {
  switch (sig) {
  case SIGUSR1:
  case SIGUSR2:
  case SIGHUP:
  case SIGPROF:
    return NULL;
  case SIGKILL:
  case SIGSTOP:
    return "cannot be caught";
  case SIGSEGV:
  case SIGBUS:
  case SIGFPE:
  case SIGILL:
  case SIGABRT:
  case SIGTRAP:
  case SIGSYS:
    return "reports a crash and the program must die of it (handle_segv "
           "and handle_abort write the profile then)";
  case SIGINT:
  case SIGTERM:
  case SIGQUIT:
    return "asks the program to stop (handle_int and handle_term write "
           "the profile then)";
  }
  if (sig >= SIGRTMIN && sig <= SIGRTMAX)
    return NULL;
  if (sig > SIGSYS)
    return "is reserved by the C library's threads";
  return "has a meaning of its own (the kernel or the C library sends it)";
}

static void check_dump_signal(void) {
  const char *v = hp_flags.dump_signal;
  dump_signo = parse_signal(v);
  char err[512];
  if (dump_signo < 0) {
    hp_snprintf(err, sizeof(err),
                "invalid value '%s' for option 'dump_signal': not a signal; "
                "expected " DUMP_SIGNALS_ACCEPTED,
                v);
    hp_report_bad_option(err);
  }
  const char *why = dump_signo ? dump_signal_refusal(dump_signo) : NULL;
  if (why) {
    char name[16];
    if (dump_signo > SIGSYS)
      hp_snprintf(name, sizeof(name), "signal %d", dump_signo);
    else
      hp_snprintf(name, sizeof(name), "%s", hp_signal_name(dump_signo));
    hp_snprintf(err, sizeof(err),
                "invalid value '%s' for option 'dump_signal': %s %s; "
                "expected " DUMP_SIGNALS_ACCEPTED,
                v, name, why);
    hp_report_bad_option(err);
  }
}

static void dump_signal_handler(int sig) {
  (void)sig;
  int saved = errno;
  sem_post(&dump_sem); /* EOVERFLOW: dumps are pending anyway */
  errno = saved;
}

/* The dump thread, joinable: unshare and setns stop it (below). */
static pthread_t dump_pthread;
static bool dump_thread_running;
static bool dump_thread_stop;
static pid_t dump_tid;

static void dump_thread(void) {
  /* Every signal blocked from its start (hp_thread_start_internal). */
  __atomic_store_n(&dump_tid, (pid_t)syscall(SYS_gettid), __ATOMIC_RELEASE);
  for (;;) {
    if (sem_wait(&dump_sem) != 0) {
      if (errno == EINTR)
        continue;
      return;
    }
    if (__atomic_load_n(&dump_thread_stop, __ATOMIC_ACQUIRE))
      return;
    if (__heapprof_dump() == 0 && hp_flags.verbosity)
      hp_printf("HeapProf: wrote a checkpoint on %s\n",
                hp_signal_name(dump_signo));
  }
}

/* Starts the dump thread (again, after stop_dump_thread); false if it
 * could not be. */
static bool launch_dump_thread(void) {
  dump_thread_stop = false;
  dump_thread_running = hp_thread_start_internal(dump_thread, &dump_pthread);
  return dump_thread_running;
}

static void start_dump_thread(void) {
  if (sem_init(&dump_sem, 0, 0) != 0) {
    hp_printf("HeapProf: WARNING: dump_signal: cannot create a semaphore; "
              "signal dumps are off\n");
    return;
  }
  dump_sem_ready = true;
  if (!launch_dump_thread()) {
    hp_printf("HeapProf: WARNING: dump_signal: cannot start the dump thread; "
              "signal dumps are off\n");
    return;
  }
  struct sigaction sa;
  hp_memset(&sa, 0, sizeof(sa));
  sa.sa_handler = dump_signal_handler;
  sa.sa_flags = SA_RESTART;
  sigemptyset(&sa.sa_mask);
  hp_real_sigaction(dump_signo, &sa, NULL);
}

/* unshare(CLONE_NEWUSER) (or of CLONE_THREAD, CLONE_SIGHAND, CLONE_VM) and
 * setns into a user namespace refuse a process of more than one thread
 * (EINVAL), and the dump thread is one: when such a call fails with
 * EINVAL while it runs, it is stopped (a dump it is writing ends first),
 * the call made again, and the thread started again whatever the result.
 * A program with threads of its own gets its EINVAL as without heapprof.
 * The thread's stop is one of the semaphore's counts: if it took a dump
 * signal's instead, the stop's count gives that dump to the next thread. */
static hp_spinlock_t ns_lock;

static void stop_dump_thread(void) {
  __atomic_store_n(&dump_thread_stop, true, __ATOMIC_RELEASE);
  sem_post(&dump_sem);
  pthread_join(dump_pthread, NULL);
  dump_thread_running = false;
  /* The kernel counts the thread until it is reaped, a little after the
   * join: until then its tid still names a task of this process. */
  pid_t pid = (pid_t)syscall(SYS_getpid), tid = dump_tid;
  for (int i = 0; i < 100000 && syscall(SYS_tgkill, pid, tid, 0) == 0; i++)
    sched_yield();
}

static void restart_dump_thread(void) {
  if (!launch_dump_thread())
    hp_printf("HeapProf: WARNING: dump_signal: cannot start the dump thread "
              "again after unshare/setns; signal dumps are off\n");
}

typedef int (*ns_call_fn)(int, int);

/* The call again with the dump thread stopped, when it failed for it. */
static int ns_call(ns_call_fn call, int a, int b, bool single_thread_only) {
  int r = call(a, b);
  if (r == 0 || errno != EINVAL || !single_thread_only ||
      !__atomic_load_n(&dump_thread_running, __ATOMIC_ACQUIRE))
    return r;
  hp_spin_lock(&ns_lock);
  if (dump_thread_running) {
    stop_dump_thread();
    r = call(a, b);
    int e = errno;
    restart_dump_thread();
    errno = e;
  } else {
    r = call(a, b);
  }
  hp_spin_unlock(&ns_lock);
  return r;
}

static int call_unshare(int flags, int unused) {
  (void)unused;
  static int (*real)(int);
  if (!real)
    real = (int (*)(int))hp_glibc_sym("unshare");
  return real(flags);
}

static int call_setns(int fd, int nstype) {
  static int (*real)(int, int);
  if (!real)
    real = (int (*)(int, int))hp_glibc_sym("setns");
  return real(fd, nstype);
}

HP_INTERFACE int unshare(int flags) {
  return ns_call(call_unshare, flags, 0,
                 flags & (CLONE_NEWUSER | CLONE_THREAD | CLONE_SIGHAND |
                          CLONE_VM));
}

/* nstype 0 lets the descriptor say which namespace it is: maybe a user's. */
HP_INTERFACE int setns(int fd, int nstype) {
  return ns_call(call_setns, fd, nstype,
                 nstype == 0 || (nstype & CLONE_NEWUSER));
}

/* The program's own action for the dump signal replaces heapprof's, as
 * for the deadly signals: its handler is in charge, and the signal writes
 * no checkpoint from then on.  Said once, when it happens (Redis takes
 * SIGUSR2 for its thread manager: `kill -USR2` would otherwise be silently
 * ignored by heapprof); an action that is heapprof's handler again (a
 * program restoring what it saved) makes the signal heapprof's again.
 * sigaction and signal are interposed for this only; everything else
 * passes through to glibc. */
static bool dump_signal_taken;

static void note_action(int sig, const struct sigaction *act) {
  if (!act || sig != dump_signo || !dump_sem_ready)
    return;
  if (!(act->sa_flags & SA_SIGINFO) && act->sa_handler == dump_signal_handler) {
    __atomic_store_n(&dump_signal_taken, false, __ATOMIC_RELAXED);
    return;
  }
  if (__atomic_exchange_n(&dump_signal_taken, true, __ATOMIC_RELAXED))
    return;
  const char *name = hp_signal_name(sig);
  char num[24] = "";
  if (sig > SIGSYS)
    hp_snprintf(num, sizeof(num), " %d", sig);
  hp_printf("HeapProf: WARNING: dump_signal: the program set its own action "
            "for %s%s, which replaces heapprof's: from now on that signal "
            "does what the program says and writes no checkpoint (choose a "
            "signal the program leaves alone, e.g. dump_signal=SIGRTMIN+3)\n",
            name, num);
}

static void program_view(int sig, struct sigaction *a);

/* A handler of the program's about to be installed before init: the
 * next definitions of the calls a handler may make that the runtime
 * interposes (_exit, _Exit, the exec family) are looked up now, while no
 * handler of the program's runs, rather than by dlsym in the handler. */
static void before_handler(void (*h)(int)) {
  if (HP_UNLIKELY(!hp_rtl.inited) && h != SIG_DFL && h != SIG_IGN &&
      h != SIG_ERR) {
    int saved = errno;
    hp_signals_resolve_early();
    hp_exec_resolve_early();
    errno = saved;
  }
}

/* The next sigaction and signal (hp_exec_next: libc's, or a library
 * preloaded after heapprof's runtime that wraps them).  The JVM's signal
 * chaining is such a library: `LD_PRELOAD=libjsig.so java` has libjsig
 * record the handler a native library installs over the JVM's (SIGSEGV,
 * which the JVM takes for its null checks and safepoints) and keep the
 * JVM's in place, calling the library's for the faults that are not the
 * JVM's.  Calling glibc's __sigaction passed libjsig over: the native
 * library's handler replaced the JVM's, and took the JVM's next fault
 * (test/heapprof/Run/preload-after-sigaction.c).  Resolved by
 * hp_signals_init, or before it at the program's first call of either:
 * until then no handler installed through them can be running, so the
 * lookup (dlsym is not async-signal-safe; sigaction is) runs in none.
 * Not covered, as for _exit: a handler installed past them (sigset, the
 * system call) that calls sigaction first, before init.  heapprof's own
 * actions (hp_real_sigaction) go to glibc's: not the program's to chain. */
typedef int (*sigaction_fn)(int, const struct sigaction *,
                            struct sigaction *);
typedef __sighandler_t (*signal_fn)(int, __sighandler_t);
static sigaction_fn next_sigaction;
static signal_fn next_signal;
static bool sig_nexts_resolved;

static void resolve_sig_nexts(void) {
  int saved = errno;
  sigaction_fn a = (sigaction_fn)hp_exec_next("sigaction");
  signal_fn s = (signal_fn)hp_exec_next("signal");
  __atomic_store_n(&next_sigaction, a ? a : __sigaction, __ATOMIC_RELAXED);
  __atomic_store_n(&next_signal, s ? s : bsd_signal, __ATOMIC_RELAXED);
  __atomic_store_n(&sig_nexts_resolved, true, __ATOMIC_RELEASE);
  errno = saved;
}

static void sig_nexts(void) {
  if (HP_UNLIKELY(!__atomic_load_n(&sig_nexts_resolved, __ATOMIC_ACQUIRE)))
    resolve_sig_nexts();
}

HP_INTERFACE int sigaction(int sig, const struct sigaction *act,
                           struct sigaction *old) {
  if (act)
    before_handler(act->sa_handler); /* sa_sigaction shares it */
  sig_nexts();
  note_action(sig, act);
  int r = __atomic_load_n(&next_sigaction, __ATOMIC_RELAXED)(sig, act, old);
  if (r == 0 && old)
    program_view(sig, old);
  return r;
}

HP_INTERFACE __sighandler_t signal(int sig, __sighandler_t handler) {
  before_handler(handler);
  sig_nexts();
  if (sig == dump_signo && handler != SIG_ERR) {
    struct sigaction sa;
    hp_memset(&sa, 0, sizeof(sa));
    sa.sa_handler = handler;
    note_action(sig, &sa);
  }
  __sighandler_t prev =
      __atomic_load_n(&next_signal, __ATOMIC_RELAXED)(sig, handler);
  if (prev != SIG_ERR) {
    struct sigaction a;
    hp_memset(&a, 0, sizeof(a));
    a.sa_handler = prev;
    program_view(sig, &a);
    prev = a.sa_handler;
  }
  return prev;
}

/* ------------------------------------------------------------ helpers */

static int current_tid(void) { return (int)syscall(SYS_gettid); }

/* Whether an action is the plain handler h (SIG_DFL, SIG_IGN), not a
 * function. */
static bool action_is(const struct sigaction *a, void (*h)(int)) {
  return !(a->sa_flags & SA_SIGINFO) && a->sa_handler == h;
}

/* Whether an action is the SA_SIGINFO handler fn. */
static bool action_runs(const struct sigaction *a,
                        void (*fn)(int, siginfo_t *, void *)) {
  return (a->sa_flags & SA_SIGINFO) && a->sa_sigaction == fn;
}

/* Gives sig its default action again.  Async-signal-safe. */
static void set_default(int sig) {
  struct sigaction sa;
  hp_memset(&sa, 0, sizeof(sa));
  sa.sa_handler = SIG_DFL;
  hp_real_sigaction(sig, &sa, NULL);
}

/* Installs fn for sig (SA_SIGINFO, SA_RESTART, nothing else blocked);
 * sigaction's result, the previous action in *old if old. */
static int set_handler(int sig, void (*fn)(int, siginfo_t *, void *),
                       struct sigaction *old) {
  struct sigaction sa;
  hp_memset(&sa, 0, sizeof(sa));
  sa.sa_sigaction = fn;
  /* SA_ONSTACK: on the thread's alternate stack, where it has one (below):
   * a stack overflow's SIGSEGV has no stack left to run on. */
  sa.sa_flags = SA_SIGINFO | SA_RESTART | SA_ONSTACK;
  sigemptyset(&sa.sa_mask);
  return hp_real_sigaction(sig, &sa, old);
}

/* ------------------------------------------------------- alternate stacks */

/* A stack overflow raises SIGSEGV with no room left on the thread's stack
 * for a handler's frame: without an alternate stack the kernel kills the
 * process at once, and the profile is lost.  So, as the sanitizers do,
 * each thread heapprof knows from its start (the one that initialises the
 * runtime, main, those its pthread_create wrapper starts) gets an
 * alternate stack, unless it has one of its own: address space (no memory
 * until a handler runs on it), unmapped when the thread ends.  Not with
 * handle_segv=0, where no handler would use it.  Mapped with the flags of
 * the thread's state (hp_mmap's), made just before, so that the kernel
 * joins the two into one mapping where they are neighbours: with
 * MAP_NORESERVE they never were, and 1000 threads had 3781 mappings
 * against the plain program's 2024 (now 2937), so that a program ran out
 * of vm.max_map_count at 17,287 threads (plain: 32,451; now 22,388). */
#define HP_ALTSTACK_SIZE (256u << 10)
static HP_TLS char *own_altstack;

void hp_signals_altstack_on(void) {
  /* In the program's sandbox, sigaltstack may be a call its filter kills
   * for (its deadly handlers are the program's again anyway). */
  if (!hp_flags.handle_segv || own_altstack || hp_in_sandbox())
    return;
  int saved = errno;
  stack_t cur;
  if (sigaltstack(NULL, &cur) == 0 && (cur.ss_flags & SS_DISABLE)) {
    char *p = mmap(NULL, HP_ALTSTACK_SIZE, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p != MAP_FAILED) {
      stack_t ss;
      hp_memset(&ss, 0, sizeof(ss));
      ss.ss_sp = p;
      ss.ss_size = HP_ALTSTACK_SIZE;
      if (sigaltstack(&ss, NULL) == 0)
        own_altstack = p;
      else
        munmap(p, HP_ALTSTACK_SIZE);
    }
  }
  errno = saved;
}

void hp_signals_altstack_off(void) {
  char *p = own_altstack;
  if (!p || hp_in_sandbox()) /* left mapped: the thread ends */
    return;
  int saved = errno;
  stack_t cur;
  if (sigaltstack(NULL, &cur) == 0 && cur.ss_sp == p) {
    if (cur.ss_flags & SS_ONSTACK) {
      errno = saved;
      return; /* ending inside a handler on it: leave it be */
    }
    stack_t off;
    hp_memset(&off, 0, sizeof(off));
    off.ss_flags = SS_DISABLE;
    sigaltstack(&off, NULL);
  }
  /* Disabled above, or the program put its own in its place. */
  munmap(p, HP_ALTSTACK_SIZE);
  own_altstack = NULL;
  errno = saved;
}

static void set_blocked(int sig, bool blocked) {
  sigset_t s;
  sigemptyset(&s);
  sigaddset(&s, sig);
  pthread_sigmask(blocked ? SIG_BLOCK : SIG_UNBLOCK, &s, NULL);
}

/* ------------------------------------------ the temporary profile file */

/* Signals whose default action ends the process (glibc's own, 32 and 33,
 * and the real-time ones are left alone). */
static const int guarded[] = {
    SIGHUP,  SIGINT,  SIGQUIT,   SIGILL,    SIGTRAP, SIGABRT, SIGBUS,
    SIGFPE,  SIGUSR1, SIGSEGV,   SIGUSR2,   SIGPIPE, SIGALRM, SIGTERM,
    SIGSTKFLT, SIGXCPU, SIGXFSZ, SIGVTALRM, SIGPROF, SIGIO,   SIGPWR,
    SIGSYS};
/* Written by the dumping thread (dumps are serialized by the dump lock),
 * read by the guard handler on any thread. */
static int guard_dirfd = -1, guard_tid;
static char guard_tmp[640];
static volatile sig_atomic_t guard_live;
static u64 guard_installed; /* bit sig: the guard is this signal's action */

static bool is_fault(int sig, const siginfo_t *si);

/* Removes the temporary file, if one is being written.  Async-signal-safe. */
static void guard_drop(void) {
  if (guard_live) {
    guard_live = 0;
    unlinkat(guard_dirfd, guard_tmp, 0);
  }
}

static void guard_handler(int sig, siginfo_t *si, void *uc) {
  (void)uc;
  int saved_errno = errno;
  if (sig == SIGXFSZ && guard_live && current_tid() == guard_tid) {
    errno = saved_errno; /* the write that raised it fails with EFBIG */
    return;
  }
  guard_drop();
  set_default(sig);
  errno = saved_errno;
  /* Blocked until the handler returns; a fault simply happens again. */
  if (!is_fault(sig, si))
    raise(sig);
}

void hp_signals_guard_begin(int dirfd) {
  guard_dirfd = dirfd;
  guard_tid = current_tid();
  guard_installed = 0;
  for (u32 i = 0; i < HP_ARRAY_SIZE(guarded); i++) {
    int sig = guarded[i];
    struct sigaction cur;
    if (hp_real_sigaction(sig, NULL, &cur) != 0 || !action_is(&cur, SIG_DFL))
      continue; /* the program's (or heapprof's deadly handler) */
    if (set_handler(sig, guard_handler, NULL) == 0)
      guard_installed |= 1ull << sig;
  }
}

void hp_signals_guard_file(const char *tmp) {
  hp_strlcpy(guard_tmp, tmp, sizeof(guard_tmp));
  guard_live = 1;
}

void hp_signals_guard_end(void) {
  guard_live = 0;
  for (u32 i = 0; i < HP_ARRAY_SIZE(guarded); i++) {
    int sig = guarded[i];
    struct sigaction cur;
    if (!(guard_installed >> sig & 1) ||
        hp_real_sigaction(sig, NULL, &cur) != 0 ||
        !(cur.sa_flags & SA_SIGINFO) || cur.sa_sigaction != guard_handler)
      continue; /* the program set its own meanwhile */
    set_default(sig);
  }
  guard_installed = 0;
}

/* A dump writes more than its temporary file: the profile to stderr when
 * no file could take it, warnings, print_stats, the profile itself with
 * log_path=stdout or stderr.  stderr is often a regular file, and past the
 * file size limit (RLIMIT_FSIZE, ulimit -f) such a write raised a SIGXFSZ
 * that killed a program which would have exited normally without
 * heapprof: by the default action (the profile's file hit the limit, then
 * its stderr fallback did), or by the program's own handler, which the
 * guard leaves alone (Debian's sort catches SIGXFSZ to remove its
 * temporary files, then dies of it).  A write to a pipe whose reader has
 * gone (log_path=stdout piped into head, a warning into `2>&1 | head`)
 * raised a SIGPIPE the same way: a program that wrote nothing more of its
 * own there died of heapprof's write, exit status 141 instead of its own.
 * So both are blocked on the dumping thread for the whole dump: each such
 * write fails (EFBIG, EPIPE) and leaves the signal pending, and the end
 * takes back the pending one the kernel sent for those writes (si_code
 * SI_USER from this very process, as send_sig's SEND_SIG_NOINFO gives).
 * One that was pending before the dump is the program's and stays; one
 * sent meanwhile by someone else is sent again.  Under the dump lock. */
static const int own_write_sigs[] = {SIGXFSZ, SIGPIPE};
static bool pending_before[HP_ARRAY_SIZE(own_write_sigs)];

void hp_signals_own_writes_begin(void) {
  sigset_t x, pending;
  sigemptyset(&x);
  bool known = sigpending(&pending) == 0;
  for (u32 i = 0; i < HP_ARRAY_SIZE(own_write_sigs); i++) {
    int sig = own_write_sigs[i];
    sigaddset(&x, sig);
    pending_before[i] = !known || sigismember(&pending, sig) == 1;
  }
  pthread_sigmask(SIG_BLOCK, &x, NULL);
}

/* Before the thread's mask is restored (hp_signals_unhold). */
void hp_signals_own_writes_end(void) {
  int saved = errno;
  for (u32 i = 0; i < HP_ARRAY_SIZE(own_write_sigs); i++) {
    int sig = own_write_sigs[i];
    if (pending_before[i])
      continue;
    sigset_t x;
    sigemptyset(&x);
    sigaddset(&x, sig);
    siginfo_t si;
    struct timespec zero = {0, 0};
    if (sigtimedwait(&x, &si, &zero) == sig &&
        !(si.si_code == SI_USER && si.si_pid == getpid()))
      kill(getpid(), sig);
  }
  errno = saved;
}

/* ------------------------------------------------------- deadly signals */

/* Actions before heapprof's deadly handler; written at init only. */
static struct sigaction old_actions[65];
/* The thread handling a deadly signal (writing or waiting for the final
 * profile); 0: none.  Claimed by compare-and-swap in the handler. */
static int dying_tid;

/* The signal's default action, now (no temporary file left behind). */
static HP_NORETURN void die_now(int sig) {
  guard_drop();
  set_default(sig);
  set_blocked(sig, false);
  raise(sig);
  hp_exit_group(128 + sig); /* a signal whose default is to be ignored */
}

/* A POSIX timer that sends `sig` to thread `tid` in `seconds`; -1 if none
 * could be made (then the dump runs without a bound). */
static int arm_watchdog(int sig, int tid, s64 seconds) {
  struct sigevent sev;
  hp_memset(&sev, 0, sizeof(sev));
  sev.sigev_notify = SIGEV_THREAD_ID;
  sev.sigev_signo = sig;
  sev._sigev_un._tid = tid;
  int id;
  if (syscall(SYS_timer_create, CLOCK_MONOTONIC, &sev, &id) != 0)
    return -1;
  struct itimerspec its;
  hp_memset(&its, 0, sizeof(its));
  its.it_value.tv_sec = seconds;
  if (syscall(SYS_timer_settime, id, 0, &its, NULL) != 0) {
    syscall(SYS_timer_delete, id);
    return -1;
  }
  return id;
}

/* The timer bounding this thread's deferred signal; -1: none. */
static HP_TLS int deferred_timer = -1;

/* A fault the thread cannot run past: returning would repeat it. */
static bool is_fault(int sig, const siginfo_t *si) {
  return (sig == SIGSEGV || sig == SIGBUS || sig == SIGFPE || sig == SIGILL) &&
         si && si->si_code > 0;
}

static void deadly_handler(int sig, siginfo_t *si, void *uc) {
  (void)uc;
  int saved_errno = errno;
  const char *name = hp_signal_name(sig);
  int tid = current_tid();
  bool timer = si && si->si_code == SI_TIMER;
  if (__atomic_load_n(&dying_tid, __ATOMIC_ACQUIRE) == tid ||
      hp_deferred_signal) {
    /* This thread is already writing the profile for a deadly signal, or
     * waiting to: a crash in the dump, a second signal or the timer. */
    if (timer)
      hp_printf("HeapProf: the profile was not written within %lld s; the "
                "program dies without it\n",
                (long long)hp_flags.deadly_signal_timeout_s);
    else
      hp_printf("HeapProf: caught %s before the profile was written; the "
                "program dies without it\n",
                name);
    die_now(sig);
  }
  if (hp_locks_held > 0) {
    if (is_fault(sig, si)) {
      hp_printf("HeapProf: caught %s inside heapprof; the program dies "
                "without its profile\n",
                name);
      die_now(sig);
    }
    /* Interrupted inside heapprof (an allocator call, a checkpoint): the
     * signal comes back when the last lock is released, or the timer
     * ends the wait. */
    hp_deferred_signal = sig;
    deferred_timer = arm_watchdog(sig, tid, hp_flags.deadly_signal_timeout_s);
    errno = saved_errno;
    return;
  }
  int none = 0;
  if (!__atomic_compare_exchange_n(&dying_tid, &none, tid, false,
                                   __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
    hp_printf("HeapProf: caught %s before the profile was written; the "
              "program dies without it\n",
              name);
    die_now(sig);
  }
  /* A vfork child writes no profile (hp_rtl_dump_final): its parent's;
   * nor a copy made without fork's handlers. */
  if (hp_rtl.inited && hp_flags.profiling && !hp_signals_vfork_child() &&
      !hp_signals_unhandled_fork_child(NULL)) {
    /* Done already, or under way on another thread (exit, quick_exit, an
     * error report): then let that one finish, under the same bound. */
    bool write = !__atomic_load_n(&hp_rtl.final_done, __ATOMIC_ACQUIRE);
    if (write)
      hp_printf("HeapProf: caught %s; writing the profile before the "
                "program dies\n",
                name);
    int id = arm_watchdog(sig, tid, hp_flags.deadly_signal_timeout_s);
    set_blocked(sig, false);
    if (write) {
      hp_rtl_dump_final(name);
    } else {
      hp_rtl_lock();
      hp_rtl_unlock();
    }
    set_blocked(sig, true);
    if (id >= 0)
      syscall(SYS_timer_delete, id);
  }
  hp_real_sigaction(sig, &old_actions[sig], NULL);
  __atomic_store_n(&dying_tid, 0, __ATOMIC_RELEASE);
  errno = saved_errno;
  /* Blocked until we return: then the previous action takes it. */
  raise(sig);
}

void hp_signals_run_deferred(void) {
  int sig = hp_deferred_signal;
  int saved_errno = errno;
  /* Block it first: the timer must not find the deferral half undone. */
  sigset_t s, old;
  sigemptyset(&s);
  sigaddset(&s, sig);
  pthread_sigmask(SIG_BLOCK, &s, &old);
  if (deferred_timer >= 0)
    syscall(SYS_timer_delete, deferred_timer);
  deferred_timer = -1;
  hp_deferred_signal = 0;
  /* Pending while blocked; delivered, to the handler, at the unblock. */
  raise(sig);
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  errno = saved_errno;
}

/* Installs the deadly handler on `sig` unless the signal is ignored (or,
 * with only_default, has any action but the default): a disposition
 * inherited or set before heapprof started stays the program's. */
static void install_deadly(int sig, bool only_default) {
  struct sigaction cur;
  hp_real_sigaction(sig, NULL, &cur);
  if (action_is(&cur, SIG_IGN) || (only_default && !action_is(&cur, SIG_DFL)))
    return;
  set_handler(sig, deadly_handler, &old_actions[sig]);
}

/* ------------------------------------------- signals held during a dump */

/* The signals for which the program has a handler of its own are held on
 * the thread that writes a profile: a handler that calls malloc, free or
 * __heapprof_dump would wait for the locks that thread holds (its HIB
 * cache's, the regions', the dump's) and hang the process.  They are
 * delivered when the profile is written.  Not held: signals with their
 * default action or ignored (no program code runs), heapprof's own
 * handlers (the deadly ones wait for the locks by themselves, and their
 * timer bounds the dump), and the signals the thread raises itself:
 * faults, abort's, SIGXFSZ and SIGPIPE (blocked for the whole dump by
 * hp_signals_own_writes_begin, whatever their action: the write fails with
 * EFBIG or EPIPE instead). */
static bool raised_by_thread(int sig) {
  return sig == SIGSEGV || sig == SIGBUS || sig == SIGFPE || sig == SIGILL ||
         sig == SIGTRAP || sig == SIGSYS || sig == SIGABRT || sig == SIGXFSZ ||
         sig == SIGPIPE;
}

static bool heapprof_handler(const struct sigaction *a) {
  return action_runs(a, deadly_handler) || action_runs(a, guard_handler) ||
         action_is(a, dump_signal_handler);
}

/* What the program reads back of an action: the one heapprof's deadly
 * handler or temporary-file guard stands in for, not that handler.  A
 * program that installs its handler only over the default (CPython's
 * SIGINT, for KeyboardInterrupt) saw a handler of someone else's, kept
 * out, and Ctrl-C killed it instead; one that saves and restores the
 * action it found gets back what it would without heapprof.  The dump
 * signal's handler is shown as it is: the user asked for it. */
static void program_view(int sig, struct sigaction *a) {
  bool siginfo = a->sa_flags & SA_SIGINFO;
  void *fn = siginfo ? (void *)a->sa_sigaction : (void *)a->sa_handler;
  if (sig <= 0 || sig >= (int)HP_ARRAY_SIZE(old_actions))
    return;
  if (fn == (void *)deadly_handler)
    *a = old_actions[sig];
  else if (fn == (void *)guard_handler) {
    hp_memset(a, 0, sizeof(*a));
    a->sa_handler = SIG_DFL; /* the guard only stands in for the default */
  }
}

void hp_signals_hold(sigset_t *old) {
  sigset_t s;
  sigemptyset(&s);
  for (int sig = 1; sig < NSIG; sig++) {
    struct sigaction cur;
    /* glibc's own signals (32, 33) fail here: not the program's. */
    if (raised_by_thread(sig) || hp_real_sigaction(sig, NULL, &cur) != 0 ||
        action_is(&cur, SIG_DFL) || action_is(&cur, SIG_IGN) ||
        heapprof_handler(&cur))
      continue;
    sigaddset(&s, sig);
  }
  pthread_sigmask(SIG_BLOCK, &s, old);
}

void hp_signals_unhold(const sigset_t *old) {
  pthread_sigmask(SIG_SETMASK, old, NULL);
}

static u64 given_back; /* bit sig: hp_signals_sandboxed(true) restored it */

void hp_signals_sandboxed(bool on) {
  for (int sig = 1; sig < NSIG; sig++) {
    struct sigaction cur;
    if (on && hp_real_sigaction(sig, NULL, &cur) == 0 &&
        action_runs(&cur, deadly_handler)) {
      hp_real_sigaction(sig, &old_actions[sig], NULL);
      given_back |= 1ull << (sig - 1);
    } else if (!on && (given_back & 1ull << (sig - 1))) {
      set_handler(sig, deadly_handler, NULL);
    }
  }
  if (!on)
    given_back = 0;
}

static void quick_exit_dump(void) { hp_rtl_dump_final("quick_exit"); }

/* ---------------------------------------------------------------- _exit */

/* _exit and _Exit end the process without atexit handlers or destructors,
 * so heapprof_fini never runs: they write the exit profile themselves,
 * then end the process as glibc's _exit does (exit_group).  Not when:
 *  - the caller is not the process this state belongs to: a vfork child
 *    (or a clone without CLONE_THREAD) shares the parent's memory, and
 *    writing would corrupt it.  owner_pid is set at init and by the fork
 *    handler, which vfork does not run;
 *  - the thread is inside heapprof (a handler that interrupted an
 *    allocator call or a dump): its locks are held;
 *  - a forked child made no allocator call since the fork (fork, a failed
 *    exec, _exit(127)): its profile would only repeat the objects it
 *    inherited.  glibc's own exit() reaches the kernel without passing
 *    through these (and has written the profile already).
 * The process then ends through the next definition (exit_group_now), so
 * a library preloaded after heapprof's runtime that wraps _exit still
 * sees it. */
static u32 owner_pid;
static bool forked_child;
static u64 calls_at_fork;

static u64 own_calls(void) {
  hp_thread_t *t = hp_tls_thread;
  if ((uptr)t <= 2)
    return 0;
  return t->stats.mallocs + t->stats.frees + t->stats.reallocs;
}

static bool exit_writes_profile(void) {
  if (!hp_rtl.inited || !hp_flags.dump_at_exit)
    return false;
  if ((u32)syscall(SYS_getpid) != __atomic_load_n(&owner_pid, __ATOMIC_RELAXED))
    return false;
  if (hp_locks_held > 0)
    return false;
  if (forked_child && hp_thread_count() <= 1 && own_calls() == calls_at_fork)
    return false;
  return true;
}

bool hp_signals_fork_child(void) {
  return (u32)syscall(SYS_getpid) ==
             __atomic_load_n(&owner_pid, __ATOMIC_RELAXED) &&
         forked_child;
}

bool hp_signals_vfork_child(void) {
  u32 owner = __atomic_load_n(&owner_pid, __ATOMIC_RELAXED);
  return owner && (u32)syscall(SYS_getpid) != owner &&
         !hp_fork_unhandled_copy();
}

bool hp_signals_unhandled_fork_child(u32 *parent) {
  u32 owner = __atomic_load_n(&owner_pid, __ATOMIC_RELAXED);
  if (parent)
    *parent = owner;
  return owner && (u32)syscall(SYS_getpid) != owner &&
         hp_fork_unhandled_copy();
}

bool hp_signals_own_image(void) {
  return (u32)syscall(SYS_getpid) ==
             __atomic_load_n(&owner_pid, __ATOMIC_RELAXED) &&
         !forked_child;
}

/* The next _exit and _Exit (hp_exec_next: a library preloaded after
 * heapprof's runtime that wraps them, or libc's), set by hp_signals_init.
 * Before that (a library's constructor that runs before heapprof's init
 * and exits) the next is looked up when the program installs a signal
 * handler (hp_signals_resolve_early), or at the call if it installed
 * none, so never in a handler: dlsym is not async-signal-safe.  An exit
 * logger preloaded after heapprof was passed over by the system call. */
typedef void (*exit_fn)(int);
static exit_fn next_exit, next_Exit;
static bool exits_resolved, exits_early;

void hp_signals_resolve_early(void) {
  if (__atomic_load_n(&exits_resolved, __ATOMIC_ACQUIRE) ||
      __atomic_load_n(&exits_early, __ATOMIC_ACQUIRE))
    return;
  next_exit = (exit_fn)hp_exec_next("_exit");
  next_Exit = (exit_fn)hp_exec_next("_Exit");
  __atomic_store_n(&exits_early, true, __ATOMIC_RELEASE);
}

static HP_NORETURN void exit_group_now(exit_fn next, const char *name,
                                       int status) {
  if (!__atomic_load_n(&exits_resolved, __ATOMIC_ACQUIRE) &&
      !__atomic_load_n(&exits_early, __ATOMIC_ACQUIRE))
    next = (exit_fn)hp_exec_next(name);
  if (next)
    next(status);
  hp_exit_group(status);
}

HP_INTERFACE void _exit(int status) {
  if (exit_writes_profile()) {
    HP_LEAKS_ROOTS_FROM_HERE();
    hp_rtl_dump_final("_exit");
  }
  exit_group_now(next_exit, "_exit", status);
}

HP_INTERFACE void _Exit(int status) {
  if (exit_writes_profile()) {
    HP_LEAKS_ROOTS_FROM_HERE();
    hp_rtl_dump_final("_exit");
  }
  exit_group_now(next_Exit, "_Exit", status);
}

/* daemon(3) forks and ends the parent with glibc's internal _exit, which
 * the _exit above never sees: the parent's profile was not written, and
 * what it allocated before (a server's configuration, read before it
 * detaches) was in no profile, its child's holding only what followed the
 * fork.  The parent's profile is written first, as a checkpoint with
 * reason "daemon" and, as the parent's image ends in daemon, with the leak
 * check of an exit; then glibc's daemon does the rest, the child profiled
 * as any fork child.  If the fork fails, daemon returns -1 and the exit
 * profile adds what follows the checkpoint. */
typedef int (*daemon_fn)(int, int);

HP_INTERFACE int daemon(int nochdir, int noclose) {
  static daemon_fn real;
  if (!real) {
    real = (daemon_fn)dlsym(RTLD_NEXT, "daemon");
    if (!real) {
      errno = ENOSYS;
      return -1;
    }
  }
  if (exit_writes_profile())
    hp_rtl_checkpoint("daemon");
  return real(nochdir, noclose);
}

/* ------------------------------------------------------------------ fork */

static void fork_prepare(void) {
  hp_rtl_lock();
  hp_peak_fork_prepare();
  hp_thread_fork_prepare();
  hp_stackdepot_lock();
  hp_primary_lock_all();
  hp_rlimit_lock(); /* after the regions: a new span takes it under one */
  hp_fshare_lock_all();
  hp_secondary_lock();
  hp_hib_table_lock_all(&hp_hib_table);
  hp_unloaded_lock();
}

static void fork_parent(void) {
  hp_unloaded_unlock();
  hp_hib_table_unlock_all(&hp_hib_table);
  hp_secondary_unlock();
  hp_fshare_unlock_all(false);
  hp_rlimit_unlock();
  hp_primary_unlock_all();
  hp_stackdepot_unlock();
  hp_thread_fork_parent();
  hp_peak_fork_parent();
  hp_rtl_unlock();
}

static void fork_child(void) {
  /* A deadly signal deferred during the fork was the parent's (the timer
   * did not cross the fork either). */
  hp_deferred_signal = 0;
  deferred_timer = -1;
  hp_unloaded_unlock();
  hp_hib_table_unlock_all(&hp_hib_table);
  hp_secondary_unlock();
  hp_fshare_unlock_all(true);
  hp_rlimit_unlock();
  hp_primary_unlock_all();
  hp_stackdepot_unlock();
  hp_thread_fork_child();
  /* The parent's allocator calls and system calls (sections 2 and 3): a
   * child repeated them, page faults and all. */
  hp_opclass_fork_child();
  hp_syscalls_fork_child();
  hp_peak_fork_child();
  hp_rtl_unlock();
  owner_pid = (u32)syscall(SYS_getpid);
  forked_child = true;
  /* What the parent allocated is the parent's to count (heapprof_chunk.h),
   * and so are its accesses and its lifetime up to here. */
  hp_fork_gen++;
  hp_fork_ms = hp_now_ms();
  hp_shadow_fork_child();
  calls_at_fork = own_calls();
  hp_hib_table_clear(&hp_hib_table);
  hp_symbolizer_fork_child();
  if (dump_signo > 0 && dump_sem_ready) {
    /* The dump thread did not survive the fork: start the child's own, on
     * a fresh semaphore (the parent's count is the parent's). */
    sem_destroy(&dump_sem);
    dump_sem_ready = false;
    start_dump_thread();
  }
}

void hp_signals_init(void) {
  owner_pid = (u32)syscall(SYS_getpid);
  next_exit = (exit_fn)hp_exec_next("_exit");
  next_Exit = (exit_fn)hp_exec_next("_Exit");
  __atomic_store_n(&exits_resolved, true, __ATOMIC_RELEASE);
  resolve_sig_nexts(); /* again: now past a -fheapprof program's idle copy */
  hp_fork_init();
  hp_atfork(fork_prepare, fork_parent, fork_child);
  check_dump_signal();
  hp_signals_altstack_on();
  if (hp_flags.handle_segv) {
    install_deadly(SIGSEGV, false);
    install_deadly(SIGBUS, false);
    install_deadly(SIGFPE, false);
    install_deadly(SIGILL, false);
  }
  if (hp_flags.handle_abort)
    install_deadly(SIGABRT, false);
  if (hp_flags.handle_int)
    install_deadly(SIGINT, true);
  if (hp_flags.handle_term) {
    install_deadly(SIGTERM, true);
    install_deadly(SIGQUIT, true);
    if (dump_signo != SIGHUP)
      install_deadly(SIGHUP, true);
  }
  if (hp_flags.dump_at_exit)
    at_quick_exit(quick_exit_dump);
  if (dump_signo > 0)
    start_dump_thread();
}
