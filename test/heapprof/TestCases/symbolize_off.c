// symbolize=0: frames are address, module and offset (two spaces before the
// parenthesis), and no symbolizer runs.  The module offset is what
// llvm-symbolizer resolves to the allocating function.
// RUN: %clang_rt_heapprof -O0 %s -o %t
// RUN: %env_heapprof_opts=log_path=stderr:symbolize=0 %run %t 2>&1 | FileCheck %s
// RUN: %env_heapprof_opts=log_path=stderr:symbolize=false %run %t 2>&1 | FileCheck %s
// The same stack symbolized: the first frame is in make_it.
// RUN: %env_heapprof_opts=log_path=stderr %run %t 2>&1 | FileCheck %s --check-prefix=SYM
#include <stdlib.h>

__attribute__((noinline)) void *make_it(void) { return malloc(33); }

int main(void) {
  void *volatile p = make_it();
  free(p);
  return 0;
}
// CHECK: alloc_count 1, size (ave/min/max) 33.00 / 33 / 33
// CHECK: Stack for id {{[0-9]+}}:
// CHECK-NEXT: {{^    }}#0 0x{{[0-9a-f]+}}  ({{.*}}symbolize_off.c.tmp+0x{{[0-9a-f]+}}){{$}}
// CHECK-NEXT: {{^    }}#1 0x{{[0-9a-f]+}}  ({{.*}}symbolize_off.c.tmp+0x{{[0-9a-f]+}}){{$}}
// The walk ends at main: libc's start-up code has no frame chain to follow.
// CHECK-EMPTY:
// CHECK-NOT: {{ in }}
// CHECK: Summary: 1 contexts

// SYM: Stack for id {{[0-9]+}}:
// SYM-NEXT: #0 0x{{[0-9a-f]+}} in make_it {{.*}}symbolize_off.c
// SYM-NEXT: #1 0x{{[0-9a-f]+}} in main {{.*}}symbolize_off.c
