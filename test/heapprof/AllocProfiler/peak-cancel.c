// free() is no cancellation point, and a thread with a cancel pending may
// free.  A free that finds the peak tracker armed takes a snapshot, which
// measures the allocator (the first time, and at an eighth above the last):
// it opens /proc/self/pagemap and reads statm, both cancellation points.
// The cancel was acted on there, inside free, with the peak's lock held:
// the thread ended, the next dump (here main's checkpoint; otherwise the
// exit profile's) waited for the lock for ever.
//
// The worker (Inputs/self_cancel.h) cancels itself (pending until a
// cancellation point), then
// allocates 4 MiB (the heap grows past the arm level: armed) and frees it
// (the top: a snapshot with a measurement).  Free returns; the cancel is
// acted on at pthread_testcancel.  Main's checkpoint returns 0, and the
// peak holds the 4 MiB block: 4194304 bytes in 1 object of the worker's.
// RUN: %clang_heapprof -O0 %s -o %t -lpthread
// RUN: rm -rf %t.d && %env_heapprof_opts=profile_dir=%t.d timeout 60 %run %t > %t.out
// RUN: heapprof report %t.d >> %t.out
// RUN: FileCheck %s < %t.out
// CHECK: free returned: 1; worker cancelled: 1; checkpoint: 0
// CHECK: == The peak
// CHECK: 4194304 {{.*}} 1  worker ({{.*}}peak-cancel.c:[[#@LINE+8]]:
#include "../Inputs/self_cancel.h"
#include <heapprof/heapprof_interface.h>
#include <stdio.h>
#include <stdlib.h>

static volatile int freed;
static void worker(void) {
  char *volatile p = malloc(4 << 20);
  p[0] = 1;
  free(p);
  freed = 1;
}

int main(void) {
  int cancelled = run_self_cancelled(worker);
  int d = __heapprof_dump();
  printf("free returned: %d; worker cancelled: %d; checkpoint: %d\n", freed,
         cancelled, d);
  return 0;
}
