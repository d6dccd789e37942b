/*===- heapprof_signals.c - dumps on signals; fork ----------------------===
 *
 * Part of heapprof.
 *
 * dump_signal=SIG: the handler only writes one byte to a pipe; a dedicated
 * thread blocked on the pipe writes the checkpoint, so nothing that
 * allocates or locks runs in signal context.
 *
 * handle_segv / handle_abort: a deadly signal writes the final profile
 * (best effort: if the crash happened inside heapprof while it held a lock,
 * the dump can block), then the previous action is restored and the signal
 * raised again, so the program dies the way it would have.
 *
 * fork: pthread_atfork handlers hold every runtime lock across the fork, so
 * the child never inherits a lock held by a thread that no longer exists.
 * The child starts with an empty table: the parent's merged records are the
 * parent's to write.  Objects the child inherited and still holds are part
 * of its heap and are reported in its profile like its own.
 *===----------------------------------------------------------------------===*/
#include "heapprof_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

static int dump_pipe[2] = {-1, -1};
static int dump_signo;

const char *hp_signal_name(int sig) {
  switch (sig) {
  case SIGSEGV: return "SIGSEGV";
  case SIGBUS: return "SIGBUS";
  case SIGFPE: return "SIGFPE";
  case SIGILL: return "SIGILL";
  case SIGABRT: return "SIGABRT";
  case SIGUSR1: return "SIGUSR1";
  case SIGUSR2: return "SIGUSR2";
  case SIGHUP: return "SIGHUP";
  case SIGPROF: return "SIGPROF";
  default: return "signal";
  }
}

/* "SIGUSR2", "USR2" or a number; 0 when empty; -1 when not a signal. */
static int parse_signal(const char *s) {
  if (!s[0])
    return 0;
  static const int sigs[] = {SIGUSR1, SIGUSR2, SIGHUP, SIGPROF};
  for (u32 i = 0; i < HP_ARRAY_SIZE(sigs); i++) {
    const char *n = hp_signal_name(sigs[i]);
    if (!hp_strcmp(s, n) || !hp_strcmp(s, n + 3))
      return sigs[i];
  }
  s64 v;
  if (hp_parse_s64(s, hp_strlen(s), &v) && v > 0 && v < 65)
    return (int)v;
  return -1;
}

static void dump_signal_handler(int sig) {
  (void)sig;
  int saved = errno;
  char c = 1;
  if (write(dump_pipe[1], &c, 1) < 0) {
    /* pipe full: a dump is already pending */
  }
  errno = saved;
}

static void *dump_thread(void *arg) {
  (void)arg;
  sigset_t all;
  sigfillset(&all);
  pthread_sigmask(SIG_BLOCK, &all, NULL);
  for (;;) {
    char c;
    ssize_t r = read(dump_pipe[0], &c, 1);
    if (r == 1) {
      if (__heapprof_dump() == 0 && hp_flags.verbosity)
        hp_printf("HeapProf: wrote a checkpoint on %s\n",
                  hp_signal_name(dump_signo));
    } else if (r < 0 && errno == EINTR) {
      continue;
    } else {
      return NULL;
    }
  }
}

static void start_dump_thread(void) {
  if (pipe2(dump_pipe, O_CLOEXEC) != 0) {
    hp_printf("HeapProf: WARNING: dump_signal: cannot create a pipe; "
              "signal dumps are off\n");
    return;
  }
  pthread_t t;
  if (pthread_create(&t, NULL, dump_thread, NULL) != 0) {
    hp_printf("HeapProf: WARNING: dump_signal: cannot start the dump thread; "
              "signal dumps are off\n");
    return;
  }
  pthread_detach(t);
  struct sigaction sa;
  hp_memset(&sa, 0, sizeof(sa));
  sa.sa_handler = dump_signal_handler;
  sa.sa_flags = SA_RESTART;
  sigemptyset(&sa.sa_mask);
  sigaction(dump_signo, &sa, NULL);
}

/* ------------------------------------------------------- deadly signals */

static struct sigaction old_actions[65];

static void deadly_handler(int sig, siginfo_t *si, void *uc) {
  (void)si;
  (void)uc;
  hp_printf("HeapProf: caught %s; writing the profile before the program "
            "dies\n",
            hp_signal_name(sig));
  hp_rtl_dump_final(hp_signal_name(sig));
  sigaction(sig, &old_actions[sig], NULL);
  /* Blocked until we return: then the previous action takes it. */
  raise(sig);
}

static void install_deadly(int sig) {
  struct sigaction sa;
  hp_memset(&sa, 0, sizeof(sa));
  sa.sa_sigaction = deadly_handler;
  sa.sa_flags = SA_SIGINFO | SA_RESTART;
  sigemptyset(&sa.sa_mask);
  sigaction(sig, &sa, &old_actions[sig]);
}

/* ------------------------------------------------------------------ fork */

static void fork_prepare(void) {
  hp_rtl_lock();
  hp_thread_fork_prepare();
  hp_stackdepot_lock();
  hp_primary_lock_all();
  hp_secondary_lock();
  hp_hib_table_lock_all(&hp_hib_table);
}

static void fork_parent(void) {
  hp_hib_table_unlock_all(&hp_hib_table);
  hp_secondary_unlock();
  hp_primary_unlock_all();
  hp_stackdepot_unlock();
  hp_thread_fork_parent();
  hp_rtl_unlock();
}

static void fork_child(void) {
  hp_hib_table_unlock_all(&hp_hib_table);
  hp_secondary_unlock();
  hp_primary_unlock_all();
  hp_stackdepot_unlock();
  hp_thread_fork_child();
  hp_rtl_unlock();
  hp_hib_table_clear(&hp_hib_table);
  hp_symbolizer_fork_child();
  if (dump_signo > 0 && dump_pipe[0] >= 0) {
    /* The dump thread did not survive the fork: start the child's own. */
    close(dump_pipe[0]);
    close(dump_pipe[1]);
    dump_pipe[0] = dump_pipe[1] = -1;
    start_dump_thread();
  }
}

void hp_signals_init(void) {
  pthread_atfork(fork_prepare, fork_parent, fork_child);
  if (hp_flags.handle_segv) {
    install_deadly(SIGSEGV);
    install_deadly(SIGBUS);
    install_deadly(SIGFPE);
    install_deadly(SIGILL);
  }
  if (hp_flags.handle_abort)
    install_deadly(SIGABRT);
  dump_signo = parse_signal(hp_flags.dump_signal);
  if (dump_signo < 0) {
    char err[256];
    hp_snprintf(err, sizeof(err),
                "invalid value '%s' for option 'dump_signal': expected "
                "SIGUSR1, SIGUSR2, SIGHUP, SIGPROF or a signal number",
                hp_flags.dump_signal);
    hp_report_bad_option(err);
  }
  if (dump_signo > 0)
    start_dump_thread();
}
