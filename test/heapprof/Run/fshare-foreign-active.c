// Active false sharing measured on the real allocator's layout: a program
// built with -fheapprof -mllvm -heapprof-false-sharing runs on glibc's
// malloc (allocator=system) or jemalloc, false_sharing=1.  The store hook
// finds the object each store hits through the runtime's index of live
// objects by their edge lines, and follows the real 64-byte line.
//
// The main thread allocates 16-byte counters alternately from alloc_a and
// alloc_b, 4 of each (one call site each: two contexts).  Same-size
// objects allocated back to back sit 32 bytes apart on glibc (32-byte
// chunks) and 16 bytes apart on jemalloc (no header), so either a_i and
// b_i share a line or b_i and a_(i+1) do; the program takes the first such
// pair and says so ("same line: yes").  Then 2 x ROUNDS threads run one
// after the other (each created and joined before the next), the odd ones
// writing the a counter, the even ones the b counter, one store each.  Every write
// after the first is by another thread than the line's last writer, to
// the other object: 2 x ROUNDS - 1 = 199 active events on one line, for
// the pair (alloc_a, alloc_b), and no same-object event.  The counters
// nobody writes change nothing.  No passive sharing: the main thread
// allocated every object.
//
// With -DPAD the counters are 64 bytes from aligned_alloc(64, ...): each
// on a line of its own ("same line: no"): no active event; the writes
// to each counter come from a new thread each time: 2 x (ROUNDS - 1) =
// 198 same-object events (true sharing).
//
// REQUIRES: heapprof-driver
// RUN: %clang_heapprof -O0 -g -mllvm -heapprof-false-sharing %s -o %t -lpthread
// RUN: %clang_heapprof -O0 -g -mllvm -heapprof-false-sharing -DPAD %s -o %t.pad -lpthread
// RUN: rm -rf %t.dir %t.pad.dir
// RUN: env HEAPPROF_OPTIONS=allocator=system:false_sharing=1:profile_dir=%t.dir %t | FileCheck %s --check-prefix=OUT
// RUN: env HEAPPROF_OPTIONS=allocator=system:false_sharing=1:profile_dir=%t.pad.dir %t.pad | FileCheck %s --check-prefix=PADOUT
// RUN: heapprof report %t.dir | FileCheck %s
// RUN: heapprof report %t.pad.dir | FileCheck %s --check-prefix=PAD
// RUN: heapprof show %t.dir/*.profraw | FileCheck %s --check-prefix=SHOW
// Through heapprof run, the same (the preloaded runtime passes
// pthread_create on to libc: the program's own runtime serves).
// RUN: rm -rf %t.run && env -u LD_PRELOAD HEAPPROF_OPTIONS=false_sharing=1 heapprof run -o %t.run --allocator=system -- %t | FileCheck %s --check-prefix=OUT
// RUN: heapprof report %t.run | FileCheck %s
// On jemalloc, preloaded by heapprof run: the same counts, as the program
// picks a pair that shares a line whatever the allocator's spacing.
// RUN: %if jemalloc %{ rm -rf %t.je && env -u LD_PRELOAD HEAPPROF_OPTIONS=false_sharing=1 heapprof run -o %t.je --allocator=%libjemalloc -- %t | FileCheck %s --check-prefix=OUT %}
// RUN: %if jemalloc %{ heapprof report %t.je | FileCheck %s %}
// RUN: %if jemalloc %{ rm -rf %t.je.pad && env -u LD_PRELOAD HEAPPROF_OPTIONS=false_sharing=1 heapprof run -o %t.je.pad --allocator=%libjemalloc -- %t.pad | FileCheck %s --check-prefix=PADOUT %}
// RUN: %if jemalloc %{ heapprof report %t.je.pad | FileCheck %s --check-prefix=PAD %}
// A threaded program built with -fheapprof under heapprof run on heapprof's
// own allocator runs too (it died in the preloaded runtime's
// pthread_create before); heapprof's allocator gives no two chunks one
// line, so the program finds no pair.
// RUN: rm -rf %t.own && env -u LD_PRELOAD heapprof run -o %t.own -- %t | FileCheck %s --check-prefix=PADOUT

// OUT: same line: yes
// PADOUT: same line: no

// CHECK: == False sharing on the real allocator's layout (measured: real addresses, live objects at the last dump)
// CHECK-NEXT: passive: 0 of {{[0-9]+}} cache lines hold live objects allocated by different threads
// CHECK-NEXT: active: 1 lines written by one thread after another wrote another object on them, 199 such writes; 0 writes after another thread's to the same object
// CHECK-NEXT: passive lines active writes active lines context with context
// CHECK-NEXT: {{^ *}}0 199 1 alloc_a ({{.*}}fshare-foreign-active.c:{{[0-9]+}}:{{[0-9]+}}) alloc_b ({{.*}}fshare-foreign-active.c:{{[0-9]+}}:{{[0-9]+}})
// CHECK-NOT: {{^ *[0-9]+ [0-9]+ [0-9]+ }}

// PAD: == False sharing on the real allocator's layout
// PAD: active: 0 lines written by one thread after another wrote another object on them, 0 such writes; 198 writes after another thread's to the same object
// PAD-NEXT: (no shared lines)

// SHOW: false sharing: {{.*}} shared_lines=0 active_lines=1 active_events=199 same_object_events=0 dropped_pairs=0 pairs=1 layout=real

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#ifdef PAD
#define SIZE 64
#else
#define SIZE 16
#endif
#define ROUNDS 100
#define TRIES 4

struct counter {
  long n;
  char pad[SIZE - sizeof(long)];
};

/* Nothing in the program writes a counter but the threads (the main
 * thread's writes would be events too). */
#ifdef PAD
#define NEW_COUNTER() aligned_alloc(64, sizeof(struct counter))
#else
#define NEW_COUNTER() malloc(sizeof(struct counter))
#endif
__attribute__((noinline)) static struct counter *alloc_a(void) {
  return NEW_COUNTER();
}
__attribute__((noinline)) static struct counter *alloc_b(void) {
  return NEW_COUNTER();
}
static void *bump(void *arg) {
  ((struct counter *)arg)->n = 1; /* one store, no load */
  return NULL;
}

static uintptr_t line(const void *p) { return (uintptr_t)p / 64; }

int main(void) {
  struct counter *volatile as[TRIES + 1], *volatile bs[TRIES];
  for (int i = 0; i < TRIES; i++) {
    as[i] = alloc_a();
    bs[i] = alloc_b();
  }
  as[TRIES] = alloc_a();
  struct counter *a = as[0], *b = bs[0];
  int same = 0;
  for (int i = 0; i < TRIES && !same; i++) {
    if (line(as[i]) == line(bs[i]))
      a = as[i], b = bs[i], same = 1;
    else if (line(bs[i]) == line(as[i + 1]))
      a = as[i + 1], b = bs[i], same = 1;
  }
  for (int i = 0; i < ROUNDS; i++) {
    pthread_t t;
    pthread_create(&t, NULL, bump, a);
    pthread_join(t, NULL);
    pthread_create(&t, NULL, bump, b);
    pthread_join(t, NULL);
  }
  printf("same line: %s\n", same ? "yes" : "no");
  return 0;
}
