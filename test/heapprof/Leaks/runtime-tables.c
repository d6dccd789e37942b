// The runtime's own tables are no roots of the program's. A 1 MiB chunk
// (a large chunk, its own mapping) is freed, and the runtime remembers its
// start in a ring of chunks unmapped lately (to tell a double free from a
// wild one); the next 1 MiB chunk gets the same pages, so the ring holds
// its exact start. The program then drops that chunk: a direct leak of
// 1048576 bytes, which the ring's word made read as reachable while the
// leak check took the runtime's globals for roots. The same with the
// runtime preloaded by heapprof run.
// RUN: %clang_heapprof -O0 -g %s -o %t
// RUN: rm -rf %t.d && %env_heapprof_opts=profile_dir=%t.d %run %t | FileCheck %s --check-prefix=OUT
// RUN: heapprof show %t.d/*.profraw | FileCheck %s
// RUN: %clang_plain -O0 -g %s -o %t.plain
// RUN: rm -rf %t.run && heapprof run -o %t.run -- %t.plain | FileCheck %s --check-prefix=OUT
// RUN: heapprof show %t.run/*.profraw | FileCheck %s
// REQUIRES: heapprof-driver
// OUT: same address
// CHECK: leaks: head_words=10 objects={{[0-9]+}} root_bytes={{[0-9]+}} direct_objects=1 direct_bytes=1048576 indirect_objects=0 indirect_bytes=0
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__attribute__((noinline)) static void drop(void) {
  char *a = malloc(1 << 20);
  memset(a, 1, 64);
  free(a);
  char *b = malloc(1 << 20);
  memset(b, 2, 64);
  // Compared as integers: a is freed.
  printf("%s\n", (unsigned long)a == (unsigned long)b ? "same address"
                                                      : "another address");
}

// Overwrites the stack below main's frame, where drop's frame was.
#include "../Inputs/clobber.h"

int main(void) {
  drop();
  clobber();
  return 0;
}
