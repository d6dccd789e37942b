// Passive false sharing of one allocation site with itself: 100 threads,
// one after the other, each allocate a 32-byte counter from the same
// function.  Packed at 16 bytes, each line holds two consecutive threads'
// counters: 50 lines shared, all by the pair (alloc_counter, itself).
//
// RUN: %clang_heapprof -O0 -g %s -o %t -lpthread
// RUN: rm -rf %t.dir && mkdir %t.dir
// RUN: %env_heapprof_opts=false_sharing=1:profile_dir=%t.dir %run %t
// RUN: heapprof report %t.dir | FileCheck %s
#include <pthread.h>
#include <stdlib.h>

#define THREADS 100
static void *volatile objs[THREADS];
static int k;

__attribute__((noinline)) static void *alloc_counter(void) {
  return malloc(32);
}
static void *run(void *arg) {
  objs[k] = alloc_counter();
  return NULL;
}

int main(void) {
  for (k = 0; k < THREADS; k++) {
    pthread_t t;
    pthread_create(&t, NULL, run, NULL);
    pthread_join(t, NULL);
  }
  return 0;
}

// CHECK: passive: 50 of {{[0-9]+}} cache lines would hold objects allocated by different threads
// CHECK: passive lines active writes active lines context with context
// CHECK-NEXT: 50 0 0 alloc_counter ({{.*}}fshare-one-site.c:{{[0-9]+}}:{{[0-9]+}}) itself, on another thread
