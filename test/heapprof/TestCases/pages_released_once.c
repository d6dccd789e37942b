// pages_released counts pages given back to the kernel, each once per
// give-back: a page given back again with no block on it handed out in
// between gave nothing back the second time, and is not counted again.
// malloc_trim walks a size class that got a block back whole, and gave
// back (and counted) every free page of it again.
//
// 64 chunks of 64 KiB sit in 80 KiB blocks (20 pages each, page-aligned),
// blocks 0..63 of their region: 10 spans of 512 KiB, the last ending with
// block 63, so every block is carved.  All are freed and malloc_trim gives
// back the one run of free blocks: 64 x 20 = 1,280 pages.  Then one 64 KiB
// malloc (the class's thread cache holds 3 and refills 1 at a time: one
// block handed out), written and freed, and malloc_trim again: that
// block's 20 pages went back to use, and are counted again; the other
// 1,260 are the same pages, still given back.  1,300 in all (2,560
// before).  The "once" run stops after the first trim: 1,280.
// release_idle_ms=-1: no idle pass gives anything back meanwhile.
// RUN: %clang_rt_heapprof -O0 %s -o %t
// RUN: %env_heapprof_opts=release_idle_ms=-1:print_stats=1:log_path=%t.prof %run %t once 2>&1 | FileCheck %s --check-prefix=ONCE
// RUN: %env_heapprof_opts=release_idle_ms=-1:print_stats=1:log_path=%t.prof %run %t twice 2>&1 | FileCheck %s --check-prefix=TWICE
// ONCE: pages_released 1280 4 KiB pages
// TWICE: pages_released 1300 4 KiB pages
#include <malloc.h>
#include <stdlib.h>
#include <string.h>

#define N 64
static char *volatile v[N];
static char *volatile again;

int main(int argc, char **argv) {
  for (int i = 0; i < N; i++) {
    v[i] = malloc(64 * 1024);
    memset(v[i], 1, 64 * 1024);
  }
  for (int i = 0; i < N; i++)
    free(v[i]);
  malloc_trim(0);
  if (argc > 1 && !strcmp(argv[1], "twice")) {
    again = malloc(64 * 1024);
    memset(again, 2, 64 * 1024);
    free(again);
    malloc_trim(0);
  }
  return 0;
}
