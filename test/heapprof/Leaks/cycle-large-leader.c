// A lost cycle whose leader is a large chunk (one of the check's sorted
// array, not a primary block): the leader stays direct when its own
// scan comes back to it.  A chunk of 200,000 bytes (a mapping of its own)
// and an object of 64 bytes point to each other and nothing else points
// to either; the large one is allocated first, so its context has the
// lower stack id and it leads: 1 direct object of 200,000 bytes, 1
// indirect of 64.  In cycles.c every large chunk on a cycle ends up
// indirect anyway (an owner leads after it and absorbs it), so a leader
// in the array marked indirect by its own cycle left no direct leak
// unseen there: here it would read direct 0, indirect 200,064.
// RUN: %clang_heapprof -O0 -g %s -o %t
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: %env_heapprof_opts=profile_dir=%t.d %run %t
// RUN: heapprof show %t.d/*.profraw | FileCheck %s
// CHECK: leaks: head_words=10 objects=2 root_bytes={{[1-9][0-9]*}} direct_objects=1 direct_bytes=200000 indirect_objects=1 indirect_bytes=64 threads_running=0 row_words=5 nrows=2{{$}}
// CHECK-NEXT: stack id {{[0-9]+}}: direct_objects=1 direct_bytes=200000 indirect_objects=0 indirect_bytes=0{{$}}
// CHECK-NEXT: stack id {{[0-9]+}}: direct_objects=0 direct_bytes=0 indirect_objects=1 indirect_bytes=64{{$}}
#include <stdlib.h>

struct pair;
struct big {
  struct pair *other;
  char pad[200000 - 8];
};
struct pair {
  struct big *other;
  char pad[56];
};

__attribute__((noinline)) static void make_cycle(void) {
  struct big *b = calloc(1, sizeof *b);
  struct pair *p = calloc(1, sizeof *p);
  b->other = p;
  p->other = b;
}

// Overwrites the stack below main's frame, where make_cycle's was.
#include "../Inputs/clobber.h"

int main(void) {
  make_cycle();
  clobber();
  return 0;
}
