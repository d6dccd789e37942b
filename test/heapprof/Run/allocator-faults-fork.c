// A forked child's profile holds its own allocator calls and page faults,
// not its parent's again (sections 2 and 3 under --allocator).  The parent
// takes a fresh 1 MiB block and writes one byte on each of its pages but
// the first: 255 page faults outside any allocator call; frees it and
// forks.  The child takes a 1 MiB block and writes on 100 of its pages:
// 100 faults outside calls, plus a few copies on write of its stack and
// libc's data (110-112 here), and one malloc and one free of a large
// block.  The child's rows had started from the parent's totals at the
// fork: 2 mallocs and 2 frees, 355-370 faults outside calls (and the
// parent's mmap and munmap).
// RUN: %clang_plain -O0 -g %s -o %t
// RUN: rm -rf %t.sys && env -u LD_PRELOAD heapprof run -o %t.sys --allocator=system -- %t > %t.sys.out
// RUN: sh -c 'heapprof show "$0"/*."$(sed -n "s/^child //p" "$1")".profraw' %t.sys %t.sys.out | FileCheck %s --check-prefix=CHILD
// RUN: sh -c 'heapprof show "$0"/*."$(sed -n "s/^parent //p" "$1")".profraw' %t.sys %t.sys.out | FileCheck %s --check-prefix=PARENT
// RUN: %if jemalloc %{ rm -rf %t.je && env -u LD_PRELOAD heapprof run -o %t.je --allocator=%libjemalloc -- %t > %t.je.out %}
// RUN: %if jemalloc %{ sh -c 'heapprof show "$0"/*."$(sed -n "s/^child //p" "$1")".profraw' %t.je %t.je.out | FileCheck %s --check-prefix=CHILD %}
// RUN: %if jemalloc %{ sh -c 'heapprof show "$0"/*."$(sed -n "s/^parent //p" "$1")".profraw' %t.je %t.je.out | FileCheck %s --check-prefix=PARENT %}
// RUN: %if tcmalloc %{ rm -rf %t.tc && env -u LD_PRELOAD heapprof run -o %t.tc --allocator=%libtcmalloc -- %t > %t.tc.out %}
// RUN: %if tcmalloc %{ sh -c 'heapprof show "$0"/*."$(sed -n "s/^child //p" "$1")".profraw' %t.tc %t.tc.out | FileCheck %s --check-prefix=CHILD %}
// RUN: %if tcmalloc %{ sh -c 'heapprof show "$0"/*."$(sed -n "s/^parent //p" "$1")".profraw' %t.tc %t.tc.out | FileCheck %s --check-prefix=PARENT %}
// CHILD: malloc large - serial: count=1 sampled=
// CHILD: free large - serial: count=1 sampled=
// CHILD-NOT: mmap by malloc large
// CHILD: fault by outside any call: count={{1[0-4][0-9]}} bytes=
// PARENT: malloc large - serial: count=1 sampled=
// PARENT: free large - serial: count=1 sampled=
// PARENT: fault by outside any call: count={{25[5-9]|2[6-9][0-9]|3[0-9][0-9]|4[0-9][0-9]}} bytes=
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

int main(void) {
  char *volatile p = malloc(1 << 20);
  for (int i = 1; i < 256; i++)
    p[i * 4096] = 1;
  free(p);
  fflush(stdout);
  pid_t c = fork();
  if (c < 0)
    return 2;
  if (c == 0) {
    char *volatile q = malloc(1 << 20);
    for (int i = 1; i <= 100; i++)
      q[i * 4096] = 1;
    free(q);
    _exit(0);
  }
  int status;
  if (waitpid(c, &status, 0) != c)
    return 3;
  printf("parent %d\nchild %d\nstatus %d\n", (int)getpid(), (int)c, status);
  return 0;
}
