// An allocation made inside libc (fopen's FILE) is charged to its true
// callers: __fopen_internal <- open_config <- main, not to an older caller the frame
// pointer chain skipped to.
// REQUIRES: heapprof-driver
// RUN: rm -rf %t.dir
// RUN: %clang_heapprof -O2 -g %s -o %t
// RUN: %env_heapprof_opts=profile_dir=%t.dir %run %t
// RUN: heapprof report --full %t.dir | FileCheck %s
// The FILE (472 bytes on glibc 2.36), allocated by libc's __fopen_internal
// (fopen jumps to it: no frame of its own):
// CHECK: == Top contexts
// CHECK: 472 B
// CHECK-NEXT: __fopen_internal
// CHECK-NEXT: open_config {{.*}}cfi-fopen-context.c:[[@LINE+6]]
// CHECK-NEXT: main {{.*}}cfi-fopen-context.c:[[@LINE+10]]
#include <stdio.h>

static FILE *volatile keep;
__attribute__((noinline)) void open_config(const char *path) {
  keep = fopen(path, "r");
  __asm__ volatile("" ::: "memory");
}

int main(int argc, char **argv) {
  open_config(argv[0]);
  return keep == NULL;
}
