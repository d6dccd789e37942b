// A program that replaces itself with fexecve or execveat (runc re-executes
// itself from a memfd so) keeps both images' profiles, as with execve: the
// image that execs writes its profile as a checkpoint, and under heapprof
// run the new image is profiled too.  Without the two interposed, the first
// image's profile was lost and the second ran unprofiled.  The first image
// allocates 111 bytes, the second 222 (both live at their ends; output by
// write, so stdio allocates nothing): two files, 2 objects, 333 bytes; the
// report counts each image as a process, as for execve.
// REQUIRES: heapprof-driver
// RUN: %clang_plain -O0 -g %s -o %t.plain
// RUN: rm -rf %t.f && env -u LD_PRELOAD heapprof run -o %t.f -- %t.plain fexecve | FileCheck %s --check-prefix=OUT
// RUN: ls %t.f | count 2
// RUN: heapprof report %t.f | FileCheck %s
// RUN: rm -rf %t.a && env -u LD_PRELOAD heapprof run -o %t.a -- %t.plain execveat | FileCheck %s --check-prefix=OUT
// RUN: ls %t.a | count 2
// RUN: heapprof report %t.a | FileCheck %s
// RUN: %clang_heapprof -O0 -g %s -o %t
// RUN: rm -rf %t.i && %env_heapprof_opts=profile_dir=%t.i %run %t fexecve | FileCheck %s --check-prefix=OUT
// RUN: ls %t.i | count 2
// RUN: heapprof report %t.i | FileCheck %s
// glibc's argument checks come first: EINVAL (22) for a negative descriptor
// and a null array, as without heapprof (not EBADF or EFAULT from the
// system call).
// RUN: env -u LD_PRELOAD heapprof run -o %t.b -- %t.plain bad | FileCheck %s --check-prefix=BAD
// RUN: %t.plain bad | FileCheck %s --check-prefix=BAD
// BAD: -1 22
// BAD-NEXT: -1 22
// OUT: second image
// CHECK: heapprof report: 2 processes, 2 files
// CHECK: allocations      2 objects, 333 bytes
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern char **environ;
static char *volatile keep;

int main(int argc, char **argv) {
  if (argc > 1 && !strcmp(argv[1], "again")) {
    keep = malloc(222);
    write(1, "second image\n", 13);
    return 0;
  }
  keep = malloc(111);
  char *args[] = {argv[0], "again", NULL};
  if (argc > 1 && !strcmp(argv[1], "bad")) {
    char *const *volatile none = NULL;
    char line[64];
    errno = 0;
    int r1 = fexecve(-1, args, environ), e1 = errno;
    errno = 0;
    int r2 = fexecve(0, none, environ), e2 = errno;
    int n = snprintf(line, sizeof(line), "%d %d\n%d %d\n", r1, e1, r2, e2);
    write(1, line, (size_t)n);
    return 0;
  }
  int fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
  if (argc > 1 && !strcmp(argv[1], "execveat"))
    execveat(fd, "", args, environ, AT_EMPTY_PATH);
  else
    fexecve(fd, args, environ);
  return 1;
}
