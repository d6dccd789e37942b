// The heap over time of a program whose threads hold bytes they have not
// published.  Four threads each allocate 60 x 1000 bytes (60000: under the
// 64 KiB a thread publishes at, so none of it reaches the shared total) and
// wait; from then on the heap never holds less than 240000 bytes.  Then the
// main thread allocates a block of 1000000 bytes (its publish: a note),
// holds it 20 ms and frees it (the peak's snapshot, exact, and another
// publish's note).  A note was the shared total alone: 1000000 bytes (and
// glibc's thread vectors) at the allocation and 1152 at the free, a heap
// that fell by 240000 bytes it still held; now each note adds the other
// threads' unpublished bytes: about 1240000, then 240000.
// RUN: %clang_heapprof -O0 -g %s -o %t -lpthread
// RUN: rm -rf %t.d %t.sys && mkdir -p %t.d %t.sys
// RUN: %env_heapprof_opts=profile_dir=%t.d %run %t
// RUN: heapprof report --format json %t.d > %t.json
// RUN: %python %S/Inputs/timeline_threads_check.py %t.json | FileCheck %s
// glibc's allocator keeps the same books:
// RUN: %env_heapprof_opts=profile_dir=%t.sys:allocator=system %run %t
// RUN: heapprof report --format json %t.sys > %t.sys.json
// RUN: %python %S/Inputs/timeline_threads_check.py %t.sys.json | FileCheck %s
// CHECK: peak 1240000 + glibc's
// CHECK-NEXT: the block's allocation noted with the threads' bytes
// CHECK-NEXT: never below 240000 after it
#include <pthread.h>
#include <stdlib.h>
#include <time.h>

enum { THREADS = 4, EACH = 60, SIZE = 1000, BLOCK = 1000000 };
static void *volatile kept[THREADS][EACH];
static pthread_barrier_t allocated, done;

static void pause_ms(long ms) {
  struct timespec t = {0, ms * 1000000L};
  nanosleep(&t, NULL);
}

static void *worker(void *arg) {
  long w = (long)arg;
  for (int i = 0; i < EACH; i++)
    kept[w][i] = malloc(SIZE);
  pthread_barrier_wait(&allocated);
  pthread_barrier_wait(&done); /* alive: its pending stays unpublished */
  return NULL;
}

int main(void) {
  pthread_t t[THREADS];
  pthread_barrier_init(&allocated, NULL, THREADS + 1);
  pthread_barrier_init(&done, NULL, THREADS + 1);
  for (long w = 0; w < THREADS; w++)
    pthread_create(&t[w], NULL, worker, (void *)w);
  pthread_barrier_wait(&allocated);
  pause_ms(20);
  char *volatile block = malloc(BLOCK);
  block[0] = 1;
  pause_ms(20);
  free(block);
  pause_ms(20);
  pthread_barrier_wait(&done);
  for (int w = 0; w < THREADS; w++)
    pthread_join(t[w], NULL);
  return 0;
}
