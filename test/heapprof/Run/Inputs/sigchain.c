/* A signal-chaining library in the manner of the JVM's libjsig.so, preloaded
 * after heapprof's runtime: sigchain_claim(sig, act) installs the "VM"'s
 * handler; from then on the program's sigaction and signal for that signal
 * install nothing -- the action is kept aside (sigchain_saved) for the VM's
 * handler to chain to -- and report the kept action as the old one. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <signal.h>
#include <string.h>

typedef int (*sigaction_fn)(int, const struct sigaction *, struct sigaction *);
static sigaction_fn real_sigaction;
static int claimed[NSIG];
static struct sigaction saved[NSIG];

static void resolve(void) {
  if (!real_sigaction)
    real_sigaction = (sigaction_fn)dlsym(RTLD_NEXT, "sigaction");
}

int sigchain_claim(int sig, const struct sigaction *act) {
  resolve();
  int r = real_sigaction(sig, act, &saved[sig]);
  claimed[sig] = 1;
  return r;
}

const struct sigaction *sigchain_saved(int sig) { return &saved[sig]; }

int sigaction(int sig, const struct sigaction *act, struct sigaction *old) {
  resolve();
  if (sig > 0 && sig < NSIG && claimed[sig]) {
    if (old)
      *old = saved[sig];
    if (act)
      saved[sig] = *act;
    return 0;
  }
  return real_sigaction(sig, act, old);
}

__sighandler_t signal(int sig, __sighandler_t h) {
  struct sigaction sa, old;
  memset(&sa, 0, sizeof(sa));
  sa.sa_handler = h;
  sa.sa_flags = SA_RESTART;
  if (sigaction(sig, &sa, &old) != 0)
    return SIG_ERR;
  return old.sa_handler;
}
