// _exit and _Exit skip atexit handlers and destructors, where the exit
// profile is normally written: heapprof writes it in them instead, with
// reason "_exit", and the process still ends with the status it asked for.
// Not written: by a vfork child (it runs in its parent's memory), by a
// forked child that made no allocator call since the fork (fork, failed
// exec, _exit(127)), or with dump_at_exit=0.
//
// RUN: %clang_heapprof -O0 %s -o %t
// RUN: rm -rf %t.d*
//
// _exit(3) after 7 objects of 48 bytes, still live: one profile, the 7.
// RUN: sh -c '%env_heapprof_opts=print_text=1:print_raw=0:profile_dir=%t.d1 %run %t _exit; echo status $?' | FileCheck %s --check-prefix=STATUS3
// RUN: ls %t.d1 | count 1
// RUN: cat %t.d1/*.txt | FileCheck %s --check-prefix=SEVEN
// STATUS3: status 3
// STATUS4: status 4
// SEVEN: HeapProf profile: {{.*}}, _exit, dump 0
// SEVEN: alloc_count 7, size (ave/min/max) 48.00 / 48 / 48
// SEVEN: live at dump: 7
// SEVEN: in seven
//
// _Exit(4): the same.
// RUN: sh -c '%env_heapprof_opts=print_text=1:print_raw=0:profile_dir=%t.d2 %run %t _Exit; echo status $?' | FileCheck %s --check-prefix=STATUS4
// RUN: ls %t.d2 | count 1
// RUN: cat %t.d2/*.txt | FileCheck %s --check-prefix=SEVEN
//
// dump_at_exit=0: no profile, same status.
// RUN: sh -c '%env_heapprof_opts=print_text=1:print_raw=0:profile_dir=%t.d3:dump_at_exit=0 %run %t _exit; echo status $?' | FileCheck %s --check-prefix=STATUS3
// RUN: not ls %t.d3
//
// A forked child that allocates 5 objects of 222 bytes and calls _exit(0):
// its own profile (the 5, and the parent's 3 inherited live objects of 111,
// which the parent counts: live in the child, alloc_count 0), and the
// parent's at its normal exit (its 3 only).
// RUN: %env_heapprof_opts=print_text=1:print_raw=0:profile_dir=%t.d4 %run %t fork-work
// RUN: ls %t.d4 | count 2
// RUN: grep -l ', _exit, dump 0' %t.d4/*.txt | xargs cat | FileCheck %s --check-prefix=CHILD
// RUN: grep -l ', exit, dump 0' %t.d4/*.txt | xargs cat | FileCheck %s --check-prefix=PARENT
// CHILD-DAG: alloc_count 0, size (ave/min/max) n/a / 111 / 111
// CHILD-DAG: live at dump: 3, continued from earlier dumps: 3, live bytes: 333
// CHILD-DAG: alloc_count 5, size (ave/min/max) 222.00 / 222 / 222
// PARENT-NOT: size (ave/min/max) 222.
// PARENT: alloc_count 3, size (ave/min/max) 111.00 / 111 / 111
// PARENT-NOT: size (ave/min/max) 222.
//
// A forked child that calls _exit(127) at once (as after a failed exec):
// no profile of its own; the parent's only.
// RUN: %env_heapprof_opts=print_text=1:print_raw=0:profile_dir=%t.d5 %run %t fork-quiet
// RUN: ls %t.d5 | count 1
// RUN: cat %t.d5/*.txt | FileCheck %s --check-prefix=PARENT
//
// A vfork child's _exit(0) writes nothing (and must not disturb the parent):
// the parent's profile, at its exit, has its 3 objects of 111 bytes.
// RUN: %env_heapprof_opts=print_text=1:print_raw=0:profile_dir=%t.d6 %run %t vfork
// RUN: ls %t.d6 | count 1
// RUN: cat %t.d6/*.txt | FileCheck %s --check-prefix=PARENT
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static void *volatile keep[16];

__attribute__((noinline)) static void seven(void) {
  for (int i = 0; i < 7; i++)
    keep[i] = malloc(48);
}

__attribute__((noinline)) static void parent_three(void) {
  for (int i = 0; i < 3; i++)
    keep[i] = malloc(111);
}

__attribute__((noinline)) static void child_five(void) {
  for (int i = 0; i < 5; i++)
    keep[8 + i] = malloc(222);
}

static int wait_ok(pid_t c, int want) {
  int st;
  if (c < 0 || waitpid(c, &st, 0) != c)
    return 1;
  return WIFEXITED(st) && WEXITSTATUS(st) == want ? 0 : 1;
}

int main(int argc, char **argv) {
  const char *what = argc > 1 ? argv[1] : "";
  if (!strcmp(what, "_exit")) {
    seven();
    _exit(3);
  }
  if (!strcmp(what, "_Exit")) {
    seven();
    _Exit(4);
  }
  parent_three();
  if (!strcmp(what, "fork-work")) {
    pid_t c = fork();
    if (c == 0) {
      child_five();
      _exit(0);
    }
    return wait_ok(c, 0);
  }
  if (!strcmp(what, "fork-quiet")) {
    pid_t c = fork();
    if (c == 0)
      _exit(127);
    return wait_ok(c, 127);
  }
  if (!strcmp(what, "vfork")) {
    pid_t c = vfork();
    if (c == 0)
      _exit(0);
    return wait_ok(c, 0);
  }
  return 2;
}
