// Timestamps come from the coarse clock (4 ms ticks at HZ=250): a start is
// read as at most the true time and an end as at least it while the ticks
// come on time, so a measured lifetime is then never shorter than the true
// one.  20 chunks each live at least 10 ms (usleep(10 ms) between malloc
// and free).  A tick that comes late (a loaded VM) makes an end read short
// by its lateness: once in CI a life of 10 ms or more measured 8.  So the
// check allows one tick of lateness (min >= 6).
// The top: a measured life is at most the true one plus 2 ticks (a start
// read up to a tick early, an end up to a tick late), 1 ms of rounding, and
// the lateness of the tick before the start (read that much earlier): as
// at the bottom, one tick of it is allowed.
// The true lives are 10 to 14.75 ms plus usleep's overshoot, which load
// makes as long as it likes (72 ms of a 10 ms sleep at load average 7): the
// program measures each life itself with CLOCK_MONOTONIC, around the malloc
// and the free, and the longest measured by heapprof may not pass the
// longest of those plus 3 ticks and 1 ms (it was a fixed 99 ms).
// RUN: %clang_rt_heapprof -O0 %s -o %t
// RUN: %env_heapprof_opts=log_path=stderr %run %t 2> %t.out
// RUN: FileCheck %s < %t.out
// RUN: %python -c "import re,sys; t=open(sys.argv[1]).read(); top,tick=map(int,re.search(r'longest life (\d+) ms, tick (\d+) ms',t).groups()); mx=int(re.search(r'lifetime \(ave/min/max\): \S+ / \d+ / (\d+)',t).group(1)); print('max', mx, 'allowed', top+3*tick+1); sys.exit(mx > top+3*tick+1)" %t.out
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

__attribute__((noinline)) void *make(void) { return malloc(48); }

static long long now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int main(void) {
  long long longest = 0;
  for (int i = 0; i < 20; i++) {
    long long t0 = now_ns();
    void *volatile p = make();
    usleep(10 * 1000 + i * 250); // 10 ms, then a little more each time
    free(p);
    long long life = now_ns() - t0;
    if (life > longest)
      longest = life;
  }
  struct timespec res;
  clock_getres(CLOCK_MONOTONIC_COARSE, &res);
  fprintf(stderr, "longest life %lld ms, tick %lld ms\n",
          (longest + 999999) / 1000000,
          (res.tv_sec * 1000000000LL + res.tv_nsec + 999999) / 1000000);
  return 0;
}
// CHECK: longest life {{[0-9]+}} ms, tick {{[0-9]+}} ms
// CHECK: Memory allocation stack id = {{[0-9]+}}
// CHECK-NEXT: alloc_count 20, size (ave/min/max) 48.00 / 48 / 48
// CHECK-NEXT: access_count
// CHECK-NEXT: lifetime (ave/min/max): {{[0-9.]+}} / {{[6-9]|[1-9][0-9]+}} / {{[0-9]+}}{{$}}
