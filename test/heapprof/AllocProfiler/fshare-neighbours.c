// Passive false sharing under the simulated packed allocator
// (false_sharing=1; fshare-active.c has the active kind): threads A and B take turns (each created and joined
// before the next starts, so the order is fixed), each allocating one
// 32-byte object and writing it.  Packed at 16-byte alignment, slot class
// 32 holds A1 B1 | A2 B2 | ...: each of the 100 lines holds one object of
// each thread, so 100 lines are shared, all by the pair (alloc_a, alloc_b).
// Padded to 64 bytes (-DPAD) every object has a line of its own: no line
// is shared.  heapprof itself keeps the objects apart either way.
//
// RUN: %clang_heapprof -O0 -g %s -o %t -lpthread
// RUN: %clang_heapprof -O0 -g -DPAD %s -o %t.pad -lpthread
// RUN: rm -rf %t.dir %t.pad.dir && mkdir %t.dir %t.pad.dir
// RUN: %env_heapprof_opts=false_sharing=1:profile_dir=%t.dir %run %t
// RUN: %env_heapprof_opts=false_sharing=1:profile_dir=%t.pad.dir %run %t.pad
// RUN: heapprof report %t.dir | FileCheck %s
// RUN: heapprof report %t.pad.dir | FileCheck %s --check-prefix=PAD
// RUN: heapprof report --format json %t.dir | FileCheck %s --check-prefix=JSON
// RUN: heapprof show %t.dir/*.profraw | FileCheck %s --check-prefix=SHOW
// Off (the default): no section, no report table.
// RUN: rm -rf %t.off && mkdir %t.off
// RUN: %env_heapprof_opts=profile_dir=%t.off %run %t
// RUN: heapprof report %t.off | FileCheck %s --check-prefix=OFF
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
static struct counter *volatile objs[2 * ROUNDS];
static int round_no;

__attribute__((noinline)) static struct counter *alloc_a(void) {
  return malloc(sizeof(struct counter));
}
__attribute__((noinline)) static struct counter *alloc_b(void) {
  return malloc(sizeof(struct counter));
}
static void *thread_a(void *arg) {
  struct counter *c = alloc_a();
  c->n++;
  objs[2 * round_no] = c;
  return NULL;
}
static void *thread_b(void *arg) {
  struct counter *c = alloc_b();
  c->n++;
  objs[2 * round_no + 1] = c;
  return NULL;
}

int main(void) {
  for (round_no = 0; round_no < ROUNDS; round_no++) {
    pthread_t t;
    pthread_create(&t, NULL, thread_a, NULL);
    pthread_join(t, NULL);
    pthread_create(&t, NULL, thread_b, NULL);
    pthread_join(t, NULL);
  }
  return 0;
}

// SHOW: false sharing: objects={{[0-9]+}} unplaced={{[0-9]+}} lines={{[0-9]+}} shared_lines=100 active_lines=0 active_events=0 same_object_events=0 dropped_pairs=0 pairs=1
// SHOW-NEXT: contexts {{[0-9]+}} and {{[0-9]+}}: 100 passive lines, 0 active events on 0 lines

// (The one other object placed is libc's calloc for the threads' TLS, by
// the main thread, in a size class of its own.)
// Built without -heapprof-false-sharing: no store is seen, no active
// sharing.
// CHECK: == False sharing under a packed allocator
// CHECK-NEXT: passive: 100 of {{[0-9]+}} cache lines would hold objects allocated by different threads ({{.*}}); {{[0-9]+}} objects placed, 0 over 1024 bytes not placed
// CHECK-NEXT: active: 0 lines
// CHECK-NEXT: passive lines active writes active lines context with context
// CHECK-NEXT: 100 0 0 alloc_a ({{.*}}fshare-neighbours.c:{{[0-9]+}}:{{[0-9]+}}) alloc_b ({{.*}}fshare-neighbours.c:{{[0-9]+}}:{{[0-9]+}})

// PAD: == False sharing under a packed allocator
// PAD-NEXT: passive: 0 of {{[0-9]+}} cache lines would hold objects allocated by different threads
// PAD-NEXT: active: 0 lines
// PAD-NEXT: (no shared lines)

// JSON: "false_sharing": {
// JSON-NEXT: "objects": {{[0-9]+}},
// JSON-NEXT: "unplaced": 0,
// JSON-NEXT: "lines": {{[0-9]+}},
// JSON-NEXT: "passive": {
// JSON-NEXT: "shared_lines": 100
// JSON: "dropped_pairs": 0,
// JSON-NEXT: "pairs": [
// JSON-NEXT: {
// JSON-NEXT: "passive_lines": 100,
// JSON-NEXT: "active_events": 0,
// JSON-NEXT: "active_lines": 0,
// JSON-NEXT: "a": [
// JSON-NEXT: {
// JSON-NEXT: "function": "alloc_a",
// JSON: "b": [
// JSON-NEXT: {
// JSON-NEXT: "function": "alloc_b",

// OFF-NOT: False sharing
