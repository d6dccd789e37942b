// malloc and free are no cancellation points.  With pmu_events=1 a sampled
// call reads its thread's counters with read(2), which is one: a thread
// with a cancel pending ended inside its next sampled malloc or free.
//
// The worker (Inputs/self_cancel.h) cancels itself (pending until a
// cancellation point), then
// makes 1000 malloc/free pairs, every call sampled, and counts the calls
// that returned: all 2000.  The cancel is acted on at pthread_testcancel.
// (Where perf_event_open is refused nothing is read: the same result.)
// RUN: %clang_heapprof -O0 %s -o %t -lpthread
// RUN: rm -rf %t.d && %env_heapprof_opts=profile_dir=%t.d:pmu_events=1:pmu_sample_every=1 %run %t | FileCheck %s
// CHECK: calls returned: 2000; worker cancelled: 1; checkpoint: 0
#include "../Inputs/self_cancel.h"
#include <heapprof/heapprof_interface.h>
#include <stdio.h>
#include <stdlib.h>

static volatile int calls;
static void worker(void) {
  for (int i = 0; i < 1000; i++) {
    char *volatile p = malloc(100);
    calls++;
    free(p);
    calls++;
  }
}

int main(void) {
  int cancelled = run_self_cancelled(worker);
  int d = __heapprof_dump();
  printf("calls returned: %d; worker cancelled: %d; checkpoint: %d\n", calls,
         cancelled, d);
  return 0;
}
