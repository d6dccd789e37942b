// A program that locks its memory (mlockall(MCL_CURRENT | MCL_FUTURE)) and
// then installs its own seccomp filter: its heap grown after the filter is
// locked, and the process is not killed.  The kernel locks the mappings
// made after MCL_FUTURE, which is all glibc's malloc needs (its heap grows
// by brk and mmap), but heapprof's size classes grow inside a region
// reserved before, so the allocator locked each new span itself with
// mlock (heapprof_mlock.c), a call the filter below (what a malloc needs:
// brk, mmap, munmap, madvise) kills for: SIGSYS at the first new span.  In
// the sandbox a new span is now mapped afresh over its part of the region
// (mmap MAP_FIXED, which the filter allows), and the kernel locks the new
// mapping as MCL_FUTURE asks.
//
// One block of 480 bytes before the filter and mlockall; after them
// 16,384 such blocks, written.  The pages locked (VmLck of
// /proc/self/status, opened before the filter and read again with pread)
// grow by at least 7 MiB: under heapprof the 512-byte class's 8 MiB less
// its first span (64 KiB, locked by MCL_CURRENT) is 127 new spans, 8,128
// KiB; under glibc's malloc (the plain run) 16,384 chunks of 496 bytes are
// 7,936 KiB, less what its heap had mapped before.
// REQUIRES: root
// RUN: %clang_rt_heapprof -O0 %s -o %t
// RUN: rm -rf %t.d && %env_heapprof_opts=profile_dir=%t.d %run %t 2> %t.err | FileCheck %s
// RUN: %clang_plain -O0 %s -o %t.plain
// RUN: %run %t.plain | FileCheck %s
// RUN: rm -rf %t.r && env -u LD_PRELOAD heapprof run -o %t.r -- %t.plain 2> %t.rerr | FileCheck %s
// CHECK: mlockall: ok
// CHECK-NEXT: 7 MiB more locked: yes
// CHECK-NEXT: done
#include "Inputs/sandboxed_heap.h"
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* VmLck, in KiB, from the status file open at fd (read from its start). */
static long locked_kib(int fd) {
  char buf[4096];
  ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);
  if (n <= 0)
    abort();
  buf[n] = 0;
  const char *p = strstr(buf, "VmLck:");
  if (!p)
    abort();
  return atol(p + 6);
}

int main(void) {
  heap_before_filter();
  if (mlockall(MCL_CURRENT | MCL_FUTURE) != 0)
    return 4;
  say("mlockall: ok\n");
  int fd = open("/proc/self/status", O_RDONLY);
  if (fd < 0)
    return 5;
  if (malloc_sandbox(__NR_madvise) != 0)
    return 2;
  long before = locked_kib(fd);
  grow_heap();
  long grown = locked_kib(fd) - before;
  say(grown >= 7 * 1024 ? "7 MiB more locked: yes\n"
                         : "7 MiB more locked: no\n");
  say("done\n");
  return 0;
}
