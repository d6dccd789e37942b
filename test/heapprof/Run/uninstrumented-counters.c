// An uninstrumented program under heapprof run: nothing can write an
// access counter (the preloaded runtime exports no string functions, and
// no instrumented module is loaded), so the runtime neither clears nor
// reads any (heapprof_shadow.h, hp_shadow_in_use) and not one page of
// counters becomes resident.  Clearing each new chunk's counters used to
// make them resident, and so did reading the live chunks' counters for
// heap utilization at the exit dump, where the overhead at the peak is
// measured: the heap is at its peak at exit.  What the report counts from
// the allocations alone stays exact: 1000 blocks of 1000 bytes written and
// freed, then 2000 more written and live at exit; no accesses (nothing
// counted them).
// RUN: %clang_plain -O0 -g %s -o %t
// RUN: rm -rf %t.dir && env -u LD_PRELOAD heapprof run -o %t.dir -- %t | FileCheck %s --check-prefix=OUT
// RUN: heapprof report --top 0 %t.dir | FileCheck %s
// RUN: heapprof report --top 0 --format json %t.dir > %t.json
// RUN: %python %S/Inputs/site-accesses.py %t.json site_freed site_live | FileCheck %s --check-prefix=SITE
// OUT: sum 3000000
// Access measures are unknown, not 0: a dash, and the notes say why.
// CHECK: == Access and allocator measures of the top contexts
// CHECK-NEXT: #  acc/object  density  lines touched  pages touched  line util  page util
// CHECK-NEXT: #1 - - - - - -
// CHECK-NEXT: #2 - - - - - -
// CHECK: (- for the access measures: no access was counted; a program not compiled with -fheapprof counts none)
// CHECK: == Cold candidates
// CHECK-NEXT: (no access was counted; a program not compiled with -fheapprof counts none)
// CHECK: == Heap utilization at the last dump
// CHECK: (no access was counted, so no line or page is seen touched; a program not compiled with -fheapprof counts none)
// CHECK: memory overhead at the peak:
// CHECK: shadow_resident {{ *}}0 bytes
// SITE: site_freed allocs=1000 bytes=1000000 frees=1000 accesses=0
// SITE: site_live allocs=2000 bytes=2000000 frees=0 accesses=0
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__attribute__((noinline)) static char *site_freed(void) { return malloc(1000); }
__attribute__((noinline)) static char *site_live(void) { return malloc(1000); }

static long fill(char **v, int n, char *(*site)(void)) {
  long sum = 0;
  for (int i = 0; i < n; i++) {
    v[i] = site();
    memset(v[i], 1, 1000);
  }
  for (int i = 0; i < n; i++)
    for (int j = 0; j < 1000; j++)
      sum += v[i][j];
  return sum;
}

int main(void) {
  static char *v[2000];
  long sum = fill(v, 1000, site_freed);
  for (int i = 0; i < 1000; i++)
    free(v[i]);
  sum += fill(v, 2000, site_live);
  printf("sum %ld\n", sum);
  return 0;
}
