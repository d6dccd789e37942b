// A program that re-executes itself through /proc/self/exe (Chromium's
// zygote does, with that argv[0]; runc too) or through a descriptor
// (/dev/fd/N): the new image's profile was named after its argv[0],
// heapprof.exe.PID.profraw (or heapprof.N...), and the warning of a
// Chromium image that defines malloc named '/proc/self/exe'.  The name is
// the file's now.  Both images write a profile under heapprof run (the
// program replaces itself: followed), each named after this test's
// executable.
// RUN: %clang_plain -O0 %s -o %t
// RUN: rm -rf %t.s %t.f
// RUN: heapprof run -o %t.s -- %t self | FileCheck %s
// RUN: heapprof run -o %t.f -- %t fd | FileCheck %s
// CHECK: child
// RUN: ls %t.s | FileCheck %s --check-prefix=FILES
// RUN: ls %t.f | FileCheck %s --check-prefix=FILES
// FILES: heapprof.exec-proc-self-exe.c.tmp.{{[0-9]+}}.1.profraw
// FILES-NEXT: heapprof.exec-proc-self-exe.c.tmp.{{[0-9]+}}.profraw
// RUN: ls %t.s | count 2
// RUN: ls %t.f | count 2
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void *volatile keep;

int main(int argc, char **argv) {
  keep = malloc(100);
  if (!strcmp(argv[1], "child")) {
    printf("child\n");
    return 0;
  }
  if (!strcmp(argv[1], "self")) {
    execl("/proc/self/exe", "/proc/self/exe", "child", (char *)NULL);
  } else {
    int fd = open(argv[0], O_RDONLY);
    char path[32];
    snprintf(path, sizeof(path), "/dev/fd/%d", fd);
    execl(path, path, "child", (char *)NULL);
  }
  perror("execl");
  return 1;
}
