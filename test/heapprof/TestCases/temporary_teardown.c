// Temporary allocations of threads whose state heapprof has torn down: a
// pthread key destructor of the program's runs after heapprof's, and what
// it allocates goes through the fallback state that such threads share.
// The latest allocation was kept in that shared state, so one thread's
// allocation in between made another's object not temporary, and another
// thread's free of it made it temporary.  Two threads' key destructors,
// in lock step, 100 times: allocate 48 bytes, wait for the other to have
// allocated, free, wait: each object is freed before its thread allocated
// again, 200 of 200 temporary (100 before).  Then thread 1 allocates 80
// bytes that thread 2 frees: freed on another thread, 0 of 1 (1 before).
// DEFINE: %{sites} = import json,sys; r = json.load(sys.stdin); [print(f, sum(c['allocs'] for c in r['contexts'] if c['stack'][0]['function'] == f), sum(c['temporary'] for c in r['contexts'] if c['stack'][0]['function'] == f)) for f in ('tmp_site', 'cross_site')]
// RUN: %clang_heapprof -O0 -g %s -o %t -lpthread
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: %env_heapprof_opts=profile_dir=%t.d %run %t
// RUN: heapprof report --format json --top 0 %t.d | %python -c "%{sites}" | FileCheck %s
// RUN: %clang_plain -O0 -g %s -o %t.plain -lpthread
// RUN: rm -rf %t.r && heapprof run -o %t.r -- %t.plain
// RUN: heapprof report --format json --top 0 %t.r | %python -c "%{sites}" | FileCheck %s
// RUN: rm -rf %t.s && heapprof run --allocator=system -o %t.s -- %t.plain
// RUN: heapprof report --format json --top 0 %t.s | %python -c "%{sites}" | FileCheck %s
// CHECK: tmp_site 200 200
// CHECK-NEXT: cross_site 1 0
#include <pthread.h>
#include <stdlib.h>

#define ROUNDS 100
static pthread_key_t key;
static pthread_barrier_t bar;
static void *volatile shared;

__attribute__((noinline)) void *tmp_site(void) { return malloc(48); }
__attribute__((noinline)) void *cross_site(void) { return malloc(80); }

static void late(void *v) {
  long id = (long)v;
  for (int i = 0; i < ROUNDS; i++) {
    void *volatile p = tmp_site();
    pthread_barrier_wait(&bar); /* both have allocated */
    free(p);
    pthread_barrier_wait(&bar);
  }
  if (id == 1)
    shared = cross_site();
  pthread_barrier_wait(&bar);
  if (id == 2)
    free(shared);
}

static void *worker(void *arg) {
  pthread_setspecific(key, arg);
  return NULL;
}

int main(void) {
  pthread_key_create(&key, late);
  pthread_barrier_init(&bar, NULL, 2);
  pthread_t a, b;
  pthread_create(&a, NULL, worker, (void *)1);
  pthread_create(&b, NULL, worker, (void *)2);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  return 0;
}
