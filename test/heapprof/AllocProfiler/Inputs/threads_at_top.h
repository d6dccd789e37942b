// threads_at_top: run_to_top(worker, site_m, while_running), the
// synchronised top of the multi-threaded peak tests (peak-threads.c,
// peak-threads-churn.c).  Main allocates 2 blocks at the test's site_m and
// starts THREADS (the test defines it) workers, worker(i) for i = 0 ..
// THREADS-1.  Each worker allocates its share of the top, then calls
// wait_for_top(): it returns once every worker has allocated and main has
// freed its first site_m block (the first free after the top: the
// snapshot there sees every thread's blocks).  Then main runs
// while_running (NULL: nothing) as the workers go on, joins them and frees
// its second block.  What the workers allocate and free is each test's.
#ifndef HEAPPROF_TEST_THREADS_AT_TOP_H
#define HEAPPROF_TEST_THREADS_AT_TOP_H
#include <pthread.h>
#include <stdlib.h>

static pthread_barrier_t allocated, top_taken;

static void wait_for_top(void) {
  pthread_barrier_wait(&allocated);
  pthread_barrier_wait(&top_taken);
}

static void run_to_top(void *(*worker)(void *), char *(*site_m)(void),
                       void (*while_running)(void)) {
  pthread_t t[THREADS];
  pthread_barrier_init(&allocated, NULL, THREADS + 1);
  pthread_barrier_init(&top_taken, NULL, THREADS + 1);
  char *volatile m[2];
  m[0] = site_m();
  m[1] = site_m();
  for (long i = 0; i < THREADS; i++)
    pthread_create(&t[i], NULL, worker, (void *)i);
  pthread_barrier_wait(&allocated);
  free(m[0]); // the first free after the top
  pthread_barrier_wait(&top_taken);
  if (while_running)
    while_running();
  for (int i = 0; i < THREADS; i++)
    pthread_join(t[i], NULL);
  free(m[1]);
}

#endif
