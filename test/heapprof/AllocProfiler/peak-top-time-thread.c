// The peak's time when the allocation that made the heap largest was a
// thread's that has exited since: its table, left for the next thread,
// keeps the time of its last allocation.  Phase 1 (main) allocates 100
// objects of 1000 bytes and starts a thread (glibc allocates its dtv
// then, from main: main's last allocation is at the start); 30 ms later
// main writes a byte to a pipe, on which the thread waits to allocate
// phase 2's 100 (the top, 200000 bytes) and exit; main joins it, waits
// 30 ms more and frees phase 2's objects, the first free taking the
// snapshot.  As in
// peak-top-time.c the peak is at or after phase 2's first allocation and
// at least 30 ms before its free (checked with 20 ms to spare).  Without
// the exited thread's time, the latest allocation was main's phase 1:
// the peak read ~0 ms, before phase 2 existed.
// RUN: %clang_heapprof -O0 -g -pthread %s -o %t
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: %env_heapprof_opts=profile_dir=%t.d %run %t
// RUN: %python %S/Inputs/peak_top_time.py %t.d/*.profraw 20 | FileCheck %s
// CHECK: peak at the top
#include <pthread.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static char *volatile one[100], *volatile two[100];

static void pause_ms(long ms) {
  struct timespec t = {0, ms * 1000000L};
  nanosleep(&t, NULL);
}

static int go[2];

static void *phase2(void *arg) {
  char c;
  if (read(go[0], &c, 1) != 1)
    return arg;
  for (int i = 0; i < 100; i++)
    two[i] = malloc(1000);
  return arg;
}

int main(void) {
  for (int i = 0; i < 100; i++)
    one[i] = malloc(1000);
  pthread_t t;
  if (pipe(go) || pthread_create(&t, NULL, phase2, NULL))
    return 1;
  pause_ms(30);
  if (write(go[1], "g", 1) != 1 || pthread_join(t, NULL))
    return 1;
  pause_ms(30);
  for (int i = 0; i < 100; i++)
    free(two[i]);
  return 0;
}
