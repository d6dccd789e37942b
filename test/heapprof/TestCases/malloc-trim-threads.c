// malloc_trim while four threads allocate, write, check and free blocks of
// varied sizes (small classes and large ones, cached and on the spans'
// lists): a page it gives back must only ever hold free blocks, so every
// block a thread reads back still holds what it wrote.
// RUN: %clang_heapprof -O1 -pthread %s -o %t
// RUN: %run %t | FileCheck %s
// RUN: %clang_plain -O1 -pthread %s -o %t.plain
// RUN: rm -rf %t.d && env -u LD_PRELOAD heapprof run -o %t.d -- %t.plain | FileCheck %s
// RUN: rm -rf %t.r && env -u LD_PRELOAD HEAPPROF_OPTIONS=release_freed_pages=1 heapprof run -o %t.r -- %t.plain | FileCheck %s
// CHECK: bad 0 trims {{[1-9][0-9]*}} released {{[1-9][0-9]*}}
#define _GNU_SOURCE
#include <malloc.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
enum { T = 4, SLOTS = 512, ROUNDS = 50000 };
static volatile int done;
static long bad;
static void *worker(void *arg) {
  unsigned seed = (unsigned)(size_t)arg * 7919 + 1;
  static __thread unsigned char *slot[SLOTS];
  static __thread size_t len[SLOTS];
  for (int r = 0; r < ROUNDS; r++) {
    unsigned i = rand_r(&seed) % SLOTS;
    if (slot[i]) {
      for (size_t k = 0; k < len[i]; k++)
        if (slot[i][k] != (unsigned char)(len[i] + k)) { __atomic_add_fetch(&bad, 1, __ATOMIC_RELAXED); break; }
      free(slot[i]);
      slot[i] = NULL;
    } else {
      size_t n = 1 + rand_r(&seed) % (rand_r(&seed) % 8 ? 600 : 20000);
      slot[i] = malloc(n);
      len[i] = n;
      for (size_t k = 0; k < n; k++) slot[i][k] = (unsigned char)(n + k);
    }
  }
  for (int i = 0; i < SLOTS; i++) free(slot[i]);
  return NULL;
}
int main(void) {
  pthread_t t[T];
  for (long i = 0; i < T; i++) pthread_create(&t[i], NULL, worker, (void *)i);
  long trims = 0, released = 0;
  for (int i = 0; i < T; i++) {
    while (pthread_tryjoin_np(t[i], NULL)) { released += malloc_trim(0); trims++; }
  }
  // Every block is free now, the threads' caches given back at their
  // exits: this one surely releases pages.
  released += malloc_trim(0);
  trims++;
  printf("bad %ld trims %ld released %ld\n", bad, trims, released);
  return bad != 0;
}
