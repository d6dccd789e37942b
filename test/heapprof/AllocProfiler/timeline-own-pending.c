// A thread's own unpublished bytes are in the live total its publish adds
// (p, which includes them), not among the other threads' it adds to the
// timeline's note.  One thread: malloc(60000) stays pending (under the
// 64 KiB step), malloc(1000000) publishes 1060000, the exact heap; 20 ms
// later free(1000000) publishes -1000000, leaving 60000.  Both notes are
// exact with one thread (heapprof_peak.h): the allocation's bucket is
// 1060000 throughout and the free's ends at 60000.  Counting the thread's
// own pending (still 60000 during the first publish) among the others'
// noted 1120000 at the allocation, more than the heap ever held.
// RUN: %clang_heapprof -O0 -g %s -o %t
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: %env_heapprof_opts=profile_dir=%t.d %run %t
// RUN: heapprof show %t.d/*.profraw | FileCheck %s
// CHECK: peak: peak_bytes=1060000 {{.*}} peak_objects=2
// CHECK: timeline: bucket_ms={{[0-9]+}} buckets=2
// CHECK-NEXT: {{[0-9]+}} ms: lowest=1060000 highest=1060000 last=1060000
// CHECK-NEXT: {{[0-9]+}} ms: lowest=60000 highest=1060000 last=60000
#include <stdlib.h>
#include <time.h>

static void *volatile small, *volatile big;

int main(void) {
  small = malloc(60000);
  big = malloc(1000000);
  struct timespec t = {0, 20 * 1000000L};
  nanosleep(&t, NULL);
  free(big);
  return 0;
}
