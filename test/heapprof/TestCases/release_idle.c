// release_idle_ms: free blocks of a size class that nothing took again for
// an interval go back to the kernel at a later refill or drain, with no
// flag and no malloc_trim.  131,072 chunks of 480 bytes sit in 512-byte
// blocks (480 + the 32-byte header): 64 MiB, 128 blocks to a 64 KiB span,
// 8 to a page.  All are written, then freed in order.  The class's thread
// cache keeps at most 64 of them (32 KiB), and they lie in at most 64
// pages, so at least 64 MiB - 256 KiB = 65,280 KiB of the blocks' pages
// go back; the shadow counters (8 bytes per 64, not written here: the
// program is not instrumented) add nothing resident.  The churn that
// triggers the passes takes 256 blocks of 64 bytes, 16 KiB.  So VmRSS
// drops by at least 65,280 - 16 = 65,264 KiB (63.7 MiB): the program
// checks 63 MiB.  With release_idle_ms=-1 (the allocator before the
// flag) nothing goes back: the drop is below 1 MiB.
// Two passes must see a span idle: 0 runs one at every refill and drain
// (the free loop's drains already release the spans freed before); the
// default 1000 ms needs two refills or drains a second apart, which the
// churn gives after sleeps of 1.1 s (a lower bound on the time: load can
// only add to it).  A pass goes in steps, one a refill or drain, each
// giving back at most 64 spans of 64 KiB (release_idle_step.c): the 1,024
// spans here take 16.  A churn makes at least (256 - 64) / 32 = 6 refills
// (the cache holds at most 64 blocks, a refill brings 32), so the 3 more
// churns after the last sleep, with its own, make 24 steps at least.
// RUN: %clang_rt_heapprof -O0 %s -o %t
// RUN: %env_heapprof_opts=release_idle_ms=0:print_stats=1:log_path=%t.prof %run %t 2>&1 | FileCheck %s --check-prefixes=CHECK,ZERO
// RUN: %env_heapprof_opts=dump_at_exit=0 %run %t 2>&1 | FileCheck %s
// RUN: %env_heapprof_opts=release_idle_ms=-1:dump_at_exit=0 %run %t 2>&1 | FileCheck %s --check-prefix=NEVER
#include "../Inputs/idle_churn.h"
#include "Inputs/resident.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define N 131072
static char *volatile blocks[N];

static long vm_rss_kb(void) { return status_kib("VmRSS:"); }

int main(void) {
  for (int i = 0; i < N; i++) {
    blocks[i] = malloc(480);
    memset(blocks[i], 1, 480);
  }
  long before = vm_rss_kb();
  for (int i = 0; i < N; i++)
    free(blocks[i]);
  churn();
  churn();
  struct timespec ts = {1, 100000000};
  for (int i = 0; i < 2; i++) {
    nanosleep(&ts, NULL);
    churn();
  }
  for (int i = 0; i < 3; i++)
    churn();
  long after = vm_rss_kb();
  long drop = before - after;
  fprintf(stderr, "dropped at least 63 MiB: %s\n",
          drop >= 63 * 1024 ? "yes" : "no");
  fprintf(stderr, "dropped under 1 MiB: %s\n", drop < 1024 ? "yes" : "no");
  if (drop < 63 * 1024)
    fprintf(stderr, "VmRSS %ld KiB -> %ld KiB\n", before, after);
  return 0;
}
// CHECK: dropped at least 63 MiB: yes
// CHECK: dropped under 1 MiB: no
// ZERO: HeapProf statistics:
// ZERO: idle_passes {{[1-9][0-9]*}} release_idle_ms passes
// NEVER: dropped at least 63 MiB: no
// NEVER: dropped under 1 MiB: yes
