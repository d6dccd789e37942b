// An exited thread's state goes on a free list for the next thread.  It
// was cleared with stores when reused, which made every recycled state
// resident whole (110 KiB, where a thread touches the parts it uses), and
// the exit's flush had made most of it resident already: 1000 threads
// alive at once held 55 MiB while they ran, and once they had exited the
// process kept 78 MiB, then 131 MiB after every later wave of 1000
// (glibc alone: 8).  Now, past the first 16 states on the free list
// (cleared with stores, resident, for threads that come and go a few at a
// time), the exit gives a state's pages back (madvise) but for its walks'
// caches (20 KiB, kept for the next thread): such a state is as light as
// a fresh one when reused.
// 500 threads alive at once (256 KiB stacks), each allocating and freeing
// 50 blocks of 64 bytes, 3 waves.  Each wave's threads reuse the states of
// the one before, so a later wave makes no more resident than the first
// did, and what stays resident once they have exited is bounded by what
// a thread keeps: the walks' caches, its cached stack's touched pages
// (glibc keeps them), its peak table: well under 64 KiB a thread (128
// before).  The margins: 16 KiB a thread between waves (41 before at
// 1000 threads), 64 KiB a thread kept.
// RUN: %clang_heapprof -O0 %s -o %t -lpthread
// RUN: %env_heapprof_opts=log_path=%t.p %run %t 500 | FileCheck %s
// RUN: %clang_plain -O0 %s -o %t.plain -lpthread
// RUN: rm -rf %t.r && heapprof run -o %t.r -- %t.plain 500 | FileCheck %s
// CHECK: wave 3 alive, over wave 1: ok
// CHECK-NEXT: wave 3 exited, over wave 1: ok
// CHECK-NEXT: kept per exited thread: ok
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "Inputs/resident.h"

#define BLOCKS 50
// bar: every thread has allocated (main measures then); done: main has
// measured.  The measure was taken as soon as the threads were created,
// when under load many had not run yet: wave 1 read 25336 KiB alive
// where an idle machine reads 30000-34000, and wave 3 "too much".
static pthread_barrier_t bar, done;

static void *alive(void *arg) {
  void *volatile p[BLOCKS];
  for (int i = 0; i < BLOCKS; i++) {
    p[i] = malloc(64);
    memset(p[i], 1, 64);
  }
  pthread_barrier_wait(&bar);
  pthread_barrier_wait(&done);
  for (int i = 0; i < BLOCKS; i++)
    free(p[i]);
  return arg;
}

static const char *verdict(long kb, int n, long per_thread_kb) {
  return kb <= per_thread_kb * n ? "ok" : "too much";
}

int main(int argc, char **argv) {
  int n = atoi(argv[1]);
  pthread_t *t = malloc(sizeof(pthread_t) * n);
  pthread_attr_t at;
  pthread_attr_init(&at);
  pthread_attr_setstacksize(&at, 256 << 10);
  long start = resident_kib(), up[4], down[4];
  for (int w = 1; w <= 3; w++) {
    pthread_barrier_init(&bar, NULL, n + 1);
    pthread_barrier_init(&done, NULL, n + 1);
    for (int i = 0; i < n; i++)
      if (pthread_create(&t[i], &at, alive, NULL))
        return 1;
    pthread_barrier_wait(&bar);
    up[w] = resident_kib();
    pthread_barrier_wait(&done);
    for (int i = 0; i < n; i++)
      pthread_join(t[i], NULL);
    pthread_barrier_destroy(&bar);
    pthread_barrier_destroy(&done);
    down[w] = resident_kib();
    fprintf(stderr, "wave %d: %ld KiB alive, %ld KiB exited\n", w, up[w],
            down[w]);
  }
  printf("wave 3 alive, over wave 1: %s\n", verdict(up[3] - up[1], n, 16));
  printf("wave 3 exited, over wave 1: %s\n",
         verdict(down[3] - down[1], n, 16));
  printf("kept per exited thread: %s\n", verdict(down[3] - start, n, 64));
  return 0;
}
