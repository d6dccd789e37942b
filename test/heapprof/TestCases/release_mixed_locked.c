// A give-back across unlocked and locked pages: the kernel gives no locked
// page back and fails madvise(MADV_DONTNEED) with EINVAL at the range's
// first locked mapping, the pages before it gone.  Such a call counted
// none of its pages in pages_released, and gave back none after the
// locked ones; each page that goes is now counted (the runtime finds the
// locked pages by further madvise calls whose success is known).
//
// As pages_released_once.c: 64 chunks of 64 KiB sit in 80 KiB blocks (20
// pages each, page-aligned), blocks 0..63 of their region, 10 spans of
// 512 KiB; all are freed and malloc_trim gives back the one run of free
// blocks, 64 x 20 = 1,280 pages without locked memory.
// release_idle_ms=-1: no idle pass gives anything back meanwhile.
//
// "future": mlockall(MCL_FUTURE) after block 31 (blocks 0..31 are 2,560
// KiB, spans 0..4 exactly), so the allocator locks spans 5..9 as it makes
// them (blocks 32..63) and not the spans before.  The run's first 32
// blocks go: 640 pages (0 before).  The test reads the blocks' residency
// with mincore: 0 of the first 640 pages resident, all 640 of the locked
// ones.
//
// "island": no mlockall; the program mlocks block 10 (20 pages) and frees
// it with the others without munlock.  The run goes but for that block:
// 1,280 - 20 = 1,260 pages (0 before: the call failed at block 10, blocks
// 0..9 gone uncounted and 11..63 kept); resident after: block 10's 20
// pages, all faulted in by mlock.
// REQUIRES: root
// RUN: %clang_rt_heapprof -O0 %s -o %t
// RUN: %env_heapprof_opts=release_idle_ms=-1:print_stats=1:log_path=%t.prof %run %t future 2>&1 | FileCheck %s --check-prefix=FUTURE
// RUN: %env_heapprof_opts=release_idle_ms=-1:print_stats=1:log_path=%t.prof %run %t island 2>&1 | FileCheck %s --check-prefix=ISLAND
// FUTURE: resident: 0 of 640 unlocked, 640 of 640 locked
// FUTURE: pages_released 640 4 KiB pages
// ISLAND: resident: 20 of 1280
// ISLAND: pages_released 1260 4 KiB pages
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define N 64
#define SIZE (64 * 1024)
#define BLOCK (80 * 1024)
static char *volatile v[N];

/* Resident pages of the 20-page blocks [from, to). */
static int resident(int from, int to) {
  unsigned char vec[BLOCK / 4096];
  int n = 0;
  for (int i = from; i < to; i++) {
    if (mincore(v[i] - 32, BLOCK, vec) != 0) /* the block: header first */
      abort();
    for (int k = 0; k < BLOCK / 4096; k++)
      n += vec[k] & 1;
  }
  return n;
}

int main(int argc, char **argv) {
  int future = argc > 1 && !strcmp(argv[1], "future");
  for (int i = 0; i < N; i++) {
    if (future && i == N / 2 && mlockall(MCL_FUTURE) != 0)
      return 2;
    v[i] = malloc(SIZE);
    memset(v[i], 1, SIZE);
  }
  if (!future && mlock(v[10] - 32, BLOCK) != 0)
    return 3;
  for (int i = 0; i < N; i++)
    free(v[i]);
  malloc_trim(0);
  char line[128];
  if (future)
    snprintf(line, sizeof(line),
             "resident: %d of 640 unlocked, %d of 640 locked\n",
             resident(0, N / 2), resident(N / 2, N));
  else
    snprintf(line, sizeof(line), "resident: %d of 1280\n", resident(0, N));
  write(2, line, strlen(line));
  return 0;
}
