// malloc is no cancellation point.  With allocator=system a thread's first
// allocator call opens its page-fault ring (alloc_faults) and closes the
// perf event's descriptor, and close is one: a thread with a cancel pending
// ended inside its first malloc, which never returned.
//
// main cancels a thread first, so that glibc has loaded what cancellation
// needs (its own mallocs, which would open the next thread's ring early).
// The worker (Inputs/self_cancel.h) cancels itself (pending until a
// cancellation point), then
// makes one malloc and one free and counts the calls that returned: 2.
// The cancel is acted on at pthread_testcancel.  (Where perf_event_open
// is refused there is no descriptor to close: the same result.)
// RUN: %clang_heapprof -O0 %s -o %t -lpthread
// RUN: rm -rf %t.d && %env_heapprof_opts=profile_dir=%t.d:allocator=system %run %t | FileCheck %s
// CHECK: calls returned: 2; worker cancelled: 1
#include "../Inputs/self_cancel.h"
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static volatile int calls;

static void *sleeper(void *arg) {
  for (;;)
    pause();
  return arg;
}

static void worker(void) {
  char *volatile p = malloc(100);
  calls++;
  free(p);
  calls++;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, NULL, sleeper, NULL);
  pthread_cancel(t);
  pthread_join(t, NULL);
  int cancelled = run_self_cancelled(worker);
  printf("calls returned: %d; worker cancelled: %d\n", calls, cancelled);
  return 0;
}
