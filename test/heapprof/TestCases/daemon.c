// daemon(3) forks and ends the parent with glibc's internal _exit, which
// heapprof's _exit never sees: the parent wrote no profile, and what it
// allocated before detaching was in none.  daemon is interposed: the
// parent's profile is written first (a checkpoint with reason "daemon",
// with the leak check of an exit), then glibc's daemon runs.
//
// The parent keeps 3 objects of 111 bytes (reachable from a global) and
// drops the only pointer to one of 64 bytes, then detaches; the child
// allocates 5 objects of 222 bytes it drops and one of 40 it frees.  The
// directory holds the parent's checkpoint (pid.1) and the child's exit
// profile.  Over both processes: 10 allocations, 333 + 64 + 1110 + 40 =
// 1547 bytes.  The child inherited the parent's heap, so the parent's
// objects are live at the end of both processes, as after any fork: the
// 111-byte ones 6 times, reachable; the 64-byte one unreachable in both
// leak checks (2 objects, 128 B); the child's five leaked (1110 B).
// RUN: %clang_heapprof -O1 -g %s -o %t
// RUN: %clang_plain -O1 -g %s -o %t-plain
// RUN: rm -rf %t.d && %env_heapprof_opts=profile_dir=%t.d %run %t | FileCheck %s --check-prefix=OUT
// RUN: ls %t.d | FileCheck %s --check-prefix=FILES
// RUN: heapprof report %t.d --depth 1 | FileCheck %s
// RUN: rm -rf %t.r && env -u LD_PRELOAD heapprof run -o %t.r -- %t-plain | FileCheck %s --check-prefix=OUT
// RUN: ls %t.r | FileCheck %s --check-prefix=FILES
// RUN: heapprof report %t.r --depth 1 | FileCheck %s
// OUT: child done
// FILES: heapprof.{{.*}}.[[PARENT:[0-9]+]].1.profraw
// FILES-NEXT: heapprof.{{.*}}.{{[0-9]+}}.profraw
// CHECK: allocations 10 objects, 1547 bytes
// CHECK: process {{.*}}: 2 processes
// CHECK: == Memory leaks: unreachable at exit
// CHECK-DAG: 1110 B {{.*}} 5 {{.*}} child_leak
// CHECK-DAG: 128 B {{.*}} 2 {{.*}} parent_leak
// CHECK: still reachable at exit, not listed: 666 bytes (666 B) in 6 objects
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static void *kept[3];

static __attribute__((noinline)) void parent_keep(void) {
  for (int i = 0; i < 3; i++)
    kept[i] = malloc(111);
}

static __attribute__((noinline)) void parent_leak(void) {
  char *volatile p = malloc(64);
  p[0] = 1;
}

static __attribute__((noinline)) void child_leak(void) {
  for (int i = 0; i < 5; i++) {
    char *volatile p = malloc(222);
    p[0] = 1;
  }
}

int main(void) {
  parent_keep();
  parent_leak();
  if (daemon(1, 1) != 0) {
    perror("daemon");
    return 1;
  }
  child_leak();
  char *volatile q = malloc(40);
  free(q);
  write(1, "child done\n", 11); /* not stdio: no buffer in the counts */
  return 0;
}
