// A soft limit heapprof raises is capped at the hard one the kernel holds.
// The program's budget below the reservations gets them added
// (heapprof_rlimit.c); a hard limit at or above them is left alone, taken
// as computed with them in it.  A request with soft <= hard, valid as the
// program made it, can then reach the kernel with soft > hard (EINVAL)
// unless capped.  The program sets RLIMIT_AS to 1 GiB soft (raised by R,
// the reservations, which it then reads from the kernel past heapprof's
// getrlimit: the kernel's soft limit less 1 GiB), then to 1 GiB soft and
// R + 512 MiB hard: 1 GiB + R is above that hard limit, so the kernel gets
// both at R + 512 MiB, the call succeeds, and getrlimit gives the soft one
// less R, 512 MiB (536870912), the hard one as set.  Uncapped, the second
// call failed with EINVAL and the kernel kept the first limits.  A malloc
// of 100 bytes before the limits and one under them: 200 B in 2 objects.
// RUN: %clang_plain -O0 %s -o %t
// RUN: rm -rf %t.d
// RUN: heapprof run -o %t.d -- %t > %t.out 2> %t.err
// RUN: FileCheck %s < %t.out
// RUN: not grep HeapProf %t.err
// RUN: heapprof report %t.d | FileCheck %s --check-prefix=REPORT
// CHECK: first 0
// CHECK-NEXT: second 0
// CHECK-NEXT: kernel soft == hard
// CHECK-NEXT: kernel hard R + 512 MiB
// CHECK-NEXT: read 536870912, R + 512 MiB
// REPORT: 200 B in 2 objects (100 B each), 0 live (0 B)
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#define MIB ((rlim_t)1 << 20)

static void *volatile keep;

/* The kernel's values, past heapprof's getrlimit. */
static struct rlimit kernel(void) {
  struct rlimit k;
  syscall(SYS_prlimit64, 0, RLIMIT_AS, NULL, &k);
  return k;
}

static const char *is_hard(rlim_t v, rlim_t r) {
  return v == r + 512 * MIB ? "R + 512 MiB" : "something else";
}

static void set_limits(void) {
  struct rlimit l = {1024 * MIB, RLIM_INFINITY};
  printf("first %d\n", setrlimit(RLIMIT_AS, &l));
  rlim_t r = kernel().rlim_cur - 1024 * MIB;
  l.rlim_max = r + 512 * MIB;
  int ret = setrlimit(RLIMIT_AS, &l);
  printf("second %d%s%s\n", ret, ret ? " " : "", ret ? strerror(errno) : "");
  struct rlimit k = kernel();
  printf("kernel soft %s hard\n", k.rlim_cur == k.rlim_max ? "==" : "!=");
  printf("kernel hard %s\n", is_hard(k.rlim_max, r));
  getrlimit(RLIMIT_AS, &l);
  printf("read %llu, %s\n", (unsigned long long)l.rlim_cur,
         is_hard(l.rlim_max, r));
}

/* One call site, before the limits and under them. */
int main(void) {
  for (int pass = 0; pass < 2; pass++) {
    keep = malloc(100);
    free(keep);
    if (pass == 0)
      set_limits();
  }
  return 0;
}
