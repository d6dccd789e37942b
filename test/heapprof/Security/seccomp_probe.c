// A program that asks whether seccomp filters are supported, as Chromium's
// sandbox does in every process before it sandboxes it: a filter call
// with a NULL program, which the kernel fails with EFAULT and which
// installs nothing (seccomp(SECCOMP_SET_MODE_FILTER, 0 or TSYNC, NULL),
// prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, NULL)).  heapprof took each
// for a filter going in: a checkpoint and two lines for each ("installs a
// seccomp filter", then "did not go in (EFAULT)"): 30 of them in one
// chromium run, its sandboxed processes' checkpoints, which could be
// written nowhere, on its stderr as raw bytes.  A NULL program is passed
// straight through now: EFAULT, no checkpoint, nothing said.
// 10 objects of 100 bytes, live at exit: in the exit profile, alone.
// RUN: %clang_plain -O0 %s -o %t
// RUN: rm -rf %t.d && heapprof run -o %t.d -- %t > %t.out 2> %t.err
// RUN: FileCheck %s < %t.out
// CHECK: seccomp EFAULT
// CHECK-NEXT: seccomp tsync EFAULT
// CHECK-NEXT: prctl EFAULT
// RUN: not grep HeapProf %t.err
// RUN: ls %t.d | count 1
// RUN: heapprof report %t.d | FileCheck %s --check-prefix=REPORT
// REPORT: 1000 B in 10 objects (100 B each), 10 live (1000 B)
#define _GNU_SOURCE
#include <errno.h>
#include <linux/seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

static void *volatile keep[10];

static const char *err(long r) { return r == -1 && errno == EFAULT ? "EFAULT" : "other"; }

int main(void) {
  for (int i = 0; i < 10; i++)
    keep[i] = malloc(100);
  printf("seccomp %s\n", err(syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, NULL)));
  printf("seccomp tsync %s\n",
         err(syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER,
                     SECCOMP_FILTER_FLAG_TSYNC, NULL)));
  printf("prctl %s\n", err(prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, NULL, 0, 0)));
  return 0;
}
