// pmu_events: a thread's counters are descriptors heapprof holds for the
// thread's life, and they must never take 0, 1 or 2.  A program run with
// its stdout closed (>&-), as a daemon that closes 0-2 and opens /dev/null
// after, saw the first counter take descriptor 1: its write(1) failed with
// EINVAL instead of EBADF, and its open("/dev/null") got 7 instead of 1,
// the lowest free number.  Without heapprof the write fails with EBADF and
// the open gets 1; under heapprof, instrumented or through heapprof run, the
// same.  (On a machine without hardware counters the software ones open,
// so the group is never empty: pmu-software.c.)
// RUN: %clang_heapprof -O0 %s -o %t
// RUN: %env_heapprof_opts=log_path=%t.p:pmu_events=1:pmu_sample_every=1 sh -c '%run %t 2>&1 >&-' | FileCheck %s
// RUN: %clang_plain -O0 %s -o %t.plain
// RUN: sh -c '%t.plain 2>&1 >&-' | FileCheck %s
// RUN: rm -rf %t.r && env HEAPPROF_OPTIONS=pmu_events=1:pmu_sample_every=1 sh -c 'heapprof run -o %t.r -- %t.plain 2>&1 >&-' | FileCheck %s
// CHECK: write to the closed stdout: -1 EBADF; /dev/null opened as 1
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(void) {
  /* Sampled calls: every one with pmu_sample_every=1; the first opens the
   * thread's counters. */
  for (int i = 0; i < 4; i++) {
    char *volatile p = malloc(32);
    free(p);
  }
  errno = 0;
  ssize_t w = write(1, "x", 1);
  int e = errno;
  int fd = open("/dev/null", O_WRONLY);
  fprintf(stderr, "write to the closed stdout: %zd %s; /dev/null opened as %d\n",
          w, e == EBADF ? "EBADF" : "not EBADF", fd);
  return 0;
}
