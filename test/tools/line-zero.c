// A frame whose line is 0 (the compiler's "no line": code it made, or merged
// from several lines) is printed with its file alone, not "file:0", in
// report's stacks and diff's.  #line 0 gives the call in `caller` line 0.
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: %clang_heapprof -O0 -g %s -o %t
// RUN: %env_heapprof_opts=profile_dir=%t.dir %run %t
// RUN: heapprof report %t.dir | FileCheck %s
// CHECK: == Top contexts by bytes
// CHECK-NEXT: 40 B in 1 object
// CHECK-NEXT: site {{.*}}line-zero.c:{{[0-9]+}}:{{[0-9]+$}}
// CHECK-NEXT: caller {{.*}}line-zero.c{{$}}
// CHECK-NEXT: main {{.*}}line-zero.c:{{[0-9]+}}:{{[0-9]+$}}
// A second run allocates twice: diff shows the context's stack.
// RUN: rm -rf %t.two && mkdir -p %t.two
// RUN: %env_heapprof_opts=profile_dir=%t.two %run %t again
// RUN: heapprof diff %t.dir %t.two | FileCheck %s --check-prefix=DIFF
// DIFF: caller {{.*}}line-zero.c{{$}}
#include <stdlib.h>

__attribute__((noinline)) void *site(void) { return malloc(40); }
__attribute__((noinline)) void *caller(void) {
#line 0
  return site();
}
int main(int argc, char **argv) {
  (void)argv;
  for (int i = 0; i < argc; i++)
    free(caller());
  return 0;
}
