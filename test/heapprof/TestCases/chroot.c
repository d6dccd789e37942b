// A program that changes its root directory (chroot: a daemon dropping
// into a jail) has its profile's path taken inside the new root, where
// heapprof made the directory and wrote the profile without a word: the
// reader looked for it where it was asked to go.  The runtime notes the
// root it started under (its identity, not a descriptor, which would let
// the program out of its jail) and says when the profile goes elsewhere.
//
// The program allocates, chroots into JAIL and exits: the warning names
// the directory, the profile is under JAIL plus that path, and nothing is
// at the path outside.
// REQUIRES: root
// RUN: %clang_heapprof -O1 -g %s -o %t
// RUN: %clang_plain -O1 -g %s -o %t-plain
// RUN: rm -rf %t.jail %t.d %t.r && mkdir -p %t.jail
// RUN: %env_heapprof_opts=profile_dir=%t.d %run %t %t.jail 2>&1 | FileCheck %s -DDIR=%t.d
// RUN: ls %t.jail%t.d | FileCheck %s --check-prefix=FILE
// RUN: not ls %t.d
// RUN: rm -rf %t.jail && mkdir -p %t.jail
// RUN: env -u LD_PRELOAD heapprof run -o %t.r -- %t-plain %t.jail 2>&1 | FileCheck %s -DDIR=%t.r
// RUN: ls %t.jail%t.r | FileCheck %s --check-prefix=FILE
// RUN: ls %t.r | count 0
// CHECK: in the jail
// CHECK: HeapProf: WARNING: the program changed its root directory (chroot) since it started: the profile goes to '[[DIR]]' inside its new root
// FILE: .profraw
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static void *kept[5];

int main(int argc, char **argv) {
  for (int i = 0; i < 5; i++)
    kept[i] = malloc(100);
  if (chroot(argv[1]) != 0 || chdir("/") != 0) {
    perror("chroot");
    return 1;
  }
  fprintf(stderr, "in the jail\n");
  return 0;
}
