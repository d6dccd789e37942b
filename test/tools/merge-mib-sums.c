// heapprof merge adds every MIB total of its inputs (formats.md, "Merged
// profiles": totals add): two runs of a program whose one site allocates
// 10 objects of 64 bytes, accesses each 5 times and frees it.  Each run:
// 10 objects, 640 bytes, 50 accesses, an access density of 500 / 64 = 7
// (rounded down) per object, 70 in all; the merge of the two runs holds
// twice each.  The lifetimes, and the lifetime access densities they
// divide, are the clock's: their merged totals are the sums of the
// inputs'.
// RUN: rm -rf %t.a %t.b && mkdir -p %t.a %t.b
// RUN: %clang_heapprof -O0 %s -o %t
// RUN: %env_heapprof_opts=profile_dir=%t.a %run %t
// RUN: %env_heapprof_opts=profile_dir=%t.b %run %t
// RUN: heapprof merge -o %t.m.profraw %t.a %t.b
// RUN: heapprof show %t.m.profraw > %t.m.show
// RUN: heapprof show %t.a/*.profraw > %t.a.show
// RUN: heapprof show %t.b/*.profraw > %t.b.show
// RUN: %python %S/Inputs/mib_totals.py %t.m.show %t.a.show %t.b.show | FileCheck %s
// CHECK: AllocCount merged 20 inputs 20 equal
// CHECK-NEXT: TotalAccessCount merged 100 inputs 100 equal
// CHECK-NEXT: TotalSize merged 1280 inputs 1280 equal
// CHECK-NEXT: TotalLifetime merged {{[0-9]+}} inputs {{[0-9]+}} equal
// CHECK-NEXT: TotalAccessDensity merged 140 inputs 140 equal
// CHECK-NEXT: TotalLifetimeAccessDensity merged {{[0-9]+}} inputs {{[0-9]+}} equal
#include <heapprof/heapprof_interface.h>
#include <stdlib.h>

__attribute__((noinline)) static char *mk(void) { return malloc(64); }

int main(void) {
  for (int i = 0; i < 10; i++) {
    char *volatile p = mk();
    for (int k = 0; k < 5; k++)
      __heapprof_record_access(p + k);
    free(p);
  }
  return 0;
}
