// A chunk still live at exit is reported once, as live at dump.
// RUN: %clang_rt_heapprof -O0 %s -o %t
// RUN: %env_heapprof_opts=log_path=stderr %run %t 2>&1 | FileCheck %s
#include <stdlib.h>

__attribute__((noinline)) void *leak_it(void) { return malloc(100); }

int main(void) {
  void *volatile p = leak_it();
  (void)p;
  return 0;
}
// CHECK: Recorded MIBs
// CHECK: Memory allocation stack id = [[ID:[0-9]+]]
// CHECK-NEXT: alloc_count 1, size (ave/min/max) 100.00 / 100 / 100
// CHECK: live at dump: 1, continued from earlier dumps: 0
// CHECK: Stack for id [[ID]]:
// CHECK-NEXT: #0 {{.*}} in leak_it {{.*}}live_at_exit.c
// CHECK-NEXT: #1 {{.*}} in main {{.*}}live_at_exit.c
