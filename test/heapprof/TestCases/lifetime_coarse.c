// Timestamps come from the coarse clock (4 ms ticks at HZ=250): a start is
// read as at most the true time and an end as at least it while the ticks
// come on time, so a measured lifetime is then never shorter than the true
// one.  20 chunks each live at least 10 ms (usleep(10 ms) between malloc
// and free).  A tick that comes late (a loaded VM) makes an end read short
// by its lateness: once in CI a life of 10 ms or more measured 8.  So the
// check allows one tick of lateness (min >= 6) and a generous top (the
// longest life is 14.75 ms plus usleep's overshoot, plus up to 2 ticks).
// RUN: %clang_rt_heapprof -O0 %s -o %t
// RUN: %env_heapprof_opts=log_path=stderr %run %t 2>&1 | FileCheck %s
#include <stdlib.h>
#include <unistd.h>

__attribute__((noinline)) void *make(void) { return malloc(48); }

int main(void) {
  for (int i = 0; i < 20; i++) {
    void *volatile p = make();
    usleep(10 * 1000 + i * 250); // 10 ms, then a little more each time
    free(p);
  }
  return 0;
}
// CHECK: Memory allocation stack id = {{[0-9]+}}
// CHECK-NEXT: alloc_count 20, size (ave/min/max) 48.00 / 48 / 48
// CHECK-NEXT: access_count
// CHECK-NEXT: lifetime (ave/min/max): {{[0-9.]+}} / {{[6-9]|[1-9][0-9]}} / {{[1-9][0-9]}}{{$}}
