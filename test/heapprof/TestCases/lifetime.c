// Lifetimes are at least the time the program kept the object: 100 ms of
// sleep between malloc and free means min lifetime >= 100 ms, while the
// coarse clock's ticks come on time.  A late tick (a loaded VM) reads an
// end short by its lateness (heapprof_clock.h; lifetime_coarse.c, which
// bounds it by the program's own reads of the clock): up to 20 ms of it
// is allowed, min >= 80 (a start read 10 ms late was seen under make
// check's load, where one tick, min >= 96, had been allowed), and the
// short-lived object's below that.
// RUN: %clang_rt_heapprof -O0 %s -o %t
// RUN: %env_heapprof_opts=log_path=stderr %run %t 2>&1 | FileCheck %s
#include <stdlib.h>
#include <unistd.h>

__attribute__((noinline)) void *long_lived(void) { return malloc(64); }
__attribute__((noinline)) void *short_lived(void) { return malloc(32); }

int main(void) {
  for (int i = 0; i < 2; i++) {
    void *volatile p = long_lived();
    usleep(100 * 1000);
    free(p);
  }
  free(short_lived());
  return 0;
}
// CHECK: Memory allocation stack id = [[LONG:[0-9]+]]
// CHECK-NEXT: alloc_count 2, size (ave/min/max) 64.00 / 64 / 64
// CHECK-NEXT: access_count
// CHECK-NEXT: lifetime (ave/min/max): {{[89][0-9]|[1-9][0-9][0-9]+}}.{{[0-9][0-9]}} / {{[89][0-9]|[1-9][0-9][0-9]+}} / {{[89][0-9]|[1-9][0-9][0-9]+}}{{$}}
// A free right after the malloc: far below the sleep.
// CHECK: Memory allocation stack id = [[SHORT:[0-9]+]]
// CHECK-NEXT: alloc_count 1, size (ave/min/max) 32.00 / 32 / 32
// CHECK-NEXT: access_count
// CHECK-NEXT: lifetime (ave/min/max): {{[0-9]\.[0-9][0-9]|[1-7][0-9]\.[0-9][0-9]}} / {{[0-9]|[1-7][0-9]}} /
// CHECK: Stack for id [[LONG]]:
// CHECK-NEXT: in long_lived
// CHECK: Stack for id [[SHORT]]:
// CHECK-NEXT: in short_lived
