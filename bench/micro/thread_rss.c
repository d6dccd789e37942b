/*===- thread_rss.c - what each live thread costs in resident memory -----===
 *
 *   thread_rss THREADS OBJECTS   THREADS threads alive at once (64 KiB
 *                                stacks), each with OBJECTS objects of
 *                                16 B .. 2 KiB (eight sizes in turn),
 *                                written, then freed once all are up
 *
 * Prints the resident set before the threads start and once all of them
 * hold their objects (/proc/self/statm), and the difference per thread:
 * the thread's stack and TLS, the allocator's per-thread state and the
 * objects.  Run by hand (docs/performance.md, "A thread's resident
 * memory"): built plain, alone (glibc) and under heapprof run.
 *===----------------------------------------------------------------------===*/
#include "bench_common.h"

#include <pthread.h>
#include <string.h>

static pthread_barrier_t all_up, done;
static long objects;

static void *run(void *arg) {
  char **p = arg;
  for (long i = 0; i < objects; i++) {
    size_t n = (size_t)16 << (i % 8);
    p[i] = bench_xmalloc(n);
    memset(p[i], 1, n);
  }
  pthread_barrier_wait(&all_up);
  pthread_barrier_wait(&done);
  for (long i = 0; i < objects; i++)
    free(p[i]);
  return NULL;
}

int main(int argc, char **argv) {
  long threads = bench_arg(argc, argv, 1, 1000, 1, "THREADS");
  objects = bench_arg(argc, argv, 2, 16, 0, "OBJECTS");
  pthread_t *t = bench_xmalloc(threads * sizeof(pthread_t));
  char **slots = bench_xmalloc(threads * (objects + 1) * sizeof(char *));
  pthread_barrier_init(&all_up, NULL, (unsigned)threads + 1);
  pthread_barrier_init(&done, NULL, (unsigned)threads + 1);
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, 64 * 1024);
  long before = bench_rss_kib();
  for (long i = 0; i < threads; i++)
    if (pthread_create(&t[i], &attr, run, slots + i * (objects + 1))) {
      fprintf(stderr, "pthread_create failed at thread %ld\n", i);
      return 1;
    }
  pthread_barrier_wait(&all_up);
  long up = bench_rss_kib();
  pthread_barrier_wait(&done);
  for (long i = 0; i < threads; i++)
    pthread_join(t[i], NULL);
  printf("threads %ld objects %ld: resident %ld KiB before, %ld KiB with "
         "all up: %.1f KiB a thread\n",
         threads, objects, before, up, (double)(up - before) / threads);
  return 0;
}
