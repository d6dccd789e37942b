// Passive false sharing measured on the real allocator's layout (heapprof
// run --allocator=system|PATH, false_sharing=1): no simulation, the live
// objects' real addresses at the dump.
//
// The main thread allocates 14 objects of 16 bytes from alloc_main (one
// call site).  glibc makes each a 32-byte chunk (8-byte size field,
// 16-byte alignment) cut from the top of its heap one after the other, so
// their user pointers are 32 bytes apart: two objects per 64-byte line.
// If the first falls in the second half of a line, the program keeps it
// as a filler and takes the next one, so that objects 2k and 2k+1 share
// line k: 7 lines, each ending with the chunk of its second object (the
// next chunk's data starts a new line).  A second thread, after one
// allocation of another size (its allocator state is set up), frees the
// 7 odd objects: glibc puts them in that thread's tcache (7 entries per
// size, the default), and its next 7 mallocs of the same size
// (alloc_thread) take them back, last in first out -- exactly the 7 odd
// slots.  At the dump every one of the 7 lines holds a live object of the
// main thread (alloc_main) and one of the second thread (alloc_thread):
// 7 shared lines, all for that one pair.  Nothing else is live next to
// them.  The program prints what this relies on: the stride, the first
// object's place in its line, the reuse.
//
// With -DOTHER_SIZE the second thread allocates 48 bytes instead: another
// tcache bin, served from the second thread's own arena, far from the main
// thread's lines: no line holds objects of both threads.
//
// jemalloc (and tcmalloc likewise) packs 16-byte objects 16 bytes apart
// with no header, from a fresh page-aligned slab (these are the process's
// first objects of that size): 4 per line, the 14 on lines of 4, 4, 4 and 2 objects.  Its thread
// cache is last in first out as well (once the thread's first call set it
// up: the warm-up allocation), so the second thread gets the 7 odd slots
// back and each of the 4 lines holds objects of both threads: 4 shared
// lines.  -DOTHER_SIZE: 48 bytes is another size class, on other slabs:
// none.
//
// REQUIRES: heapprof-driver
// RUN: %clang_plain -O0 -g %s -o %t -lpthread
// RUN: %clang_plain -O0 -g -DOTHER_SIZE %s -o %t.other -lpthread
// RUN: rm -rf %t.dir %t.other.dir
// RUN: env -u LD_PRELOAD HEAPPROF_OPTIONS=false_sharing=1 heapprof run -o %t.dir --allocator=system -- %t | FileCheck %s --check-prefix=OUT
// RUN: env -u LD_PRELOAD HEAPPROF_OPTIONS=false_sharing=1 heapprof run -o %t.other.dir --allocator=system -- %t.other | FileCheck %s --check-prefix=OTHER-OUT
// RUN: heapprof report %t.dir | FileCheck %s
// RUN: heapprof report --format json %t.dir | FileCheck %s --check-prefix=JSON
// RUN: heapprof show %t.dir/*.profraw | FileCheck %s --check-prefix=SHOW
// RUN: heapprof report %t.other.dir | FileCheck %s --check-prefix=OTHER
// Two runs merged: one layout, each process's counts added.
// RUN: rm -rf %t.two && mkdir %t.two
// RUN: env -u LD_PRELOAD HEAPPROF_OPTIONS=false_sharing=1 heapprof run -o %t.two --allocator=system -- %t > /dev/null
// RUN: env -u LD_PRELOAD HEAPPROF_OPTIONS=false_sharing=1 heapprof run -o %t.two --allocator=system -- %t > /dev/null
// RUN: heapprof merge -o %t.merged %t.two
// RUN: heapprof report %t.merged | FileCheck %s --check-prefix=MERGED
// A simulated profile and a measured one do not merge.
// RUN: rm -rf %t.mixed && mkdir %t.mixed && cp %t.dir/*.profraw %t.mixed/a.profraw
// RUN: rm -rf %t.sim && env -u LD_PRELOAD HEAPPROF_OPTIONS=false_sharing=1 heapprof run -o %t.sim -- %t > /dev/null
// RUN: cp %t.sim/*.profraw %t.mixed/b.profraw
// RUN: not heapprof merge -o %t.mixed.out %t.mixed 2>&1 | FileCheck %s --check-prefix=MIXED
// jemalloc.
// RUN: %if jemalloc %{ rm -rf %t.je %t.je.other %}
// RUN: %if jemalloc %{ env -u LD_PRELOAD HEAPPROF_OPTIONS=false_sharing=1 heapprof run -o %t.je --allocator=%libjemalloc -- %t | FileCheck %s --check-prefix=JE-OUT %}
// RUN: %if jemalloc %{ heapprof report %t.je | FileCheck %s --check-prefix=JE %}
// RUN: %if jemalloc %{ env -u LD_PRELOAD HEAPPROF_OPTIONS=false_sharing=1 heapprof run -o %t.je.other --allocator=%libjemalloc -- %t.other | FileCheck %s --check-prefix=JE-OTHER-OUT %}
// RUN: %if jemalloc %{ heapprof report %t.je.other | FileCheck %s --check-prefix=OTHER %}
// tcmalloc's small objects and thread cache behave the same way here.
// RUN: %if tcmalloc %{ rm -rf %t.tc && env -u LD_PRELOAD HEAPPROF_OPTIONS=false_sharing=1 heapprof run -o %t.tc --allocator=%libtcmalloc -- %t | FileCheck %s --check-prefix=JE-OUT %}
// RUN: %if tcmalloc %{ heapprof report %t.tc | FileCheck %s --check-prefix=JE %}

// OUT: stride 32, first at offset {{0|16}} of its line
// OUT: reused: 7 of 7
// OTHER-OUT: stride 32, first at offset {{0|16}} of its line
// OTHER-OUT: reused: 0 of 7
// JE-OUT: stride 16, first at offset 0 of its line
// JE-OUT: reused: 7 of 7
// JE-OTHER-OUT: stride 16, first at offset 0 of its line
// JE-OTHER-OUT: reused: 0 of 7

// CHECK: == False sharing on the real allocator's layout (measured: real addresses, live objects at the last dump)
// CHECK-NEXT: passive: 7 of {{[0-9]+}} cache lines hold live objects allocated by different threads
// CHECK: passive lines active writes active lines context with context
// CHECK-NEXT: {{^ *}}7 0 0 alloc_main ({{.*}}fshare-foreign-passive.c:{{[0-9]+}}:{{[0-9]+}}) alloc_thread ({{.*}}fshare-foreign-passive.c:{{[0-9]+}}:{{[0-9]+}})
// CHECK-NOT: {{^ *[0-9]+ [0-9]+ [0-9]+ }}

// JE: == False sharing on the real allocator's layout
// JE-NEXT: passive: 4 of {{[0-9]+}} cache lines hold live objects allocated by different threads
// JE: {{^ *}}4 0 0 alloc_main ({{.*}}) alloc_thread ({{.*}})
// JE-NOT: {{^ *[0-9]+ [0-9]+ [0-9]+ }}

// JSON: "false_sharing": {
// JSON: "shared_lines": 7
// JSON: "layout": "real"

// SHOW: false sharing: objects={{[0-9]+}} unplaced=0 lines={{[0-9]+}} shared_lines=7 active_lines=0 active_events=0 same_object_events=0 dropped_pairs=0 pairs=1 layout=real
// SHOW-NEXT: contexts {{[0-9]+}} and {{[0-9]+}}: 7 passive lines, 0 active events on 0 lines

// OTHER: == False sharing on the real allocator's layout
// OTHER-NEXT: passive: 0 of {{[0-9]+}} cache lines hold live objects allocated by different threads
// OTHER: (no shared lines)

// MERGED: passive: 14 of {{[0-9]+}} cache lines hold live objects allocated by different threads
// MERGED: {{^ *}}14 0 0 alloc_main

// MIXED: heapprof: error: {{.*}}b.profraw: its false sharing section (tag 6) describes the simulated packed layout, that of {{.*}}a.profraw the real allocator's one

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define N 14
#ifdef OTHER_SIZE
#define THREAD_SIZE 48
#else
#define THREAD_SIZE 16
#endif

static char *volatile objs[N];
static char *volatile mine[N / 2];

__attribute__((noinline)) static char *alloc_main(void) { return malloc(16); }
__attribute__((noinline)) static char *alloc_thread(void) {
  return malloc(THREAD_SIZE);
}

static void *second(void *arg) {
  (void)arg;
  /* The thread's first call sets up its allocator state (jemalloc's
   * tcache: frees before it bypass the cache); another size class. */
  free(malloc(100));
  for (int i = 1; i < N; i += 2)
    free(objs[i]);
  for (int i = 0; i < N / 2; i++)
    mine[i] = alloc_thread();
  return NULL;
}

int main(void) {
  char *volatile filler = NULL;
  for (int k = 0; k < N;) {
    char *p = alloc_main(); /* one call site: one context */
    if (k == 0 && !filler && (uintptr_t)p % 64 >= 32) {
      /* In a line's second half: kept as the filler; the next slot, 32
       * bytes on, is in the first half of the next line. */
      filler = p;
      continue;
    }
    objs[k++] = p;
  }
  long stride = objs[1] - objs[0];
  for (int i = 2; i < N; i++)
    if (objs[i] != objs[0] + stride * i)
      stride = 0; /* not one after the other */
  pthread_t t;
  pthread_create(&t, NULL, second, NULL);
  pthread_join(t, NULL);
  int reused = 0;
  for (int i = 0; i < N / 2; i++)
    for (int j = 1; j < N; j += 2)
      reused += mine[i] == objs[j];
  printf("stride %ld, first at offset %d of its line\n", stride,
         (int)((uintptr_t)objs[0] % 64));
  printf("reused: %d of %d\n", reused, N / 2);
  (void)filler;
  return 0;
}
