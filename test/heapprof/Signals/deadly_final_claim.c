// A deadly signal that lands after the exit profile was claimed but before
// its writer took the dump lock.  The claim (final_done) was made before
// the lock, and the handler, finding the profile claimed, waited for the
// lock, which was still free: the process died of the signal at once, with
// no profile and no message.  Seen under load as fork_child_term.c's child
// without a profile (its SIGTERM landed in _exit's dump, before the lock).
// The claim is now made under the lock.
// The window is hit deterministically: the program's own
// pthread_setcancelstate, which the dump calls on its way to the lock,
// sends SIGTERM from there once the program has called _exit.
//  - self: to the exiting thread itself;
//  - other: to an idle second thread, while the exiting one waits there.
// Either way the profile must be written (main's 10 objects of 100 bytes,
// by the handler, named after the signal) and the program dies of SIGTERM.
// RUN: %clang_heapprof -O0 %s -o %t -ldl -lpthread
// RUN: rm -rf %t.s && %env_heapprof_opts=handle_term=1:print_raw=0:print_text=1:profile_dir=%t.s not --crash %run %t self 2>&1 | FileCheck %s
// RUN: cat %t.s/*.txt | FileCheck %s --check-prefix=PROF
// RUN: rm -rf %t.o && %env_heapprof_opts=handle_term=1:print_raw=0:print_text=1:profile_dir=%t.o not --crash %run %t other 2>&1 | FileCheck %s
// RUN: cat %t.o/*.txt | FileCheck %s --check-prefix=PROF
// CHECK: HeapProf: caught SIGTERM; writing the profile before the program dies
// CHECK-NOT: dies without it
// PROF: HeapProf profile: {{.*}}, SIGTERM, dump 0
// PROF: alloc_count 10, size (ave/min/max) 100.00 / 100 / 100
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int (*real_setcancelstate)(int, int *);
static volatile int armed;
static int self;
static pthread_t other;

int pthread_setcancelstate(int state, int *old) {
  if (armed && state == PTHREAD_CANCEL_DISABLE) {
    armed = 0;
    if (self) {
      raise(SIGTERM); /* handled before raise returns */
    } else {
      pthread_kill(other, SIGTERM);
      for (;;) /* the process dies of the signal */
        pause();
    }
  }
  return real_setcancelstate(state, old);
}

static void *idle(void *arg) {
  for (;;)
    pause();
  return arg;
}

int main(int argc, char **argv) {
  self = argc > 1 && !strcmp(argv[1], "self");
  real_setcancelstate =
      (int (*)(int, int *))dlsym(RTLD_NEXT, "pthread_setcancelstate");
  for (int i = 0; i < 10; i++) {
    char *volatile p = malloc(100);
    p[0] = 1;
  }
  if (!self && pthread_create(&other, 0, idle, 0))
    return 1;
  armed = 1;
  _exit(0); /* the exit profile: claimed, then the lock */
}
