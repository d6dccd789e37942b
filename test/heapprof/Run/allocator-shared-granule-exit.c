// A program built with -fheapprof on glibc's malloc, its objects live at
// exit: 100 objects of 16 bytes, 16 one-byte stores each, 1600 accesses in
// all.  glibc cuts a 32-byte chunk for each from the top of its heap, one
// after another (the program checks: "packed 1"), so two objects share
// each 64-byte granule, and stdout's buffer, allocated after them, shares
// the last one's.  Every access counts once: the exit profile reads each
// shared granule for one of its objects (as a checkpoint or a free does),
// and the program's total is 1600 -- it read 3168 (each granule for both
// neighbours) and 16 more for stdout's buffer, which nothing wrote through
// instrumented code.
// REQUIRES: heapprof-driver
// RUN: %clang_heapprof -O0 -g %s -o %t
// RUN: rm -rf %t.dir && env HEAPPROF_OPTIONS=allocator=system:profile_dir=%t.dir %t | FileCheck %s --check-prefix=OUT
// RUN: heapprof report %t.dir | FileCheck %s
// RUN: rm -rf %t.run && env -u LD_PRELOAD heapprof run -o %t.run --allocator=system -- %t | FileCheck %s --check-prefix=OUT
// RUN: heapprof report %t.run | FileCheck %s
// On heapprof's own allocator no granule is shared: the same 1600.
// RUN: rm -rf %t.own && env HEAPPROF_OPTIONS=profile_dir=%t.own %t
// RUN: heapprof report %t.own | FileCheck %s
// OUT: packed 1
// CHECK: accesses 1600{{$}}
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) static char *obj(void) { return malloc(16); }
static char *volatile p[100];

int main(void) {
  for (int i = 0; i < 100; i++) {
    p[i] = obj();
    for (int j = 0; j < 16; j++)
      p[i][j] = 1;
  }
  int packed = 1;
  for (int i = 1; i < 100; i++)
    packed &= p[i] - p[i - 1] == 32;
  printf("packed %d\n", packed);
  return 0;
}
