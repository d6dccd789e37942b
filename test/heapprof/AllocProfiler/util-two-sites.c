// Per-context utilization counts each page once per context, and only the
// context's own bytes: two sites take turns allocating 10,000 48-byte
// objects each (every byte written), so their objects interleave in the
// 96-byte class (util-packed.c has the layout): 20,000 blocks on pages
// 0..468.  Each context has objects on all 469 pages but only half of the
// bytes there: 480,000 / (469 * 4096) = 24.98% each, while the heap-wide
// figure, all live bytes, is 960,000 / (469 * 4096) = 49.97%.  Lines: one
// site got the even blocks (two lines each: 20,000 lines, 37.50%), the
// other the odd ones (one line each: 10,000 lines, 75.00%); which is which
// depends on the order the thread cache hands blocks out.
//
// RUN: %clang_heapprof -O0 %s -o %t
// RUN: %env_heapprof_opts=log_path=stderr %run %t 2>&1 | FileCheck %s
#include <stdlib.h>
#include <string.h>

#define N 10000
static char *volatile objs[2 * N];

__attribute__((noinline)) static char *site_a(void) { return malloc(48); }
__attribute__((noinline)) static char *site_b(void) { return malloc(48); }

int main(void) {
  for (int i = 0; i < N; i++) {
    objs[2 * i] = site_a();
    objs[2 * i + 1] = site_b();
    memset(objs[2 * i], 1, 48);
    memset(objs[2 * i + 1], 1, 48);
  }
  return 0;
}

// CHECK-DAG: live utilization: lines 37.50% (480000 live bytes on 20000 touched of 20000 lines), pages 24.98% (480000 live bytes on 469 touched of 469 pages)
// CHECK-DAG: live utilization: lines 75.00% (480000 live bytes on 10000 touched of 10000 lines), pages 24.98% (480000 live bytes on 469 touched of 469 pages)
// CHECK: Heap utilization: lines 50.00% (960000 live bytes on 30000 touched of 30000 lines), pages 49.97% (960000 live bytes on 469 touched of 469 pages)
