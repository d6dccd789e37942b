// Every allocator call is counted in exactly one operation class: kind x
// small/large x new/reused block x serial/parallel (docs/allocator-profiler.md).
// Checkpoints bracket each phase, so each dump's section 2 holds exactly
// the calls of that phase (a dump records the change since the last one).
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: %clangxx_heapprof -O0 %s -o %t -lpthread
// RUN: %env_heapprof_opts=log_path=%t.dir/p:print_raw=1:print_text=0:cycle_sample_every=1 %run %t
// RUN: heapprof show %t.dir/p.*.2.profraw | grep -A100 'op classes' | FileCheck %s --check-prefix=SERIAL
// RUN: heapprof show %t.dir/p.*.3.profraw | grep ' parallel:' | FileCheck %s --check-prefix=PARALLEL
// Every class's mean, rounded as the report prints it.
// RUN: heapprof show %t.dir | %python %S/Inputs/show_means.py | FileCheck %s --check-prefix=MEANS
// MEANS: means checked: some
#include <heapprof/heapprof_interface.h>
#include <malloc.h>
#include <pthread.h>
#include <stdlib.h>

enum { N = 5, SMALL = 100, LARGE = 200000 }; // 200000 + header > 128 KiB

static pthread_barrier_t bar;

// Each kind uses its own size class, one no other call touches, so the
// first N blocks of it are new (never handed out) and, after they are
// freed, the next N come back from the thread's cache: reused.
static void phase(void) {
  void *volatile keep[N]; // each thread its own
  // malloc: N new, N reused, N large; 3N frees.
  for (int i = 0; i < N; i++) keep[i] = malloc(SMALL);
  for (int i = 0; i < N; i++) free(keep[i]);
  for (int i = 0; i < N; i++) keep[i] = malloc(SMALL);
  for (int i = 0; i < N; i++) free(keep[i]);
  for (int i = 0; i < N; i++) { keep[i] = malloc(LARGE); free(keep[i]); }
  // calloc: N new, N reused (200-byte class), N large.
  for (int i = 0; i < N; i++) keep[i] = calloc(1, 2 * SMALL);
  for (int i = 0; i < N; i++) free(keep[i]);
  for (int i = 0; i < N; i++) keep[i] = calloc(1, 2 * SMALL);
  for (int i = 0; i < N; i++) free(keep[i]);
  for (int i = 0; i < N; i++) { keep[i] = calloc(LARGE, 1); free(keep[i]); }
  // The memalign family (300-byte class): posix_memalign, aligned_alloc,
  // memalign, valloc... one op kind.  N new, N reused, N large.
  for (int i = 0; i < N; i++) {
    void *p;
    posix_memalign(&p, 64, 3 * SMALL);
    keep[i] = p;
  }
  for (int i = 0; i < N; i++) free(keep[i]);
  keep[0] = aligned_alloc(64, 3 * SMALL);
  keep[1] = memalign(64, 3 * SMALL);
  for (int i = 2; i < N; i++) keep[i] = aligned_alloc(64, 3 * SMALL);
  for (int i = 0; i < N; i++) free(keep[i]);
  for (int i = 0; i < N; i++) { keep[i] = memalign(4096, LARGE); free(keep[i]); }
  // new / delete (400-byte class), new[] / delete[] are the same kinds:
  // N new, N reused, N large.
  for (int i = 0; i < N; i++) keep[i] = new char[4 * SMALL];
  for (int i = 0; i < N; i++) delete[] (char *)keep[i];
  for (int i = 0; i < N; i++) keep[i] = new char[4 * SMALL];
  for (int i = 0; i < N; i++) delete[] (char *)keep[i];
  for (int i = 0; i < N; i++) { keep[i] = new char[LARGE]; delete[] (char *)keep[i]; }
  // realloc (500-byte classes): from NULL (new block), within its size
  // class (kept in place: reused), to a fresh class (moved: new block),
  // to a large size (new mapping), to 0 (a free: no block).  N of each.
  for (int i = 0; i < N; i++) keep[i] = realloc(NULL, 5 * SMALL);
  for (int i = 0; i < N; i++) keep[i] = realloc(keep[i], 5 * SMALL + 8);
  for (int i = 0; i < N; i++) keep[i] = realloc(keep[i], 9 * SMALL);
  for (int i = 0; i < N; i++) keep[i] = realloc(keep[i], LARGE);
  for (int i = 0; i < N; i++) keep[i] = realloc(keep[i], 0);
}

static void *worker(void *arg) {
  pthread_barrier_wait(&bar); // both threads alive
  phase();
  pthread_barrier_wait(&bar); // main dumps
  pthread_barrier_wait(&bar);
  return arg;
}

int main(void) {
  __heapprof_dump(); // 1: what ran before main
  phase();
  __heapprof_dump(); // 2: the serial phase
  pthread_barrier_init(&bar, NULL, 2);
  pthread_t t;
  pthread_create(&t, NULL, worker, NULL);
  pthread_barrier_wait(&bar);
  phase();
  pthread_barrier_wait(&bar);
  __heapprof_dump(); // 3: both phases ran with two threads alive
  pthread_barrier_wait(&bar);
  pthread_join(t, NULL);
  return 0;
}

// The serial phase, class by class in class order.  Frees: 10 small and 5
// large each of malloc, calloc and the memalign family; 10 small and 5
// large delete[].  realloc: 5 from NULL + 5 moved = 10 small new, 5 kept in
// place = small reused, 5 grown to large = large new, 5 to size 0 = large
// with no block.  cycle_sample_every=1 measures every call (this thread's
// first call, libstdc++'s before main, was in dump 1).
// SERIAL:      op classes: 20 classes, cycle histograms in 32 log2 buckets
// SERIAL-NEXT: malloc small new serial: count=5 sampled=5 cycles=
// SERIAL-NEXT: malloc small reused serial: count=5 sampled=5 cycles=
// SERIAL-NEXT: malloc large new serial: count=5 sampled=5 cycles=
// SERIAL-NEXT: calloc small new serial: count=5 sampled=5 cycles=
// SERIAL-NEXT: calloc small reused serial: count=5 sampled=5 cycles=
// SERIAL-NEXT: calloc large new serial: count=5 sampled=5 cycles=
// SERIAL-NEXT: realloc small new serial: count=10 sampled=10 cycles=
// SERIAL-NEXT: realloc small reused serial: count=5 sampled=5 cycles=
// SERIAL-NEXT: realloc large - serial: count=5 sampled=5 cycles=
// SERIAL-NEXT: realloc large new serial: count=5 sampled=5 cycles=
// SERIAL-NEXT: memalign small new serial: count=5 sampled=5 cycles=
// SERIAL-NEXT: memalign small reused serial: count=5 sampled=5 cycles=
// SERIAL-NEXT: memalign large new serial: count=5 sampled=5 cycles=
// SERIAL-NEXT: new small new serial: count=5 sampled=5 cycles=
// SERIAL-NEXT: new small reused serial: count=5 sampled=5 cycles=
// SERIAL-NEXT: new large new serial: count=5 sampled=5 cycles=
// SERIAL-NEXT: free small - serial: count=30 sampled=30 cycles=
// SERIAL-NEXT: free large - serial: count=15 sampled=15 cycles=
// SERIAL-NEXT: delete small - serial: count=10 sampled=10 cycles=
// SERIAL-NEXT: delete large - serial: count=5 sampled=5 cycles=
// SERIAL-NOT: {{^ +[a-z]+ (small|large) .* serial:}}

// Both threads ran the phase.  The worker's size classes were unused, so
// its first N blocks of each kind are new; main's come back from its cache
// (the serial phase freed them): malloc, calloc, memalign, new each 5 new
// and 15 reused.  realloc: the worker's 10 new + 5 in place, main's 15 all
// reused (from NULL, in place, and moved into the 900-byte class its
// serial reallocs freed).  Every large one is new, twice as many.  The
// worker's first call is not timed (it pays for the thread's setup).
// PARALLEL:      malloc small new parallel: count=5 sampled=4 cycles=
// PARALLEL-NEXT: malloc small reused parallel: count=15 sampled=15 cycles=
// PARALLEL-NEXT: malloc large new parallel: count=10 sampled=10 cycles=
// PARALLEL-NEXT: calloc small new parallel: count=5 sampled=5 cycles=
// PARALLEL-NEXT: calloc small reused parallel: count=15 sampled=15 cycles=
// PARALLEL-NEXT: calloc large new parallel: count=10 sampled=10 cycles=
// PARALLEL-NEXT: realloc small new parallel: count=10 sampled=10 cycles=
// PARALLEL-NEXT: realloc small reused parallel: count=20 sampled=20 cycles=
// PARALLEL-NEXT: realloc large - parallel: count=10 sampled=10 cycles=
// PARALLEL-NEXT: realloc large new parallel: count=10 sampled=10 cycles=
// PARALLEL-NEXT: memalign small new parallel: count=5 sampled=5 cycles=
// PARALLEL-NEXT: memalign small reused parallel: count=15 sampled=15 cycles=
// PARALLEL-NEXT: memalign large new parallel: count=10 sampled=10 cycles=
// PARALLEL-NEXT: new small new parallel: count=5 sampled=5 cycles=
// PARALLEL-NEXT: new small reused parallel: count=15 sampled=15 cycles=
// PARALLEL-NEXT: new large new parallel: count=10 sampled=10 cycles=
// PARALLEL-NEXT: free small - parallel: count=60 sampled=60 cycles=
// PARALLEL-NEXT: free large - parallel: count=30 sampled=30 cycles=
// PARALLEL-NEXT: delete small - parallel: count=20 sampled=20 cycles=
// PARALLEL-NEXT: delete large - parallel: count=10 sampled=10 cycles=
// PARALLEL-NOT: {{^ +[a-z]+ (small|large) .* parallel:}}
