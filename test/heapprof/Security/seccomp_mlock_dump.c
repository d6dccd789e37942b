// Core dumps and the spans a sandboxed program's heap grows into after
// mlockall(MCL_FUTURE).  heapprof's reservations are kept out of core
// dumps (MADV_DONTDUMP: 19 TiB otherwise), and a span the allocator starts
// to use is put back in (MADV_DODUMP, a MiB of the region at a time): the
// program's heap belongs in its core dump, as glibc's does.  In the
// program's seccomp sandbox no madvise is made (a filter written for
// glibc's malloc may kill for it), so a span made there stays out; but
// after mlockall(MCL_FUTURE) the span is mapped afresh (MAP_FIXED, so that
// the kernel locks it: seccomp_mlock.c), and a fresh mapping carries no
// MADV_DONTDUMP: that span is in core dumps, as outside the sandbox, with
// no madvise.  Only the span's pages are mapped afresh: the reservation
// past the spans in use stays out.  The filter allows no madvise at all:
// the process would be killed (SIGSYS) if heapprof made one.
//
// The flags are /proc/self/smaps's VmFlags ("dd": not dumped), read with
// pread from a descriptor opened before the filter, for the mapping of the
// last of 16,384 blocks of 480 bytes (the 512-byte class: 8 MiB, 128 spans,
// all but the first made after the filter), and for the address 4 MiB
// past it, in no span yet.
//   sandbox + mlockall: block dumped (fresh mapping), reservation not;
//   sandbox alone:      block not dumped (no madvise), reservation not;
//   mlockall alone:     block dumped (MADV_DODUMP), reservation not.
// REQUIRES: root
// RUN: %clang_rt_heapprof -O0 %s -o %t
// RUN: rm -rf %t.d && %env_heapprof_opts=profile_dir=%t.d %run %t sl 2> %t.err | FileCheck %s --check-prefix=DUMPED
// RUN: rm -rf %t.d && %env_heapprof_opts=profile_dir=%t.d %run %t s 2> %t.err | FileCheck %s --check-prefix=SANDBOX
// RUN: rm -rf %t.d && %env_heapprof_opts=profile_dir=%t.d %run %t l 2> %t.err | FileCheck %s --check-prefix=DUMPED
// DUMPED: block: dumped
// DUMPED-NEXT: reservation: not dumped
// SANDBOX: block: not dumped
// SANDBOX-NEXT: reservation: not dumped
#include "Inputs/sandboxed_heap.h"
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static char buf[1 << 22];

/* Whether the mapping holding a is in core dumps, from smaps at fd. */
static void dumped(int fd, const char *what, unsigned long a) {
  ssize_t n = 0, k;
  while ((k = pread(fd, buf + n, sizeof(buf) - 1 - n, n)) > 0)
    n += k;
  buf[n] = 0;
  for (char *p = buf; *p;) {
    unsigned long b = strtoul(p, &p, 16), e = strtoul(p + 1, &p, 16);
    char *v = strstr(p, "VmFlags:"), *nl = v ? strchr(v, '\n') : NULL;
    if (!nl)
      abort();
    *nl = 0;
    if (a >= b && a < e) {
      say(what);
      say(strstr(v, " dd") ? ": not dumped\n" : ": dumped\n");
      return;
    }
    p = nl + 1;
  }
  abort();
}

int main(int argc, char **argv) {
  int lock = strchr(argv[1], 'l') != NULL, sandbox = strchr(argv[1], 's') != NULL;
  heap_before_filter();
  if (lock && mlockall(MCL_CURRENT | MCL_FUTURE) != 0)
    return 4;
  int fd = open("/proc/self/smaps", O_RDONLY);
  if (fd < 0)
    return 5;
  if (sandbox && malloc_sandbox(-1) != 0) /* no madvise */
    return 2;
  grow_heap();
  dumped(fd, "block", (unsigned long)heap_blocks[HEAP_BLOCKS - 1]);
  dumped(fd, "reservation",
         (unsigned long)heap_blocks[HEAP_BLOCKS - 1] + (4ul << 20));
  return 0;
}
