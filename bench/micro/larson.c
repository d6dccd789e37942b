/*===- larson.c - a larson-style server workload ------------------------===
 *
 *   larson THREADS ROUNDS SLOTS OPS MIN MAX
 *
 * Models the workload of Larson and Krishnan's "larson" benchmark (as
 * mimalloc-bench runs it), written for heapprof from its published
 * description: THREADS chains of threads each own an array of SLOTS blocks
 * of random sizes in [MIN, MAX]; a thread replaces OPS random slots (free
 * the block there, allocate a new one of a random size, write its first and
 * last byte), then hands its array to a successor thread it starts and
 * exits.  ROUNDS threads per chain: the successor frees blocks its
 * predecessor allocated, so most frees are cross-thread, as in a server
 * whose connections move between worker threads.  Prints the allocator
 * throughput (malloc+free pairs per second, wall clock of the whole run)
 * and a checksum that does not depend on the allocator, then the process's
 * minor page faults (getrusage).  Also the CPU time (user + system, all
 * threads) per pair over the same interval: on a shared machine the wall
 * clock also counts time spent waiting for a CPU.
 *
 * As in the original, each chain's record lives in main's stack frame and
 * carries the chain's random generator, a 97-entry shuffle table (Bays and
 * Durham's shuffle, here over splitmix64), so records are about 850 bytes
 * apart and every draw reads and writes the table.  (Until 2026-11-26 the
 * records were two 80-byte structs in one heap block: the two threads then
 * wrote the same cache line, and a shadow-counting profiler's same shadow
 * line, on almost every access -- a layout the original does not have.)
 *===----------------------------------------------------------------------===*/
#include "bench_common.h"

#include <pthread.h>
#include <sys/resource.h>
#include <time.h>

/* A generator whose every draw touches its state in a random place. */
#define SHUFFLE_TABLE 97
struct shuffle_rng {
  uint64_t state, last, table[SHUFFLE_TABLE];
};

static void shuffle_init(struct shuffle_rng *r, uint64_t seed) {
  r->state = seed;
  for (int i = 0; i < SHUFFLE_TABLE; i++)
    r->table[i] = bench_rng_next(&r->state);
  r->last = bench_rng_next(&r->state);
}

/* Uniform enough in [0, n) for a benchmark (n small). */
static uint64_t shuffle_below(struct shuffle_rng *r, uint64_t n) {
  unsigned j = (unsigned)(r->last % SHUFFLE_TABLE);
  r->last = r->table[j];
  r->table[j] = bench_rng_next(&r->state);
  return r->last % n;
}

struct chain {
  unsigned char **slots;
  size_t *sizes;
  long nslots, ops, rounds_left;
  size_t min, max;
  uint64_t sum;
  struct shuffle_rng rng;
};

static long chains_left;
static pthread_mutex_t done_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t done_cond = PTHREAD_COND_INITIALIZER;

static void *round_thread(void *arg) {
  struct chain *c = arg;
  for (long i = 0; i < c->ops; i++) {
    long s = (long)shuffle_below(&c->rng, (uint64_t)c->nslots);
    unsigned char *old = c->slots[s];
    c->sum = c->sum * 31 + old[0] + old[c->sizes[s] - 1];
    free(old);
    size_t n = c->min + shuffle_below(&c->rng, c->max - c->min + 1);
    unsigned char *p = bench_xmalloc(n);
    p[0] = (unsigned char)i;
    p[n - 1] = (unsigned char)(i >> 8);
    c->slots[s] = p;
    c->sizes[s] = n;
  }
  if (--c->rounds_left > 0) {
    pthread_t next;
    if (pthread_create(&next, NULL, round_thread, c) != 0) {
      fprintf(stderr, "larson: pthread_create failed\n");
      exit(3);
    }
    pthread_detach(next);
    return NULL;
  }
  pthread_mutex_lock(&done_lock);
  chains_left--;
  pthread_cond_signal(&done_cond);
  pthread_mutex_unlock(&done_lock);
  return NULL;
}

/* User plus system CPU seconds of all the process's threads so far. */
static double cpu_seconds(void) {
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
         (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

int main(int argc, char **argv) {
  long threads = bench_arg(argc, argv, 1, 2, 1, "THREADS");
  long rounds = bench_arg(argc, argv, 2, 20, 1, "ROUNDS");
  long nslots = bench_arg(argc, argv, 3, 1000, 1, "SLOTS");
  long ops = bench_arg(argc, argv, 4, 100000, 1, "OPS");
  long min = bench_arg(argc, argv, 5, 10, 1, "MIN");
  long max = bench_arg(argc, argv, 6, 1000, min, "MAX");
  if (threads > 100) {
    fprintf(stderr, "larson: at most 100 THREADS\n");
    return 2;
  }
  struct chain cs[100]; /* main's frame, as the original's records */
  struct timespec t0, t1;
  double cpu0 = cpu_seconds();
  clock_gettime(CLOCK_MONOTONIC, &t0);
  chains_left = threads;
  for (long t = 0; t < threads; t++) {
    struct chain *c = &cs[t];
    c->nslots = nslots;
    c->ops = ops;
    c->rounds_left = rounds;
    c->min = (size_t)min;
    c->max = (size_t)max;
    shuffle_init(&c->rng, 0x1234 + (uint64_t)t);
    c->sum = 0;
    c->slots = bench_xmalloc(nslots * sizeof *c->slots);
    c->sizes = bench_xmalloc(nslots * sizeof *c->sizes);
    for (long s = 0; s < nslots; s++) {
      size_t n = c->min + shuffle_below(&c->rng, c->max - c->min + 1);
      c->slots[s] = bench_xmalloc(n);
      c->slots[s][0] = c->slots[s][n - 1] = (unsigned char)s;
      c->sizes[s] = n;
    }
  }
  for (long t = 0; t < threads; t++) {
    pthread_t th;
    if (pthread_create(&th, NULL, round_thread, &cs[t]) != 0)
      return 3;
    pthread_detach(th);
  }
  pthread_mutex_lock(&done_lock);
  while (chains_left)
    pthread_cond_wait(&done_cond, &done_lock);
  pthread_mutex_unlock(&done_lock);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double cpu = cpu_seconds() - cpu0;
  uint64_t sum = 0;
  for (long t = 0; t < threads; t++) {
    sum = sum * 1000003 + cs[t].sum;
    for (long s = 0; s < nslots; s++)
      free(cs[t].slots[s]);
    free(cs[t].slots);
    free(cs[t].sizes);
  }
  double secs = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
  printf("pairs_per_sec %.0f\n", (double)threads * rounds * ops / secs);
  printf("cpu_ns_per_pair %.1f\n",
         cpu * 1e9 / ((double)threads * rounds * ops));
  printf("checksum %" PRIu64 "\n", sum);
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru); /* page faults on the blocks: the allocator's
                                  cost outside its own calls */
  printf("minor_faults %ld\n", ru.ru_minflt);
  return 0;
}
