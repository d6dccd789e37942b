/*===- xmalloc.c - an xmalloc-test-style producer/consumer workload -----===
 *
 *   xmalloc PAIRS_OF_THREADS BATCHES BATCH MIN MAX
 *
 * Models the workload of Lever and Boreham's xmalloc-test (as
 * mimalloc-bench runs it), written for heapprof from its published
 * description: producer threads allocate blocks, consumer threads free
 * them.  Each of PAIRS_OF_THREADS producers allocates BATCHES batches of
 * BATCH blocks of random sizes in [MIN, MAX] (writing their first byte) and
 * pushes each full batch on a shared queue; as many consumers pop batches
 * and free every block (reading its first byte).  Every free is of another
 * thread's block, and the allocator's thread caches see one-way traffic.
 * Prints the throughput (blocks allocated and freed per second, wall clock)
 * and a checksum that does not depend on the allocator, then the process's
 * minor page faults (getrusage).  Also the CPU time (user + system, all
 * threads) per block over the same interval.
 *===----------------------------------------------------------------------===*/
#include "bench_common.h"

#include <pthread.h>
#include <sys/resource.h>
#include <time.h>

struct batch {
  struct batch *next;
  long n;
  unsigned char *blocks[];
};

static struct batch *queue;
static long batches_left; /* still to be consumed */
static pthread_mutex_t qlock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t qcond = PTHREAD_COND_INITIALIZER;
static long nbatches, batch_size;
static size_t min_size, max_size;

static void *producer(void *arg) {
  uint64_t rng = 0x5eed + (uint64_t)(uintptr_t)arg;
  for (long b = 0; b < nbatches; b++) {
    struct batch *bt = bench_xmalloc(sizeof *bt + batch_size * sizeof(void *));
    bt->n = batch_size;
    for (long i = 0; i < batch_size; i++) {
      size_t n = min_size + bench_rng_below(&rng, max_size - min_size + 1);
      bt->blocks[i] = bench_xmalloc(n);
      bt->blocks[i][0] = (unsigned char)(i + b);
    }
    pthread_mutex_lock(&qlock);
    bt->next = queue;
    queue = bt;
    pthread_cond_signal(&qcond);
    pthread_mutex_unlock(&qlock);
  }
  return NULL;
}

static void *consumer(void *arg) {
  uint64_t *sum = arg;
  for (;;) {
    pthread_mutex_lock(&qlock);
    while (!queue && batches_left)
      pthread_cond_wait(&qcond, &qlock);
    if (!batches_left) {
      pthread_mutex_unlock(&qlock);
      return NULL;
    }
    struct batch *bt = queue;
    queue = bt->next;
    if (--batches_left == 0)
      pthread_cond_broadcast(&qcond);
    pthread_mutex_unlock(&qlock);
    for (long i = 0; i < bt->n; i++) {
      *sum += bt->blocks[i][0];
      free(bt->blocks[i]);
    }
    free(bt);
  }
}

/* User plus system CPU seconds of all the process's threads so far. */
static double cpu_seconds(void) {
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
         (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

int main(int argc, char **argv) {
  long pairs = bench_arg(argc, argv, 1, 1, 1, "PAIRS_OF_THREADS");
  nbatches = bench_arg(argc, argv, 2, 2000, 1, "BATCHES");
  batch_size = bench_arg(argc, argv, 3, 100, 1, "BATCH");
  min_size = (size_t)bench_arg(argc, argv, 4, 8, 1, "MIN");
  max_size = (size_t)bench_arg(argc, argv, 5, 512, (long)min_size, "MAX");
  batches_left = pairs * nbatches;
  pthread_t *th = bench_xmalloc(2 * pairs * sizeof *th);
  uint64_t *sums = calloc(pairs, sizeof *sums);
  struct timespec t0, t1;
  double cpu0 = cpu_seconds();
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (long i = 0; i < pairs; i++) {
    if (pthread_create(&th[i], NULL, producer, (void *)(uintptr_t)i) ||
        pthread_create(&th[pairs + i], NULL, consumer, &sums[i]))
      return 3;
  }
  for (long i = 0; i < 2 * pairs; i++)
    pthread_join(th[i], NULL);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double cpu = cpu_seconds() - cpu0;
  uint64_t sum = 0;
  for (long i = 0; i < pairs; i++)
    sum += sums[i];
  double secs = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
  printf("blocks_per_sec %.0f\n", (double)pairs * nbatches * batch_size / secs);
  printf("cpu_ns_per_block %.1f\n",
         cpu * 1e9 / ((double)pairs * nbatches * batch_size));
  printf("checksum %" PRIu64 "\n", sum);
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru); /* page faults on the blocks: the allocator's
                                  cost outside its own calls */
  printf("minor_faults %ld\n", ru.ru_minflt);
  free(th);
  free(sums);
  return 0;
}
