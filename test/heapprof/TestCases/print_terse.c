// print_terse=1: no header line, one upstream-style line per context,
// MIB:id/count/ave size/min size/max size/ave acc/min acc/max acc/ave life/
//     min life/max life/migrated/overlaps/same alloc cpu/same dealloc cpu,
// then the stacks as usual.
// RUN: %clang_rt_heapprof -O0 -fno-builtin %s -o %t
// RUN: %env_heapprof_opts=log_path=stderr:print_terse=1 %run %t 2>&1 | FileCheck %s
#include <stdlib.h>
#include <string.h>

__attribute__((noinline)) char *make48(void) { return malloc(48); }
__attribute__((noinline)) char *make_sized(size_t n) { return malloc(n); }

int main(void) {
  // 3 x 48 bytes, memset of 48 = 6 words each.
  for (int i = 0; i < 3; i++) {
    char *p = make48();
    memset(p, 0, 48);
    free(p);
  }
  // 16 and 80 bytes: 2 and 10 words.
  for (size_t n = 16; n <= 80; n += 64) {
    char *p = make_sized(n);
    memset(p, 0, n);
    free(p);
  }
  return 0;
}
// CHECK: HeapProf profile:
// CHECK-NOT: Recorded MIBs
// CHECK-NOT: alloc_count
// CHECK: MIB:[[A:[0-9]+]]/3/48.00/48/48/6.00/6/6/{{[0-9]+\.[0-9][0-9]/[0-9]+/[0-9]+/[0-9]+/[0-9]+/[0-9]+/[0-9]+}}{{$}}
// CHECK-NEXT: MIB:[[B:[0-9]+]]/2/48.00/16/80/6.00/2/10/{{[0-9]+\.[0-9][0-9]/[0-9]+/[0-9]+/[0-9]+/[0-9]+/[0-9]+/[0-9]+}}{{$}}
// CHECK-NEXT: Stack for id [[A]]:
// CHECK-NEXT: #0 0x{{[0-9a-f]+}} in make48 {{.*}}print_terse.c
// CHECK: Stack for id [[B]]:
// CHECK-NEXT: #0 0x{{[0-9a-f]+}} in make_sized {{.*}}print_terse.c
// CHECK-NOT: alloc_count
// CHECK: Summary: 2 contexts, 5 allocations, 240 bytes, 30 accesses
