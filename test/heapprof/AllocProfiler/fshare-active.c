// Active false sharing (-mllvm -heapprof-false-sharing, false_sharing=1):
// the main thread allocates two 32-byte counters, one from alloc_a and one
// from alloc_b, back to back: packed at 16-byte alignment they share one
// line.  Then 2 x ROUNDS threads run one after the other (each created and
// joined before the next), the odd ones incrementing counter A, the even
// ones counter B, once each.  Every write after the first is by another
// thread than the line's last writer, to the other object: 2 x ROUNDS - 1
// = 199 active events, all on that one line, all for the pair
// (alloc_a, alloc_b).  No passive sharing: one thread allocated both.
// Padded to 64 bytes (-DPAD) each counter has its own line: no active
// false sharing; the writes to each counter come from a new thread each
// time, 2 x (ROUNDS - 1) = 198 same-object events (true sharing).
// Without the pass option no store is seen: 0 events.
//
// RUN: %clang_heapprof -O0 -g -mllvm -heapprof-false-sharing %s -o %t -lpthread
// RUN: %clang_heapprof -O0 -g -mllvm -heapprof-false-sharing -DPAD %s -o %t.pad -lpthread
// RUN: %clang_heapprof -O0 -g %s -o %t.nopass -lpthread
// RUN: rm -rf %t.dir %t.pad.dir %t.nopass.dir && mkdir %t.dir %t.pad.dir %t.nopass.dir
// RUN: %env_heapprof_opts=false_sharing=1:profile_dir=%t.dir %run %t
// RUN: %env_heapprof_opts=false_sharing=1:profile_dir=%t.pad.dir %run %t.pad
// RUN: %env_heapprof_opts=false_sharing=1:profile_dir=%t.nopass.dir %run %t.nopass
// RUN: heapprof report %t.dir | FileCheck %s
// RUN: heapprof report %t.pad.dir | FileCheck %s --check-prefix=PAD
// RUN: heapprof report %t.nopass.dir | FileCheck %s --check-prefix=NOPASS
// RUN: heapprof report --format json %t.dir | FileCheck %s --check-prefix=JSON
// RUN: heapprof show %t.dir/*.profraw | FileCheck %s --check-prefix=SHOW
// Two runs merged: each process's totals added, the pair's rows joined by
// their merged contexts: 2 x 199 events on 2 lines.
// RUN: rm -rf %t.two && mkdir %t.two
// RUN: %env_heapprof_opts=false_sharing=1:profile_dir=%t.two %run %t
// RUN: %env_heapprof_opts=false_sharing=1:profile_dir=%t.two %run %t
// RUN: heapprof merge -o %t.merged %t.two
// RUN: heapprof report %t.merged | FileCheck %s --check-prefix=MERGED
// Off at run time, the same binary records nothing.
// RUN: rm -rf %t.off && mkdir %t.off
// RUN: %env_heapprof_opts=profile_dir=%t.off %run %t
// RUN: heapprof report %t.off | FileCheck %s --check-prefix=OFF
// REQUIRES: heapprof-driver
#include <pthread.h>
#include <stdlib.h>

#ifdef PAD
#define SIZE 64
#else
#define SIZE 32
#endif
#define ROUNDS 100

struct counter {
  long n;
  char pad[SIZE - sizeof(long)];
};
static struct counter *a, *b;

__attribute__((noinline)) static struct counter *alloc_a(void) {
  return calloc(1, sizeof(struct counter));
}
__attribute__((noinline)) static struct counter *alloc_b(void) {
  return calloc(1, sizeof(struct counter));
}
static void *bump(void *arg) {
  ((struct counter *)arg)->n++;
  return NULL;
}

int main(void) {
  a = alloc_a();
  b = alloc_b();
  for (int i = 0; i < ROUNDS; i++) {
    pthread_t t;
    pthread_create(&t, NULL, bump, a);
    pthread_join(t, NULL);
    pthread_create(&t, NULL, bump, b);
    pthread_join(t, NULL);
  }
  return a->n == ROUNDS && b->n == ROUNDS ? 0 : 1;
}

// CHECK: == False sharing under a packed allocator
// CHECK-NEXT: passive: 0 of {{[0-9]+}} cache lines would hold objects allocated by different threads
// CHECK-NEXT: active: 1 lines written by one thread after another wrote another object on them, 199 such writes; 0 writes after another thread's to the same object
// CHECK-NEXT: passive lines active writes active lines context with context
// CHECK-NEXT: 0 199 1 alloc_a ({{.*}}fshare-active.c:{{[0-9]+}}:{{[0-9]+}}) alloc_b ({{.*}}fshare-active.c:{{[0-9]+}}:{{[0-9]+}})

// PAD: active: 0 lines written by one thread after another wrote another object on them, 0 such writes; 198 writes after another thread's to the same object
// PAD-NEXT: (no shared lines)

// NOPASS: active: 0 lines written by one thread after another wrote another object on them, 0 such writes; 0 writes

// JSON: "active": {
// JSON-NEXT: "lines": 1,
// JSON-NEXT: "events": 199,
// JSON-NEXT: "same_object_events": 0
// JSON: "pairs": [
// JSON-NEXT: {
// JSON-NEXT: "passive_lines": 0,
// JSON-NEXT: "active_events": 199,
// JSON-NEXT: "active_lines": 1,
// JSON-NEXT: "a": [
// JSON-NEXT: {
// JSON-NEXT: "function": "alloc_a",

// SHOW: false sharing: objects={{[0-9]+}} unplaced=0 lines={{[0-9]+}} shared_lines=0 active_lines=1 active_events=199 same_object_events=0 dropped_pairs=0 pairs=1
// SHOW-NEXT: contexts {{[0-9]+}} and {{[0-9]+}}: 0 passive lines, 199 active events on 1 lines

// MERGED: active: 2 lines written by one thread after another wrote another object on them, 398 such writes
// MERGED: 0 398 2 alloc_a ({{.*}}) alloc_b ({{.*}})

// OFF-NOT: False sharing
