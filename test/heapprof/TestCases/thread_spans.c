// Threads that run at the same time get their blocks from different spans
// of the size class's region, so no line of counters (8 counters: 512
// bytes of heap) counts blocks of both.  Two threads keep 200 blocks each
// and, in lock step, free half of them and allocate as many again, 30
// times: each step overflows the thread cache (64 blocks of the class) and
// then empties it, so blocks go back to the region and come out again.
// With one free list per class shared by all threads, each thread got
// batches the other had given back, and their blocks ended up side by
// side.  Only the live blocks' lines are compared, at the end.
// When the two have freed everything and exited, a third thread asking for
// as many blocks gets their memory back (their spans are adopted before a
// new one is taken).  A new span would lie above every span taken, so no
// block may lie above the highest the two got, except by the blocks their
// caches carved and never handed out (at most a refill, 32 blocks).  Then
// 70 threads at once, more than the 63 lanes: the last ones share lane 0,
// and every block must still keep its contents.
// RUN: %clang_rt_heapprof -O0 -pthread %s -o %t
// RUN: %env_heapprof_opts=log_path=%t.prof %run %t 2>&1 | FileCheck %s
// thread_spans=0: one pool of spans for all threads (lane 0); the blocks
// may share lines then, but everything else holds.
// RUN: %env_heapprof_opts=log_path=%t.prof:thread_spans=0 %run %t 2>&1 | FileCheck %s --check-prefix=OFF
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LIVE 200
#define STEPS 30
#define SIZE 72 /* + the 32-byte header: the 128-byte class */
#define BLOCK 128
#define MANY 70

static pthread_barrier_t step;
static uintptr_t got[3][LIVE];
static int pair_bad;

static void *pair_worker(void *arg) {
  int t = (int)(long)arg;
  char *v[LIVE];
  for (int i = 0; i < LIVE; i++) {
    v[i] = malloc(SIZE);
    v[i][0] = (char)t;
  }
  for (int s = 0; s < STEPS; s++) {
    pthread_barrier_wait(&step);
    for (int i = s % 2; i < LIVE; i += 2)
      free(v[i]);
    pthread_barrier_wait(&step);
    for (int i = s % 2; i < LIVE; i += 2) {
      v[i] = malloc(SIZE);
      v[i][0] = (char)t;
    }
  }
  pthread_barrier_wait(&step);
  for (int i = 0; i < LIVE; i++) {
    __atomic_add_fetch(&pair_bad, v[i][0] != (char)t, __ATOMIC_RELAXED);
    got[t][i] = (uintptr_t)v[i];
  }
  pthread_barrier_wait(&step);
  for (int i = 0; i < LIVE; i++)
    free(v[i]);
  return NULL;
}

static void *third(void *arg) {
  (void)arg;
  for (int i = 0; i < LIVE; i++)
    got[2][i] = (uintptr_t)malloc(SIZE);
  return NULL;
}

static int cmp(const void *a, const void *b) {
  uintptr_t x = *(const uintptr_t *)a, y = *(const uintptr_t *)b;
  return x < y ? -1 : x > y;
}

static int many_bad;
static void *many_worker(void *arg) {
  int t = (int)(long)arg;
  char *v[100];
  pthread_barrier_wait(&step);
  for (int i = 0; i < 100; i++) {
    v[i] = malloc(72);
    memset(v[i], t, 72);
  }
  pthread_barrier_wait(&step);
  for (int i = 0; i < 100; i++) {
    for (int k = 0; k < 72; k++)
      __atomic_add_fetch(&many_bad, v[i][k] != (char)t, __ATOMIC_RELAXED);
    free(v[i]);
  }
  return NULL;
}

int main(void) {
  pthread_barrier_init(&step, NULL, 2);
  pthread_t th[MANY];
  for (long t = 0; t < 2; t++)
    pthread_create(&th[t], NULL, pair_worker, (void *)t);
  pthread_join(th[0], NULL);
  pthread_join(th[1], NULL);
  // The lines of thread 0's last live blocks, sorted; thread 1's looked up
  // in them (their addresses: the blocks themselves are freed by now).
  static uintptr_t lines0[2 * LIVE];
  int n0 = 0, shared = 0;
  for (int i = 0; i < LIVE; i++) {
    lines0[n0++] = got[0][i] >> 9;
    lines0[n0++] = (got[0][i] + BLOCK - 1) >> 9;
  }
  qsort(lines0, n0, sizeof *lines0, cmp);
  for (int i = 0; i < LIVE; i++) {
    uintptr_t l[2] = {got[1][i] >> 9, (got[1][i] + BLOCK - 1) >> 9};
    for (int j = 0; j < 2; j++)
      shared += bsearch(&l[j], lines0, n0, sizeof *lines0, cmp) != NULL;
  }
  fprintf(stderr, "lines counting both threads: %d, bytes changed: %d\n",
          shared, pair_bad);

  uintptr_t highest = 0;
  for (int t = 0; t < 2; t++)
    for (int i = 0; i < LIVE; i++)
      if (got[t][i] > highest)
        highest = got[t][i];
  pthread_create(&th[2], NULL, third, NULL);
  pthread_join(th[2], NULL);
  int above = 0;
  for (int i = 0; i < LIVE; i++)
    above += got[2][i] > highest + 32 * BLOCK;
  fprintf(stderr, "third thread's blocks above the first two's memory: %d\n",
          above);
  for (int i = 0; i < LIVE; i++)
    free((void *)got[2][i]);

  pthread_barrier_destroy(&step);
  pthread_barrier_init(&step, NULL, MANY);
  for (long t = 0; t < MANY; t++)
    pthread_create(&th[t], NULL, many_worker, (void *)(t + 1));
  for (int t = 0; t < MANY; t++)
    pthread_join(th[t], NULL);
  fprintf(stderr, "%d threads at once, bytes changed: %d\n", MANY, many_bad);
  return 0;
}
// CHECK: lines counting both threads: 0, bytes changed: 0
// CHECK: third thread's blocks above the first two's memory: 0
// CHECK: 70 threads at once, bytes changed: 0
// OFF: lines counting both threads: {{[0-9]+}}, bytes changed: 0
// OFF: third thread's blocks above the first two's memory: 0
// OFF: 70 threads at once, bytes changed: 0
