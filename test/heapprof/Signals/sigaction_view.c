// The program sees its own signal actions, not heapprof's handlers: with
// handle_int, handle_segv and handle_abort on (the defaults) it reads back
// SIG_DFL, as it would without heapprof.  A program that takes SIGINT only
// while it has the default action (CPython: KeyboardInterrupt) used to see
// heapprof's handler, kept out, and Ctrl-C killed it.  The same program
// plain, instrumented, and under heapprof run; SIGINT at its default
// action to start with (lit's workers ignore it, which a child inherits).
// RUN: %clang_plain -O0 -g %s -o %t.plain
// RUN: %clang_heapprof -O0 -g %s -o %t
// RUN: %python %S/Inputs/default-sigint.py %t.plain | FileCheck %s
// RUN: rm -rf %t.d && %env_heapprof_opts=profile_dir=%t.d %python %S/Inputs/default-sigint.py %run %t | FileCheck %s
// RUN: ls %t.d | count 1
// RUN: rm -rf %t.r && env -u LD_PRELOAD %python %S/Inputs/default-sigint.py heapprof run -o %t.r -- %t.plain | FileCheck %s
// RUN: ls %t.r | count 1
// CPython takes SIGINT for KeyboardInterrupt.
// RUN: rm -rf %t.py && env -u LD_PRELOAD %python %S/Inputs/default-sigint.py heapprof run -o %t.py -- %python %S/Inputs/keyboard-interrupt.py | FileCheck %s --check-prefix=PY
// PY: True 0
// PY-NEXT: KeyboardInterrupt caught
// CHECK: SIGINT: default
// CHECK-NEXT: SIGSEGV: default
// CHECK-NEXT: SIGABRT: default
// CHECK-NEXT: signal(SIGINT) returned: default
// CHECK-NEXT: own SIGINT handler ran
// CHECK-NEXT: SIGINT now: own
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static volatile sig_atomic_t ran;
static void own(int sig) {
  (void)sig;
  ran = 1;
}

static const char *what(void (*h)(int)) {
  return h == SIG_DFL ? "default" : h == SIG_IGN ? "ignored" : h == own ? "own" : "another's";
}

static void show(const char *name, int sig) {
  struct sigaction sa;
  sigaction(sig, NULL, &sa);
  printf("%s: %s\n", name,
         (sa.sa_flags & SA_SIGINFO) ? "another's" : what(sa.sa_handler));
}

int main(void) {
  char *volatile p = malloc(10);
  show("SIGINT", SIGINT);
  show("SIGSEGV", SIGSEGV);
  show("SIGABRT", SIGABRT);
  /* Take SIGINT only from the default, as CPython does. */
  void (*prev)(int) = signal(SIGINT, SIG_DFL);
  printf("signal(SIGINT) returned: %s\n", what(prev));
  struct sigaction sa;
  sigaction(SIGINT, NULL, &sa);
  if (!(sa.sa_flags & SA_SIGINFO) && sa.sa_handler == SIG_DFL) {
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = own;
    sigaction(SIGINT, &sa, NULL);
  }
  raise(SIGINT);
  if (ran)
    printf("own SIGINT handler ran\n");
  show("SIGINT now", SIGINT);
  free(p);
  return 0;
}
