// Under mlockall the kernel gives no locked page back: madvise(MADV_DONTNEED)
// of one fails with EINVAL.  release_idle_ms's passes counted the spans'
// pages as released all the same (pages_released), though every one stayed
// resident.  A failed madvise now counts nothing, and the span is not tried
// again until a block comes back to it.
//
// 16,384 blocks of 480 bytes (the 512-byte class: 8 MiB, 128 spans of
// 64 KiB), written, then freed; then two sleeps of 1.1 s each followed by a
// churn of the 64-byte class (refills and drains: idle_churn.h), so that a
// pass finds the spans idle two epochs and gives back their free pages.
// "locked": mlockall(MCL_CURRENT | MCL_FUTURE) first, so that every span
// is locked (those in use then by MCL_CURRENT, the later ones by the
// allocator): no page goes, pages_released 0.  "unlocked", the same
// without mlockall: the 128 spans' 2,048 pages go, less those of the at
// most 64 blocks the thread cache keeps (8 pages): 2,040 at least (the
// count is not 0 for want of a pass).
// REQUIRES: root
// RUN: %clang_rt_heapprof -O0 %s -o %t
// RUN: %env_heapprof_opts=print_stats=1:log_path=%t.prof %run %t locked 2>&1 | FileCheck %s --check-prefix=LOCKED
// RUN: %env_heapprof_opts=print_stats=1:log_path=%t.prof %run %t unlocked 2>&1 | FileCheck %s --check-prefix=UNLOCKED
// LOCKED: mlockall: ok
// LOCKED: pages_released 0 4 KiB pages
// LOCKED-NEXT: idle_passes {{[2-9]}}
// UNLOCKED: pages_released {{20[4-9][0-9]}} 4 KiB pages
// UNLOCKED-NEXT: idle_passes {{[2-9]}}
#include "../Inputs/idle_churn.h"
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define N 16384
static char *volatile blocks[N];

int main(int argc, char **argv) {
  if (argc > 1 && !strcmp(argv[1], "locked")) {
    if (mlockall(MCL_CURRENT | MCL_FUTURE) != 0)
      return 2;
    write(2, "mlockall: ok\n", 13);
  }
  for (int i = 0; i < N; i++) {
    blocks[i] = malloc(480);
    memset(blocks[i], 1, 480);
  }
  for (int i = 0; i < N; i++)
    free(blocks[i]);
  struct timespec ts = {1, 100000000};
  for (int i = 0; i < 2; i++) {
    nanosleep(&ts, NULL);
    churn();
  }
  return 0;
}
