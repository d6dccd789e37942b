// Checkpoints while threads write, free and replace objects that earlier
// checkpoints reported: a free of such an object can meet a checkpoint
// folding it (the free waits for the fold), and the objects are written
// while checkpoints read their counters.  Every store is counted once
// over the checkpoints and the exit profile, and every object once.
// 4 threads x 300000 rounds: replace one of 512 objects of 200 bytes
// (free the old one, allocate a new one) and store 5 times into it, then
// store 3 times into another live one.  Then every object is freed.
//   objects: 4 x 512 = 2048 from the ring's first fill, 4 x 300000 =
//            1200000 from the loop (two contexts), 200 bytes each
//   stores:  4 x 300000 x (5 + 3) = 9600000, split between the two
//            contexts by which object each round's 3 stores find
// RUN: %clang_heapprof -O1 %s -o %t
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: env HEAPPROF_OPTIONS=profile_dir=%t.dir:detect_leaks=0 %run %t 2>&1 | FileCheck %s --check-prefix=OUT
// RUN: heapprof report %t.dir | FileCheck %s
#include <heapprof/heapprof_interface.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define NTHREADS 4
#define ROUNDS 300000
#define RING 512
static pthread_barrier_t start;
static int finished;

__attribute__((noinline)) long *obj(void) { return malloc(200); }

static void *worker(void *arg) {
  unsigned seed = (unsigned)(long)arg;
  long *volatile ring[RING];
  for (int i = 0; i < RING; i++)
    ring[i] = obj();
  pthread_barrier_wait(&start);
  for (int r = 0; r < ROUNDS; r++) {
    seed = seed * 1103515245u + 12345u;
    int i = (int)(seed >> 8) % RING, j = (int)(seed >> 20) % RING;
    free(ring[i]);
    volatile long *p = ring[i] = obj();
    for (int k = 0; k < 5; k++)
      p[k * 5] = k;
    volatile long *q = ring[j];
    for (int k = 0; k < 3; k++)
      q[k] = r;
  }
  __atomic_add_fetch(&finished, 1, __ATOMIC_RELEASE);
  for (int i = 0; i < RING; i++)
    free(ring[i]);
  return NULL;
}

int main(void) {
  pthread_t t[NTHREADS];
  pthread_barrier_init(&start, NULL, NTHREADS + 1);
  for (long i = 0; i < NTHREADS; i++)
    pthread_create(&t[i], NULL, worker, (void *)(i + 1));
  pthread_barrier_wait(&start);
  int dumps = 0, during = 0;
  while (__atomic_load_n(&finished, __ATOMIC_ACQUIRE) < NTHREADS &&
         dumps < 400) {
    if (__heapprof_dump() != 0)
      return 1;
    dumps++;
    during += __atomic_load_n(&finished, __ATOMIC_ACQUIRE) < NTHREADS;
  }
  for (int i = 0; i < NTHREADS; i++)
    pthread_join(t[i], NULL);
  printf("checkpoints %s\n", during > 1 ? "during the churn" : "too few");
  fprintf(stderr, "%d checkpoints\n", dumps);
  return 0;
}
// OUT: checkpoints during the churn
// No other context has accesses (libc's, for the threads and stdout).
// CHECK: accesses 9600000{{$}}
// CHECK: == Top contexts by bytes
// CHECK: 228.9 MiB in 1200000 objects (200 B each), 0 live (0 B)
// CHECK-NEXT: {{^ +obj }}
// CHECK: 400.0 KiB in 2048 objects (200 B each), 0 live (0 B)
// CHECK-NEXT: {{^ +obj }}
