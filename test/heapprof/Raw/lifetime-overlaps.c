// NumLifetimeOverlaps counts, per context, the objects allocated before
// the previous object (in free order) was freed: upstream's rule, one
// compare per object.  Checkpoints, threads and merges keep that count:
//  - "live": two objects live together over 3 checkpoints, freed at the
//    end: 1 overlap.  Every checkpoint added one more (4), because the
//    later pieces of the two objects' lives (continuations) were compared
//    as objects of their own.
//  - "threads": two threads one after the other, 20 ms apart, each
//    allocating 10 objects and then freeing them all: 9 overlaps in each,
//    18.  A thread's record merged into the table kept only one compare of
//    its own (10).  (Without the 20 ms the second thread's first object
//    would count one more: allocated in the clock tick in which the first
//    thread's last object was freed, whose end is that free's time.)
//  - "batches": 2 objects, a checkpoint, then 10: 1 + 9 = 10, in the
//    report of the directory and of its merge (heapprof merge said 2).
// Each object lives 20 ms, longer than the coarse clock's tick.
// RUN: %clang_heapprof -O1 -g %s -o %t
// RUN: rm -rf %t.d && %env_heapprof_opts=profile_dir=%t.d %run %t live
// RUN: heapprof report --format json %t.d | %python %S/Inputs/json_field.py lifetime_overlaps | FileCheck %s --check-prefix=LIVE
// RUN: heapprof merge -o %t.m.profraw %t.d && heapprof report --format json %t.m.profraw | %python %S/Inputs/json_field.py lifetime_overlaps | FileCheck %s --check-prefix=LIVE
// LIVE: allocs 2 lifetime_overlaps 1{{$}}
// RUN: rm -rf %t.d && %env_heapprof_opts=profile_dir=%t.d %run %t threads
// RUN: heapprof report --format json %t.d | %python %S/Inputs/json_field.py lifetime_overlaps | FileCheck %s --check-prefix=THREADS
// THREADS: allocs 20 lifetime_overlaps 18{{$}}
// RUN: rm -rf %t.d && %env_heapprof_opts=profile_dir=%t.d %run %t batches
// RUN: heapprof report --format json %t.d | %python %S/Inputs/json_field.py lifetime_overlaps | FileCheck %s --check-prefix=BATCHES
// RUN: heapprof merge -o %t.m.profraw %t.d && heapprof report --format json %t.m.profraw | %python %S/Inputs/json_field.py lifetime_overlaps | FileCheck %s --check-prefix=BATCHES
// BATCHES: allocs 12 lifetime_overlaps 10{{$}}
#include <heapprof/heapprof_interface.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

__attribute__((noinline)) char *mk(void) { return malloc(100); }

static void batch(int n) {
  char *p[16];
  for (int i = 0; i < n; i++)
    p[i] = mk();
  usleep(20000);
  for (int i = 0; i < n; i++)
    free(p[i]);
}

static void *worker(void *arg) {
  (void)arg;
  batch(10);
  return NULL;
}

int main(int argc, char **argv) {
  if (argc < 2)
    return 2;
  if (!strcmp(argv[1], "live")) {
    char *p[2];
    for (int i = 0; i < 2; i++)
      p[i] = mk();
    for (int i = 0; i < 3; i++) {
      usleep(20000);
      if (__heapprof_dump() != 0)
        return 1;
    }
    usleep(20000);
    free(p[0]);
    free(p[1]);
  } else if (!strcmp(argv[1], "threads")) {
    for (int t = 0; t < 2; t++) {
      pthread_t th;
      if (pthread_create(&th, NULL, worker, NULL) || pthread_join(th, NULL))
        return 1;
      usleep(20000);
    }
  } else {
    for (int r = 0; r < 2; r++) { /* one call site: one context */
      batch(r ? 10 : 2);
      if (!r && __heapprof_dump() != 0)
        return 1;
    }
  }
  return 0;
}
