// The leak check's roots beyond globals: another thread's stack, static
// thread-local storage (the main thread's and another's), a
// pthread_setspecific value, and glibc's vector of a thread's TLS blocks.
// A worker allocates 1000 bytes held only by a local on its stack, 2000
// held only by its __thread variable, 3000 held only by its specific
// value, then waits forever; main, once the worker is ready, stores 5000
// bytes in its own __thread variable and calls exit.  The fifth live
// object is the worker's dtv, which glibc callocs for a new thread and
// only the thread's control block points to.  None of the five is a leak,
// and one other thread was running at the check.  (Without the TLS
// scanned, 2000, 3000, 5000 and the dtv read as direct leaks.)
// RUN: %clang_heapprof -O0 -g -pthread %s -o %t
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: %env_heapprof_opts=profile_dir=%t.d %run %t
// RUN: heapprof show %t.d/*.profraw | FileCheck %s
// The same program not rebuilt, on glibc's allocator:
// RUN: %clang_plain -O0 -g -pthread %s -o %t.plain
// RUN: rm -rf %t.sys && env -u LD_PRELOAD heapprof run -o %t.sys --allocator=system -- %t.plain
// RUN: heapprof show %t.sys/*.profraw | FileCheck %s
// CHECK: leaks: head_words=10 objects=5 root_bytes={{[1-9][0-9]*}} direct_objects=0 direct_bytes=0 indirect_objects=0 indirect_bytes=0 threads_running=1 row_words=5 nrows=0{{$}}
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

static __thread void *tls_keep;
static pthread_key_t key;
static pthread_barrier_t ready;

static void *worker(void *arg) {
  void *volatile on_stack = malloc(1000);
  tls_keep = malloc(2000);
  pthread_setspecific(key, malloc(3000));
  pthread_barrier_wait(&ready);
  for (;;)
    pause();
  return on_stack;
}

int main(void) {
  pthread_key_create(&key, NULL);
  pthread_barrier_init(&ready, NULL, 2);
  pthread_t t;
  pthread_create(&t, NULL, worker, NULL);
  pthread_barrier_wait(&ready);
  tls_keep = malloc(5000);
  exit(0);
}
