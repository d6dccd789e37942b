// A leaked 0-byte object counts 1 byte, as the profile counts it
// everywhere else (TotalSize, live_bytes: a 0-byte request is 1 byte) and
// as LeakSanitizer reports it.  The program leaks 1000 malloc(0)s and keeps
// 5 more and 3 malloc(8)s in a global: 1008 objects live at exit, 1013
// bytes by the profile's count; 1000 objects and 1000 bytes unreachable,
// so 8 objects and 5 + 24 = 29 bytes still reachable.  The check counted
// the leaked ones 0 bytes, and the report's line of memory still
// reachable, the live bytes less the leaked ones, said 1013 bytes.
// RUN: %clang_heapprof -O0 -g %s -o %t
// RUN: rm -rf %t.d && %env_heapprof_opts=profile_dir=%t.d %run %t
// RUN: heapprof show %t.d | FileCheck %s
// RUN: heapprof report %t.d | FileCheck %s --check-prefix=REPORT
// RUN: rm -rf %t.d && %env_heapprof_opts=profile_dir=%t.d:allocator=system %run %t
// RUN: heapprof show %t.d | FileCheck %s
// RUN: heapprof report %t.d | FileCheck %s --check-prefix=REPORT
// CHECK: leaks: head_words=10 objects=1008 root_bytes={{[1-9][0-9]*}} direct_objects=1000 direct_bytes=1000 indirect_objects=0 indirect_bytes=0 threads_running=0 row_words=5 nrows=1{{$}}
// CHECK-NEXT: stack id {{[0-9]+}}: direct_objects=1000 direct_bytes=1000 indirect_objects=0 indirect_bytes=0{{$}}
// REPORT: == Memory leaks: unreachable at exit
// REPORT: 1000 B  100.0%     1000    1000 B       0 B  leak
// REPORT-NEXT: (still reachable at exit, not listed: 29 bytes (29 B) in 8 objects;
#include <stdlib.h>
#include <string.h>

static void *keep[8];

__attribute__((noinline)) static void leak(void) {
  for (int i = 0; i < 1000; i++)
    malloc(0);
}

// Overwrites the stack below main's frame, where leak's frame was.
#include "../Inputs/clobber.h"

int main(void) {
  leak();
  for (int i = 0; i < 5; i++)
    keep[i] = malloc(0);
  for (int i = 5; i < 8; i++)
    keep[i] = malloc(8);
  clobber();
  return 0;
}
