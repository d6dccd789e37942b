// release_idle_ms: a pass gives pages back in steps, one per refill or
// drain, each holding a region's lock for a bounded piece of work: a span
// whose pages go costs 64 units (a unit per KiB of it), one passed over 1,
// and a step has 4,096, so it gives back at most 64 spans of 64 KiB, with
// the shadow pages that count them (a 4 KiB page per 32 KiB: 8 KiB a span,
// resident since each malloc clears its block's counters): 64 x 72 KiB =
// 4,608 KiB.  Before, the one refill or drain that found a pass due did
// every span of every region under each region's lock: 2 GiB of 64-byte
// blocks freed but one a span made a malloc of that class on another
// thread wait 400 ms (docs/performance.md).
//
// 131,072 chunks of 480 bytes sit in 512-byte blocks: 64 MiB, 1,024 spans
// of 64 KiB, written then freed.  Passes start at most once a second, and a
// span goes at the second pass after its last block came back.  After the
// frees: a sleep of 1.1 s and one refill (a malloc of a class not used
// before: its cache is empty) start a pass that finds no span idle for two
// epochs yet; another 1.1 s and one refill start the pass that gives back.
// That one refill is one step: VmRSS drops by more than 0 and at most
// 4,608 KiB (a new class's refill and the 1.1 s add nothing that goes).
// Then churns of the 64-byte class (each at least 6 refills, see
// release_idle.c) finish the pass: 1,024 spans / 64 = 16 steps, and 4
// churns make 24 at least; the whole drop is at least 63 MiB as in
// release_idle.c.  VmRSS is read with open and read: no malloc, whose
// refills would be steps.
// RUN: %clang_rt_heapprof -O0 %s -o %t
// RUN: %env_heapprof_opts=dump_at_exit=0 %run %t 2>&1 | FileCheck %s
#include "../Inputs/idle_churn.h"
#include "Inputs/resident.h"
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define N 131072
static char *volatile blocks[N];
static char *volatile one;

static long vm_rss_kb(void) { return status_kib("VmRSS:"); }

int main(void) {
  for (int i = 0; i < N; i++) {
    blocks[i] = malloc(480);
    memset(blocks[i], 1, 480);
  }
  long before = vm_rss_kb();
  for (int i = 0; i < N; i++)
    free(blocks[i]);
  struct timespec ts = {1, 100000000};
  nanosleep(&ts, NULL);
  one = malloc(1500); // a refill: the pass that sees no span idle enough
  nanosleep(&ts, NULL);
  long step_before = vm_rss_kb();
  one = malloc(2500); // a refill: the first step of the pass that gives back
  long step_after = vm_rss_kb();
  for (int i = 0; i < 4; i++)
    churn();
  long after = vm_rss_kb();
  long step = step_before - step_after, drop = before - after;
  fprintf(stderr, "one step gave back: %s\n", step > 0 ? "yes" : "no");
  fprintf(stderr, "one step gave back at most 4608 KiB: %s\n",
          step <= 4608 ? "yes" : "no");
  fprintf(stderr, "dropped at least 63 MiB: %s\n",
          drop >= 63 * 1024 ? "yes" : "no");
  fprintf(stderr, "VmRSS %ld KiB; %ld -> %ld KiB at the step; %ld KiB\n",
          before, step_before, step_after, after);
  return 0;
}
// CHECK: one step gave back: yes
// CHECK: one step gave back at most 4608 KiB: yes
// CHECK: dropped at least 63 MiB: yes
