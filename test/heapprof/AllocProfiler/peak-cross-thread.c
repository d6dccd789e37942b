// The peak when chunks are freed by another thread than the one that
// allocated them, and when a thread's live table passes to a new thread.
// Each thread keeps per context its allocations minus its frees
// (heapprof_peak.h); a snapshot adds up every thread's table.
//   - a producer thread allocates 1000 x 1 KiB at site P and waits (its
//     table: P +1000);
//   - a consumer thread frees 600 of them and exits (its table: P -600;
//     the table goes to the next new thread);
//   - a third thread, with the consumer's table, allocates 8 x 128 KiB at
//     site Q (1 MiB) and frees them: the snapshot at the first free is the
//     top, 400 KiB of P and 1 MiB of Q, above the first snapshot (the
//     consumer's first free, 1000 KiB);
//   - the producer exits.
// The top: P 400 objects, 409600 bytes; Q 8 objects, 1048576 bytes.
// RUN: %clang_heapprof -O0 -g %s -o %t -lpthread
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: %env_heapprof_opts=profile_dir=%t.d %run %t
// RUN: heapprof report --format json --top 0 %t.d > %t.json
// RUN: %python %S/Inputs/peak_check.py %t.json site_p=400,409600 site_q=8,1048576
// glibc may allocate a few hundred bytes per thread for itself (its TLS
// vector).  The allocator's bytes of the top's chunks hold their headers.
// RUN: %python -c "import json,sys; p=json.load(open(sys.argv[1]))['peak']; assert 1458176 <= p['bytes'] < 1458176 + 4096 and 408 <= p['objects'] <= 408 + 3 * 2 and p['block_bytes'] >= p['bytes'] + 32 * p['objects'], p" %t.json
#include <pthread.h>
#include <stdlib.h>

enum { N = 1000, FREED = 600, Q = 8 };
__attribute__((noinline)) static char *site_p(void) { return malloc(1024); }
__attribute__((noinline)) static char *site_q(void) { return malloc(128 << 10); }
static char *volatile p[N];
static pthread_barrier_t made, done;

static void *producer(void *arg) {
  for (int i = 0; i < N; i++)
    p[i] = site_p();
  pthread_barrier_wait(&made);
  pthread_barrier_wait(&done); // alive, with its table, until the end
  return arg;
}

static void *consumer(void *arg) {
  for (int i = 0; i < FREED; i++)
    free(p[i]);
  return arg;
}

static void *third(void *arg) {
  char *volatile q[Q];
  for (int i = 0; i < Q; i++)
    q[i] = site_q();
  for (int i = 0; i < Q; i++)
    free(q[i]); // the first is the top
  return arg;
}

static void run(void *(*fn)(void *)) {
  pthread_t t;
  pthread_create(&t, NULL, fn, NULL);
  pthread_join(t, NULL);
}

int main(void) {
  pthread_barrier_init(&made, NULL, 2);
  pthread_barrier_init(&done, NULL, 2);
  pthread_t prod;
  pthread_create(&prod, NULL, producer, NULL);
  pthread_barrier_wait(&made);
  run(consumer);
  run(third);
  pthread_barrier_wait(&done);
  pthread_join(prod, NULL);
  for (int i = FREED; i < N; i++)
    free(p[i]);
  return 0;
}
