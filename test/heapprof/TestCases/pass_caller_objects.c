// Thread arguments in the creating function's frame, next to each other
// (larson's layout): the pass leaves accesses through them uncounted
// (-heapprof-skip-caller-objects, test/Instrumentation/HeapProfiler/
// caller-objects.ll), and the heap's counts are what the program does, the
// same with the analysis off.
// REQUIRES: heapprof-driver
// RUN: %clang_heapprof -O2 -pthread %s -o %t
// RUN: %env_heapprof_opts=log_path=stderr %run %t 2>&1 | FileCheck %s
// RUN: %clang_heapprof -O2 -pthread -mllvm -heapprof-skip-caller-objects=0 %s -o %t.off
// RUN: %env_heapprof_opts=log_path=stderr %run %t.off 2>&1 | FileCheck %s
#include <pthread.h>
#include <stdlib.h>

struct job {
  long *buf;
  long n;
  long sum;
};

__attribute__((noinline)) static long *make_buf(long n) {
  return malloc((size_t)n * sizeof(long));
}

// n stores and n loads of the job's buffer: 2n accesses to the heap; the
// reads and writes of *j are to main's frame.
static void *run(void *arg) {
  struct job *j = arg;
#pragma clang loop vectorize(disable)
  for (long i = 0; i < j->n; i++)
    j->buf[i] = i * 3;
  long s = 0;
#pragma clang loop vectorize(disable)
  for (long i = 0; i < j->n; i++)
    s += j->buf[i];
  j->sum = s;
  return NULL;
}

int main(void) {
  struct job jobs[2];
  pthread_t t[2];
#pragma clang loop unroll(disable)
  for (int k = 0; k < 2; k++) {
    jobs[k].n = 100;
    jobs[k].buf = make_buf(jobs[k].n);
    if (pthread_create(&t[k], NULL, run, &jobs[k]))
      return 2;
  }
  for (int k = 0; k < 2; k++)
    pthread_join(t[k], NULL);
  int ok = jobs[0].sum == 3 * 4950 && jobs[1].sum == 3 * 4950;
  for (int k = 0; k < 2; k++)
    free(jobs[k].buf);
  return !ok;
}
// Two buffers of 100 longs, each written and read once element by
// element: 200 accesses each.
// CHECK: Memory allocation stack id = [[BUF:[0-9]+]]
// CHECK-NEXT: alloc_count 2, size (ave/min/max) 800.00 / 800 / 800
// CHECK-NEXT: access_count (ave/min/max): 200.00 / 200 / 200
// CHECK: Stack for id [[BUF]]:
// CHECK-NEXT: in make_buf
