// Checkpoints under allocator=system: a dump folds the side table's live
// objects into the profile ("as if freed now") and marks them, so their
// free later adds only a continuation; the dumps add up to each object
// once and each access once.  5 objects of 100 bytes (site_live), 4
// stores each before __heapprof_dump() and 3 after; freed after it.
// REQUIRES: heapprof-driver
// RUN: %clang_heapprof -O0 -g %s -o %t
// RUN: rm -rf %t.dir && env HEAPPROF_OPTIONS=allocator=system:profile_dir=%t.dir %t
// RUN: ls %t.dir | count 2
// RUN: heapprof report %t.dir | FileCheck %s
// The checkpoint alone: the 5 objects live, with the 4 stores each so far.
// RUN: heapprof report %t.dir/*.1.profraw | FileCheck %s --check-prefix=CKPT
// CKPT: 500 B in 5 objects (100 B each), 5 live (500 B), 20 accesses (4.0 per object)
// CHECK: == Top contexts
// CHECK: 500 B in 5 objects (100 B each), 0 live (0 B), 35 accesses (7.0 per object)
// CHECK-NEXT: site_live
#include <heapprof/heapprof_interface.h>
#include <stdlib.h>

__attribute__((noinline)) char *site_live(void) { return malloc(100); }

int main(void) {
  char *volatile p[5];
  for (int i = 0; i < 5; i++) {
    p[i] = site_live();
    for (int j = 0; j < 4; j++)
      p[i][j] = (char)j;
  }
  __heapprof_dump();
  for (int i = 0; i < 5; i++) {
    for (int j = 0; j < 3; j++)
      p[i][j] = (char)j;
    free(p[i]);
  }
  return 0;
}
