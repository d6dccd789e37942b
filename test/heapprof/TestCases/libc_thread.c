// A thread glibc starts itself, past heapprof's pthread_create and
// thrd_create wrappers (a SIGEV_THREAD timer's notification thread): its
// state is made at its first allocation, with the stack's top read from
// the thread pointer; pthread_getattr_np's own three blocks were profiled
// as the program's before.  The callback's 777-byte block is the thread's
// only allocation in the profile.
// RUN: rm -rf %t.dir && %clang_heapprof -O0 -g %s -o %t -lrt
// RUN: %env_heapprof_opts=print_text=1:profile_dir=%t.dir %run %t | FileCheck %s --check-prefix=OUT
// OUT: notified
// RUN: not grep pthread_getattr_np %t.dir/heapprof.*.txt
// RUN: grep -c "alloc_count 1, size (ave/min/max) 777.00" %t.dir/heapprof.*.txt | FileCheck %s --check-prefix=ONE
// ONE: {{^}}1{{$}}
// RUN: heapprof report --top 0 %t.dir | grep -A1 "(777 B each)" | FileCheck %s --check-prefix=STACK
// STACK: notify {{.*}}libc_thread.c
#include <semaphore.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static sem_t done;

static void notify(union sigval v) {
  (void)v;
  char *volatile p = malloc(777);
  p[0] = 1;
  free(p);
  sem_post(&done);
}

int main(void) {
  sem_init(&done, 0, 0);
  struct sigevent ev = {0};
  ev.sigev_notify = SIGEV_THREAD;
  ev.sigev_notify_function = notify;
  timer_t t;
  if (timer_create(CLOCK_MONOTONIC, &ev, &t) != 0)
    return 1;
  struct itimerspec its = {{0, 0}, {0, 1000000}};
  timer_settime(t, 0, &its, NULL);
  while (sem_wait(&done) != 0) {
  }
  timer_delete(t);
  printf("notified\n");
  return 0;
}
