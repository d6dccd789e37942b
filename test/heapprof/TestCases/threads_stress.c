// 8 threads allocate concurrently, each from a context of its own and from
// one shared context; the counts must come out exact (no lost or doubled
// updates), including chunks freed by another thread than the allocating one.
// Context ids depend on thread scheduling, so the blocks are matched in any
// order in the terse form, MIB:id/count/ave size/min/max/ave acc/min/max/...
// RUN: %clang_rt_heapprof -O0 -fno-builtin -pthread %s -o %t
// RUN: %env_heapprof_opts=log_path=stderr:print_terse=1 %run %t 2>&1 | FileCheck %s
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define THREADS 8
#define N 1000

static void *last[THREADS];

__attribute__((noinline)) static void *shared_site(void) { return malloc(32); }

// One call site per thread: a context per thread (-O0 keeps the identical
// cases apart).
__attribute__((noinline)) static void *own_site(long id) {
  switch (id) {
  case 0: return malloc(24);
  case 1: return malloc(24);
  case 2: return malloc(24);
  case 3: return malloc(24);
  case 4: return malloc(24);
  case 5: return malloc(24);
  case 6: return malloc(24);
  default: return malloc(24);
  }
}

static void *worker(void *arg) {
  long id = (long)arg;
  for (int i = 0; i < N; i++) {
    void *s = shared_site();
    memset(s, 0, 32); // 4 words
    free(s);
    void *o = own_site(id);
    memset(o, 0, 24); // 3 words
    if (i == N - 1)
      last[id] = o; // freed by the main thread
    else
      free(o);
  }
  return NULL;
}

int main(void) {
  pthread_t t[THREADS];
  for (long i = 0; i < THREADS; i++)
    if (pthread_create(&t[i], NULL, worker, (void *)i))
      return 1;
  for (int i = 0; i < THREADS; i++)
    pthread_join(t[i], NULL);
  for (int i = 0; i < THREADS; i++)
    free(last[i]);
  return 0;
}
// CHECK-DAG: MIB:{{[0-9]+}}/8000/32.00/32/32/4.00/4/4/
// CHECK-DAG: MIB:{{[0-9]+}}/1000/24.00/24/24/3.00/3/3/
// CHECK-DAG: MIB:{{[0-9]+}}/1000/24.00/24/24/3.00/3/3/
// CHECK-DAG: MIB:{{[0-9]+}}/1000/24.00/24/24/3.00/3/3/
// CHECK-DAG: MIB:{{[0-9]+}}/1000/24.00/24/24/3.00/3/3/
// CHECK-DAG: MIB:{{[0-9]+}}/1000/24.00/24/24/3.00/3/3/
// CHECK-DAG: MIB:{{[0-9]+}}/1000/24.00/24/24/3.00/3/3/
// CHECK-DAG: MIB:{{[0-9]+}}/1000/24.00/24/24/3.00/3/3/
// CHECK-DAG: MIB:{{[0-9]+}}/1000/24.00/24/24/3.00/3/3/
// Nothing of ours is left over or split: no other block of these sizes.
// CHECK-NOT: MIB:{{[0-9]+}}/{{[0-9]+}}/{{24|32}}.00/
// CHECK: Stack for id
