// Timestamps come from the coarse clock (4 ms ticks at HZ=250): a start is
// read as at most the true time and an end as at least it while the ticks
// come on time, so a measured lifetime is then never shorter than the true
// one.  20 chunks each live at least 10 ms (usleep(10 ms) between malloc
// and free).  A tick that comes late (a loaded VM) makes a reading short by
// its lateness, which no fixed allowance bounds.
// The program reads the same coarse clock itself, just before and after
// each malloc and each free, so it knows the readings heapprof's start
// (between its two reads around the malloc, c0..c1) and end (c2..c3, around
// the free) can have, whether the ticks come on time or not.  heapprof's
// lifetime is floor(start) and floor(end) in ms since its init plus one
// tick, so each life lies in [floor((c2 - c1) ms) + tick, ceil((c3 - c0) ms)
// + tick]: the shortest of those lower bounds and the longest of the upper
// ones bound heapprof's min and max, and a tick dropped or added (as each
// checkpoint once added one: Raw/checkpoint-lifetimes.c) falls outside.
// The bounds were the true lives (by CLOCK_MONOTONIC) less or plus a tick
// of lateness, and a tick later than that failed: on a loaded 2-CPU VM
// (load average 20) 1 run in 100 measured a max of 56 ms where the longest
// true life was 41 ms (allowed: 41 + 3 x 4 + 1 = 54), a start read about
// 10 ms late.  The true lives are 10 to 14.75 ms plus usleep's overshoot.
// RUN: %clang_rt_heapprof -O0 %s -o %t
// RUN: %env_heapprof_opts=log_path=stderr %run %t 2> %t.out
// RUN: FileCheck %s < %t.out
// RUN: %python -c "import re,sys; t=open(sys.argv[1]).read(); lo,hi=map(int,re.search(r'lives by the coarse clock: shortest (\d+) ms, longest (\d+) ms',t).groups()); mn,mx=map(int,re.search(r'lifetime \(ave/min/max\): \S+ / (\d+) / (\d+)',t).groups()); print('min', mn, 'max', mx, 'allowed', lo, 'to', hi); sys.exit(not lo <= mn <= mx <= hi)" %t.out
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

__attribute__((noinline)) void *make(void) { return malloc(48); }

static long long coarse_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
  return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int main(void) {
  struct timespec res;
  clock_getres(CLOCK_MONOTONIC_COARSE, &res);
  long long tick = (res.tv_sec * 1000000000LL + res.tv_nsec + 999999) / 1000000;
  long long shortest = -1, longest = 0;
  for (int i = 0; i < 20; i++) {
    long long c0 = coarse_ns();
    void *volatile p = make();
    long long c1 = coarse_ns();
    usleep(10 * 1000 + i * 250); // 10 ms, then a little more each time
    long long c2 = coarse_ns();
    free(p);
    long long c3 = coarse_ns();
    long long lo = (c2 - c1) / 1000000 + tick;
    long long hi = (c3 - c0 + 999999) / 1000000 + tick;
    if (shortest < 0 || lo < shortest)
      shortest = lo;
    if (hi > longest)
      longest = hi;
  }
  fprintf(stderr, "lives by the coarse clock: shortest %lld ms, longest %lld ms\n",
          shortest, longest);
  return 0;
}
// CHECK: lives by the coarse clock: shortest {{[0-9]+}} ms, longest {{[0-9]+}} ms
// CHECK: Memory allocation stack id = {{[0-9]+}}
// CHECK-NEXT: alloc_count 20, size (ave/min/max) 48.00 / 48 / 48
// CHECK-NEXT: access_count
// CHECK-NEXT: lifetime (ave/min/max): {{[0-9.]+}} / {{[0-9]+}} / {{[0-9]+}}{{$}}
