// A Heap Info Block table of one entry (hib_table_sets=1:hib_table_ways=1)
// evicts on nearly every merge; the evicted entries still reach the raw
// profile, so llvm-profdata adds up to the same totals as with the default
// table, and each run's raw profile agrees with its own text profile.
// REQUIRES: heapprof-driver
// RUN: %clang_heapprof -O0 %s -o %t
// RUN: rm -rf %t.def %t.tiny
// RUN: %env_heapprof_opts=profile_dir=%t.def:print_raw=1:print_text=1 %run %t
// RUN: %env_heapprof_opts=profile_dir=%t.tiny:print_raw=1:print_text=1:hib_table_sets=1:hib_table_ways=1 %run %t
// RUN: llvm-profdata show --memory %t.def/*.profraw --profiled-binary %t > %t.def.yaml
// RUN: llvm-profdata show --memory %t.tiny/*.profraw --profiled-binary %t > %t.tiny.yaml
// RUN: %python %S/Inputs/raw_vs_text.py %t %t.def.yaml %t.def/*.txt | FileCheck %s --check-prefix=EQUAL
// RUN: %python %S/Inputs/raw_vs_text.py %t %t.tiny.yaml %t.tiny/*.txt | FileCheck %s --check-prefix=EQUAL
// RUN: %python %S/Inputs/raw_vs_text.py --sum --no-text %t %t.def.yaml > %t.def.sum
// RUN: %python %S/Inputs/raw_vs_text.py --sum --no-text %t %t.tiny.yaml > %t.tiny.sum
// RUN: diff %t.def.sum %t.tiny.sum
// RUN: FileCheck %s < %t.def.sum
// RUN: FileCheck %s --check-prefix=EVICT < %t.tiny/heapprof.tiny_table.c.tmp.*.txt
#include <stdlib.h>

// Site k allocates k+1 objects of 8*(k+1) bytes, interleaved with the other
// sites so consecutive frees hit different contexts, and stores k+1 longs
// into each: k+1 allocations, (k+1)^2 accesses.
#define SITE(k)                                                              \
  __attribute__((noinline)) long *site##k(void) {                            \
    return malloc(8 * (k + 1));                                              \
  }
SITE(0) SITE(1) SITE(2) SITE(3) SITE(4) SITE(5) SITE(6) SITE(7)
typedef long *(*site_fn)(void);
static site_fn sites[] = {site0, site1, site2, site3,
                          site4, site5, site6, site7};

int main(void) {
  for (int round = 0; round < 8; round++)
    for (int k = round; k < 8; k++) {
      long *volatile p = sites[k]();
      for (int j = 0; j <= k; j++)
        p[j] = j;
      free(p);
    }
  return 0;
}
// EQUAL: compared 8 sites with the text profile: all equal

// CHECK: site site0<main alloc_count=1 size=8/8/8 access=1/1/1
// CHECK-NEXT: site site1<main alloc_count=2 size=32/16/16 access=4/2/2
// CHECK-NEXT: site site2<main alloc_count=3 size=72/24/24 access=9/3/3
// CHECK-NEXT: site site3<main alloc_count=4 size=128/32/32 access=16/4/4
// CHECK-NEXT: site site4<main alloc_count=5 size=200/40/40 access=25/5/5
// CHECK-NEXT: site site5<main alloc_count=6 size=288/48/48 access=36/6/6
// CHECK-NEXT: site site6<main alloc_count=7 size=392/56/56 access=49/7/7
// CHECK-NEXT: site site7<main alloc_count=8 size=512/64/64 access=64/8/8
// CHECK-NOT: site

// EVICT: Summary: {{.*}}, {{[1-9][0-9]*}} HIB table evictions
