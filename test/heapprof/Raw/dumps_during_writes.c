// Checkpoints taken while another thread writes a live object as fast as
// it can.  A counter update is a load, an add and a store, not atomic: a
// dump that restarted the object's counters by writing zeros over them
// (before the baseline shadow, docs/design.md "Checkpoints") could land
// between the writer's load and store, which then put back the old count
// plus one, and the next dump counted those accesses again (100 million
// stores came out as 4.6 to 5.3 billion accesses).  A dump now only reads
// the counters: every store is counted once over the checkpoints and the
// exit profile, whichever way they meet.  The same with heapprof's own
// allocator, in sampled mode (a 4000-byte object with sample_bytes=1 is
// always sampled, weight 1) and on glibc's allocator (allocator=system).
// RUN: %clang_heapprof -O1 %s -o %t
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: env HEAPPROF_OPTIONS=profile_dir=%t.dir %run %t 2>&1 | FileCheck %s --check-prefix=OUT
// RUN: heapprof report %t.dir | FileCheck %s
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: env HEAPPROF_OPTIONS=sample_bytes=1:sample_seed=7:profile_dir=%t.dir %run %t 2>&1 | FileCheck %s --check-prefix=OUT
// RUN: heapprof report %t.dir | FileCheck %s
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: env HEAPPROF_OPTIONS=allocator=system:profile_dir=%t.dir %run %t 2>&1 | FileCheck %s --check-prefix=OUT
// RUN: heapprof report %t.dir | FileCheck %s
#include <heapprof/heapprof_interface.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define STORES 20000000L
static long *volatile obj;
static int started, dumped, done;

__attribute__((noinline)) long *make(void) { return malloc(4000); }

static void *writer(void *arg) {
  (void)arg;
  volatile long *p = obj;
  __atomic_store_n(&started, 1, __ATOMIC_RELEASE);
  for (long i = 0; i < STORES / 2; i++)
    p[0] = i; /* one store, one access */
  /* At least one checkpoint falls inside the writes: on a loaded machine
   * the writer could run all 20 million stores before main was scheduled
   * (1 checkpoint, after them: "checkpoints none", 1 run in 90 with two
   * busy loops on two cores). */
  while (!__atomic_load_n(&dumped, __ATOMIC_ACQUIRE))
    ;
  for (long i = STORES / 2; i < STORES; i++)
    p[0] = i;
  __atomic_store_n(&done, 1, __ATOMIC_RELEASE);
  return NULL;
}

int main(void) {
  obj = make();
  pthread_t t;
  pthread_create(&t, NULL, writer, NULL);
  while (!__atomic_load_n(&started, __ATOMIC_ACQUIRE))
    ;
  int dumps = 0, during = 0;
  while (!__atomic_load_n(&done, __ATOMIC_ACQUIRE) && dumps < 1000) {
    if (__heapprof_dump() != 0)
      return 1;
    dumps++;
    during += !__atomic_load_n(&done, __ATOMIC_ACQUIRE);
    __atomic_store_n(&dumped, 1, __ATOMIC_RELEASE);
  }
  pthread_join(t, NULL);
  printf("checkpoints %s\n", during > 0 ? "during the writes" : "none");
  fprintf(stderr, "%d checkpoints\n", dumps);
  free(obj);
  return 0;
}
// OUT: checkpoints during the writes
// The object's context: 20000000 stores, each counted once.
// CHECK: == Top contexts by bytes
// CHECK: 4000 B in 1 object (4000 B each), 0 live (0 B), 20000000 accesses
// CHECK-NEXT: make
