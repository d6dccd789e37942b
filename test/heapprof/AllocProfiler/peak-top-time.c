// The peak's time is when the heap reached it, the allocation that made it
// largest, not the moment a snapshot found it.  Phase 1 allocates 100
// objects of 1000 bytes, 30 ms later phase 2 another 100 (the top, 200000
// bytes), and 30 ms after that the program frees phase 2's objects; the
// first of those frees takes the snapshot.  So the peak is at phase 2's
// allocations: at or after its context's first allocation time, and at
// least 30 ms before its free (the coarse clock reads a start at most the
// true time and an end at least it; checked with 20 ms to spare).  The
// peak read the free's time, "at 60 ms" for a top at 32 ms.  With NOFREE
// nothing is freed and the exit dump takes the peak: it read the dump's
// time, 30 ms after the top, and now the top's.
// RUN: %clang_heapprof -O0 -g %s -o %t
// RUN: rm -rf %t.d %t.n && mkdir -p %t.d %t.n
// RUN: %env_heapprof_opts=profile_dir=%t.d %run %t
// RUN: %python %S/Inputs/peak_top_time.py %t.d/*.profraw 20 | FileCheck %s
// RUN: env NOFREE=1 HEAPPROF_OPTIONS=profile_dir=%t.n %run %t
// RUN: %python %S/Inputs/peak_top_time.py --dump %t.n/*.profraw 20 | FileCheck %s
// CHECK: peak at the top
#include <stdlib.h>
#include <time.h>

static char *volatile one[100], *volatile two[100];

static void pause_ms(long ms) {
  struct timespec t = {0, ms * 1000000L};
  nanosleep(&t, NULL);
}

int main(void) {
  for (int i = 0; i < 100; i++)
    one[i] = malloc(1000);
  pause_ms(30);
  for (int i = 0; i < 100; i++)
    two[i] = malloc(1000);
  pause_ms(30);
  if (!getenv("NOFREE"))
    for (int i = 0; i < 100; i++)
      free(two[i]);
  return 0;
}
