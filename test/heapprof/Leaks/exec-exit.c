// The leak check runs at the end of an image however it ends: exit, _exit
// (no destructors run, but the heap and its roots are all there), or an
// exec that replaces it (its profile is the checkpoint written before the
// exec).  Each run drops the pointers to some blocks of 100 bytes and keeps
// 4 others in a global: 3 direct leaks (300 bytes) before an exec of
// /bin/true, 2 (200 bytes) before _exit, 1 (100 bytes) before exit.
// Crashes and other checkpoints have no section (reachability.c).
// RUN: %clang_heapprof -O0 -g %s -o %t
// RUN: rm -rf %t.exec %t.uexit %t.exit && mkdir -p %t.exec %t.uexit %t.exit
// RUN: %env_heapprof_opts=profile_dir=%t.exec %run %t exec
// RUN: heapprof show %t.exec/*.profraw | FileCheck %s --check-prefix=EXEC
// EXEC: checkpoint 1,
// EXEC: leaks: head_words=10 objects=7 {{.*}} direct_objects=3 direct_bytes=300 indirect_objects=0 indirect_bytes=0
// RUN: %env_heapprof_opts=profile_dir=%t.uexit %run %t _exit
// RUN: heapprof show %t.uexit/*.profraw | FileCheck %s --check-prefix=UEXIT
// UEXIT: leaks: head_words=10 objects=6 {{.*}} direct_objects=2 direct_bytes=200 indirect_objects=0 indirect_bytes=0
// RUN: %env_heapprof_opts=profile_dir=%t.exit %run %t exit
// RUN: heapprof show %t.exit/*.profraw | FileCheck %s --check-prefix=EXIT
// EXIT: leaks: head_words=10 objects=5 {{.*}} direct_objects=1 direct_bytes=100 indirect_objects=0 indirect_bytes=0
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void *keep[4];

__attribute__((noinline)) static void drop(int n) {
  for (int i = 0; i < n; i++)
    memset(malloc(100), 1, 100);
}

#include "../Inputs/clobber.h"

int main(int argc, char **argv) {
  for (int i = 0; i < 4; i++)
    keep[i] = malloc(100);
  if (!strcmp(argv[1], "exec")) {
    drop(3);
    clobber();
    execl("/bin/true", "true", (char *)NULL);
    return 1;
  }
  if (!strcmp(argv[1], "_exit")) {
    drop(2);
    clobber();
    _exit(0);
  }
  drop(1);
  clobber();
  return 0;
}
