// Checkpoints written while 4 threads allocate and free: a dump flushes the
// threads' HIB caches and marks live chunks reported while frees update
// chunk headers and merge into those caches.  Summed over the 20 checkpoints
// and the exit profile, the worker context must count each of its
// 4 x 30000 objects exactly once (a lost or doubled update changes the sum).
// RUN: %clang_rt_heapprof -O0 -fno-builtin -pthread %s -o %t
// RUN: rm -rf %t.d
// RUN: %env_heapprof_opts=print_text=1:print_raw=0:print_terse=1:profile_dir=%t.d %run %t
// RUN: ls %t.d | wc -l | FileCheck %s --check-prefix=FILES
// RUN: cat %t.d/*.txt | awk '/^Stack for id/ { id = $4 } /in worker_site/ { w[id] = 1 } /^MIB:/ { split(substr($0, 5), f, "/"); n[f[1]] += f[2] } END { for (i in w) s += n[i+0 ""]; print "worker objects", s }' | FileCheck %s
// FILES: 21
// CHECK: worker objects 120000
#include <heapprof/heapprof_interface.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>

#define THREADS 4
#define N 30000
#define RING 16

static int started;

__attribute__((noinline)) static char *worker_site(void) { return malloc(40); }

static void *work(void *arg) {
  char *ring[RING] = {0};
  __atomic_add_fetch(&started, 1, __ATOMIC_SEQ_CST);
  for (int i = 0; i < N; i++) {
    free(ring[i % RING]);
    ring[i % RING] = worker_site();
    ring[i % RING][0] = (char)i;
  }
  for (int i = 0; i < RING; i++)
    free(ring[i]);
  return arg;
}

int main(void) {
  pthread_t th[THREADS];
  for (int i = 0; i < THREADS; i++)
    pthread_create(&th[i], NULL, work, NULL);
  while (__atomic_load_n(&started, __ATOMIC_SEQ_CST) < THREADS)
    sched_yield();
  for (int d = 0; d < 20; d++) {
    if (__heapprof_dump() != 0)
      return 1;
    sched_yield();
  }
  for (int i = 0; i < THREADS; i++)
    pthread_join(th[i], NULL);
  return 0;
}
