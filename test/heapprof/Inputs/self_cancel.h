// self_cancel: run_self_cancelled(body), the thread of the cancellation
// tests (AllocProfiler/peak-cancel.c, AllocProfiler/pmu-cancel.c,
// Run/allocator-cancel.c).  A new thread cancels itself (the cancel stays
// pending until a cancellation point), runs body (the test's allocator
// calls, none of which is a cancellation point), then reaches
// pthread_testcancel, where the cancel is acted on.  The caller joins it;
// the result is 1 if the thread ended cancelled.  A body that never
// returns (the runtime acted on the cancel inside an allocator call) shows
// as what body counted before it.
#ifndef HEAPPROF_TEST_SELF_CANCEL_H
#define HEAPPROF_TEST_SELF_CANCEL_H
#include <pthread.h>

static void (*self_cancel_body)(void);

static void *self_cancel_thread(void *arg) {
  pthread_cancel(pthread_self());
  self_cancel_body();
  pthread_testcancel();
  return arg;
}

static int run_self_cancelled(void (*body)(void)) {
  pthread_t t;
  void *r;
  self_cancel_body = body;
  pthread_create(&t, NULL, self_cancel_thread, NULL);
  pthread_join(t, &r);
  return r == PTHREAD_CANCELED;
}

#endif
