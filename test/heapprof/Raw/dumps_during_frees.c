// Checkpoints taken while other threads free as fast as they can: a free
// merges into its thread's HIB cache without a lock (the owner section,
// docs/design.md, "Heap Info Blocks"), and a checkpoint flushes every
// thread's cache from the dumping thread.  Whichever way each free and
// each flush meet, every object is counted once over the checkpoints and
// the exit dump.
// RUN: %clang_heapprof -O1 %s -o %t
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: %env_heapprof_opts=print_raw=1:print_text=0:profile_dir=%t.dir %run %t | FileCheck %s --check-prefix=OUT
// RUN: heapprof show %t.dir/*.profraw > %t.show
// RUN: %python %S/Inputs/sum_show.py %t.show | FileCheck %s
#include <heapprof/heapprof_interface.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define NTHREADS 4
#define PAIRS 200000
static pthread_barrier_t start;
static int finished;

__attribute__((noinline)) void *obj(size_t n) { return malloc(n); }

static void *worker(void *arg) {
  (void)arg;
  pthread_barrier_wait(&start);
  for (int i = 0; i < PAIRS; i++) {
    char *volatile p = obj(48);
    p[0] = 1;
    free(p);
  }
  __atomic_add_fetch(&finished, 1, __ATOMIC_RELEASE);
  return NULL;
}

int main(void) {
  pthread_t t[NTHREADS];
  pthread_barrier_init(&start, NULL, NTHREADS + 1);
  for (long i = 0; i < NTHREADS; i++)
    pthread_create(&t[i], NULL, worker, NULL);
  pthread_barrier_wait(&start);
  int dumps = 0;
  while (__atomic_load_n(&finished, __ATOMIC_ACQUIRE) < NTHREADS &&
         dumps < 200) {
    if (__heapprof_dump() != 0)
      return 1;
    dumps++;
  }
  for (int i = 0; i < NTHREADS; i++)
    pthread_join(t[i], NULL);
  printf("checkpoints %s\n", dumps > 0 ? "taken" : "none");
  fprintf(stderr, "%d checkpoints\n", dumps);
  return 0;
}
// OUT: checkpoints taken
// 4 threads x 200000 objects of 48 bytes, all freed.  (The other contexts
// are libc's: pthread_create's and stdout's buffer.)
// CHECK: context AllocCount=800000 TotalSize=38400000 {{.*}}live_at_dump=0
// CHECK: bin 48: allocs=800000 bytes=38400000 frees=800000 freed_bytes=38400000{{$}}
