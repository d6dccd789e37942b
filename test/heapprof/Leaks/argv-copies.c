// The block above the main thread's first frame (argv, envp, the auxiliary
// vector) is a root. A program that rewrites its argv as setproctitle does
// (Redis, PostgreSQL, nginx) keeps heap copies of its arguments only in
// argv[]: run with 3 arguments, the 4 copies (argv[0] included) are
// reachable, and the one 40-byte object whose pointer the program dropped
// is the only leak: 1 direct object, 40 bytes.
// RUN: %clang_heapprof -O0 -g %s -o %t
// RUN: rm -rf %t.d && %env_heapprof_opts=profile_dir=%t.d %run %t a bb ccc
// RUN: heapprof show %t.d/*.profraw | FileCheck %s
// RUN: %clang_plain -O0 -g %s -o %t.plain
// RUN: rm -rf %t.run && heapprof run -o %t.run -- %t.plain a bb ccc
// RUN: heapprof show %t.run/*.profraw | FileCheck %s
// REQUIRES: heapprof-driver
// CHECK: leaks: head_words=10 objects={{[0-9]+}} root_bytes={{[0-9]+}} direct_objects=1 direct_bytes=40 indirect_objects=0 indirect_bytes=0
#include <stdlib.h>
#include <string.h>

__attribute__((noinline)) static void drop(void) {
  char *volatile lost = malloc(40);
  lost[0] = 1;
}

// Overwrites the stack below main's frame, where drop's frame was.
#include "../Inputs/clobber.h"

int main(int argc, char **argv) {
  for (int i = 0; i < argc; i++)
    argv[i] = strdup(argv[i]);
  drop();
  clobber();
  return 0;
}
