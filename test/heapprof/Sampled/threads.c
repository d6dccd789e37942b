// Four threads, each with its own countdown and random stream, allocate
// 50000 blocks of 1000 bytes from one site, freeing each block in the
// thread that allocates the next one's neighbour (a ring passed between
// threads, so frees cross threads).  The estimate of the 200000 objects has
// the same bounds as estimates.c's site a (same n, size and sample_bytes):
// sigma 3607, 5 sigma [181965, 218035]; the average size is exact.
// RUN: %clang_rt_heapprof -O0 -pthread %s -o %t
// RUN: %env_heapprof_opts=log_path=stderr:print_module_map=0:sample_bytes=65536:sample_seed=99 %run %t 2> %t.out
// RUN: %python %S/Inputs/check_estimates.py %t.out 181965:218035:1000.00 | FileCheck %s
// CHECK: context 1: ok
#include <pthread.h>
#include <stdlib.h>

enum { THREADS = 4, PER_THREAD = 50000, RING = 256 };
static void *volatile ring[RING];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned next_slot;

__attribute__((noinline)) static void *site(void) { return malloc(1000); }

static void *work(void *arg) {
  (void)arg;
  for (int i = 0; i < PER_THREAD; i++) {
    void *p = site();
    pthread_mutex_lock(&lock);
    unsigned k = next_slot++ % RING;
    void *old = ring[k];
    ring[k] = p;
    pthread_mutex_unlock(&lock);
    free(old); // often another thread's block
  }
  return NULL;
}

int main(void) {
  pthread_t t[THREADS];
  for (int i = 0; i < THREADS; i++)
    pthread_create(&t[i], NULL, work, NULL);
  for (int i = 0; i < THREADS; i++)
    pthread_join(t[i], NULL);
  for (int i = 0; i < RING; i++)
    free(ring[i]);
  return 0;
}
