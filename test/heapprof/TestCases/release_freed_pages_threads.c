// release_freed_pages with threads: 4 threads allocate chunks of 1000 and
// 5000 bytes, write a pattern into each, free every other one, check the
// survivors, for 20 rounds, with a 4 KiB threshold so release passes run
// all the time under region locks while the other threads drain and refill
// the same classes.  A page released under a live chunk would read as zeros
// (or lose its header, making free report an error): every chunk must hold
// its pattern, and the counters must show that pages really went.
// RUN: %clang_rt_heapprof -O0 -pthread %s -o %t
// RUN: %env_heapprof_opts=release_freed_pages=1:release_threshold_kb=4:junk_fill=1:print_stats=1:log_path=%t.prof %run %t 2>&1 | FileCheck %s
// The same with release_idle_ms=0 alone: an idle pass at every refill and
// drain, under the region locks the other threads drain and refill under.
// RUN: %env_heapprof_opts=release_idle_ms=0:junk_fill=1:print_stats=1:log_path=%t.prof %run %t 2>&1 | FileCheck %s --check-prefix=IDLE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define THREADS 4
#define PER 1000
#define ROUNDS 20

static int bad[THREADS];

static void *work(void *arg) {
  int t = (int)(long)arg;
  static __thread char *v[PER];
  for (int r = 0; r < ROUNDS; r++) {
    for (int i = 0; i < PER; i++) {
      size_t n = i % 3 ? 1000 : 5000;
      v[i] = malloc(n);
      memset(v[i], (t * 31 + r * 7 + i) & 0x7f, n);
    }
    for (int i = 0; i < PER; i += 2)
      free(v[i]);
    for (int i = 1; i < PER; i += 2) {
      size_t n = i % 3 ? 1000 : 5000;
      char want = (char)((t * 31 + r * 7 + i) & 0x7f);
      for (size_t k = 0; k < n; k += 61)
        bad[t] += v[i][k] != want;
      free(v[i]);
    }
  }
  return NULL;
}

int main(void) {
  pthread_t th[THREADS];
  for (long t = 0; t < THREADS; t++)
    pthread_create(&th[t], NULL, work, (void *)t);
  int total = 0;
  for (int t = 0; t < THREADS; t++) {
    pthread_join(th[t], NULL);
    total += bad[t];
  }
  fprintf(stderr, "corrupt bytes: %d\n", total);
  return total != 0;
}
// CHECK: corrupt bytes: 0
// CHECK: release_passes {{[1-9][0-9]*}} release_freed_pages passes
// CHECK-NEXT: pages_released {{[1-9][0-9]*}} 4 KiB pages
// CHECK-NEXT: idle_passes {{[0-9]+}} release_idle_ms passes
// CHECK-NEXT: invalid_frees 0 invalid/double frees
// IDLE: corrupt bytes: 0
// IDLE: idle_passes {{[1-9][0-9]*}} release_idle_ms passes
// IDLE-NEXT: invalid_frees 0 invalid/double frees
