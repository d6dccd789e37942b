// release_freed_pages hands pages of freed small blocks back with
// madvise(MADV_DONTNEED) when a thread cache drains into its region: those
// calls are counted and charged to the free that drained the cache, in
// whole pages (data and the shadow pages that count only them).
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: %clang_heapprof -O0 %s -o %t
// RUN: %env_heapprof_opts=log_path=%t.dir/p:print_raw=1:print_text=0:release_freed_pages=1:release_threshold_kb=0 %run %t
// RUN: heapprof show %t.dir/p.*.2.profraw | FileCheck %s
// Whole pages: the bytes are a multiple of 4096.
// RUN: heapprof show %t.dir/p.*.2.profraw | awk '/madvise by free/ { sub(/.*bytes=/, ""); sub(/ .*/, ""); ok = $0 + 0 > 0 && $0 %% 4096 == 0 } END { exit !ok }'
#include <heapprof/heapprof_interface.h>
#include <stdlib.h>

enum { N = 1024, SIZE = 4000 }; // 4000 + header: 4096-byte blocks, a page each

int main(void) {
  static char *volatile p[N];
  __heapprof_dump(); // 1
  for (int i = 0; i < N; i++)
    p[i] = malloc(SIZE);
  for (int i = 0; i < N; i++)
    free(p[i]);
  __heapprof_dump(); // 2
  return 0;
}
// The mallocs' only system calls put the spans they took into core dumps
// (the region, reserved at init, is not), a MiB of it at a time: 1024
// blocks of 4096 bytes, 4 MiB, 4 calls.  The frees gave pages back.
// CHECK: system calls: 2 rows
// CHECK-NEXT: madvise by malloc small new serial: count=4 bytes=4194304 cycles=
// CHECK-NEXT: madvise by free small - serial: count={{[1-9][0-9]*}} bytes={{[1-9][0-9]*}} cycles=
