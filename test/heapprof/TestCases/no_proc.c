// Without /proc (a chroot or container that does not mount it) the
// profile named the program "unknown" and had no command line, so heapprof
// report could not open the program ("unknown: cannot open"); heapprof run
// said "the shared runtime '' is missing".  The runtime now takes the
// program's path from AT_EXECFN and its arguments from the initial stack;
// heapprof finds itself through AT_EXECFN.  The leak check still needs
// /proc/self/maps, and says so.
//
// The program keeps 5 objects of 64 bytes and drops one of 32.  Run in a
// private mount namespace with /proc unmounted, instrumented and under
// heapprof run; the reports are made outside it.
// REQUIRES: mount-namespace
// RUN: %clang_heapprof -O1 -g %s -o %t
// RUN: %clang_plain -O1 -g %s -o %t-plain
// RUN: rm -rf %t.d %t.r
// RUN: unshare -m sh -c 'umount -l /proc && HEAPPROF_OPTIONS=profile_dir=%t.d %t "two words" x' 2>&1 | FileCheck %s --check-prefix=OUT
// RUN: heapprof report %t.d --depth 1 | FileCheck %s -DPROG=%t
// RUN: unshare -m sh -c 'umount -l /proc && env -u LD_PRELOAD heapprof run -o %t.r -- %t-plain "two words" x' 2>&1 | FileCheck %s --check-prefix=OUT
// RUN: heapprof report %t.r --depth 1 | FileCheck %s -DPROG=%t-plain
// OUT-DAG: ok
// OUT-DAG: HeapProf: WARNING: no leak check at exit (cannot read /proc/self/maps: no such file or directory)
// CHECK: allocations 6 objects, 352 bytes
// CHECK: process [[PROG]] pid
// CHECK-NEXT: command [[PROG]] 'two words' x
// CHECK-NEXT: program [[PROG]] (build id
// CHECK: 320 B in 5 objects (64 B each)
// CHECK-NEXT: main {{.*}}no_proc.c:
#include <stdlib.h>
#include <unistd.h>

static void *kept[5];

int main(void) {
  for (int i = 0; i < 5; i++)
    kept[i] = malloc(64);
  char *volatile p = malloc(32);
  p[0] = 1;
  write(1, "ok\n", 3);
  return 0;
}
