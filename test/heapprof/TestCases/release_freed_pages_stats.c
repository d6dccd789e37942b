// release_freed_pages counts exactly what it hands back.  64 chunks of
// 64 KiB sit in 80 KiB blocks (20 pages each, page-aligned).  The class's
// thread cache holds 3 and drains one at a time from its top, so v[0], v[1]
// and v[63] stay cached and v[2]..v[62] -- 61 blocks, one run -- go back to
// the region one by one.  A pass runs once blocks worth release_threshold_kb
// came back since the previous one:
//   1024 KiB = 13 blocks: passes after 13, 26, 39, 52: 4 passes, 52 blocks,
//            1040 pages (the last 9 blocks wait for more);
//   80 KiB = 1 block: 61 passes, 1220 pages.
// RUN: %clang_rt_heapprof -O0 %s -o %t
// RUN: %env_heapprof_opts=release_freed_pages=1:print_stats=1:log_path=%t.prof %run %t 2>&1 | FileCheck %s --check-prefix=DEFAULT
// RUN: %env_heapprof_opts=release_freed_pages=1:release_threshold_kb=80:print_stats=1:log_path=%t.prof %run %t 2>&1 | FileCheck %s --check-prefix=EACH
#include <stdlib.h>
#include <string.h>

#define N 64
static char *volatile v[N];

int main(void) {
  for (int i = 0; i < N; i++) {
    v[i] = malloc(64 * 1024);
    memset(v[i], 1, 64 * 1024);
  }
  for (int i = 0; i < N; i++)
    free(v[i]);
  return 0;
}
// DEFAULT: release_passes 4 release_freed_pages passes
// DEFAULT-NEXT: pages_released 1040 4 KiB pages
// EACH: release_passes 61 release_freed_pages passes
// EACH-NEXT: pages_released 1220 4 KiB pages
