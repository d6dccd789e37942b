// An exec replaces the process image without exit or destructors: heapprof
// writes the image's profile first, as a checkpoint with reason "exec".  If
// the exec fails the process goes on and its exit profile ends the series.
// Not written by a forked child (what it does between fork and exec is not
// a profile), nor with dump_at_exit=0.
//
// RUN: %clang_heapprof -O0 %s -o %t
// RUN: rm -rf %t.d*
//
// 4 objects of 333 bytes, live, then execv("/bin/true"): one profile, the
// 4, and true's exit status.
// RUN: sh -c '%env_heapprof_opts=print_text=1:print_raw=0:profile_dir=%t.d1 %run %t execv; echo status $?' | FileCheck %s --check-prefix=STATUS0
// RUN: ls %t.d1 | count 1
// RUN: cat %t.d1/*.1.txt | FileCheck %s --check-prefix=FOUR
// STATUS0: status 0
// FOUR: HeapProf profile: {{.*}}, exec, dump 1
// FOUR: alloc_count 4, size (ave/min/max) 333.00 / 333 / 333
// FOUR: live at dump: 4
//
// The same through execl, execlp (a PATH search) and execle.
// RUN: %env_heapprof_opts=print_text=1:print_raw=0:profile_dir=%t.d2 %run %t execl
// RUN: cat %t.d2/*.1.txt | FileCheck %s --check-prefix=FOUR
// RUN: %env_heapprof_opts=print_text=1:print_raw=0:profile_dir=%t.d3 %run %t execlp
// RUN: cat %t.d3/*.1.txt | FileCheck %s --check-prefix=FOUR
// RUN: %env_heapprof_opts=print_text=1:print_raw=0:profile_dir=%t.d4 %run %t execle
// RUN: cat %t.d4/*.1.txt | FileCheck %s --check-prefix=FOUR
//
// An exec that fails after the profile was written (an executable file
// the kernel cannot run: no ELF, no #!): the program sees -1 and ENOEXEC,
// makes 6 objects of 444 bytes and exits.  Two profiles: the exec's (the
// 4) and the exit's (the 6; the 4, still live, continue there with
// alloc_count 0 and no average size).
// RUN: printf 'not a program\n' > %t.junk && chmod 755 %t.junk
// RUN: %env_heapprof_opts=print_text=1:print_raw=0:profile_dir=%t.d5 %run %t fail %t.junk | FileCheck %s --check-prefix=FAIL
// RUN: ls %t.d5 | count 2
// RUN: cat %t.d5/*.1.txt | FileCheck %s --check-prefix=FOUR
// RUN: grep -l ', exit, dump 0' %t.d5/*.txt | xargs cat | FileCheck %s --check-prefix=AFTER
// FAIL: execv -1 ENOEXEC
// AFTER-DAG: alloc_count 6, size (ave/min/max) 444.00 / 444 / 444
// AFTER-DAG: alloc_count 0, size (ave/min/max) n/a / 333 / 333
// AFTER-DAG: live at dump: 4, continued from earlier dumps: 4
//
// An exec that cannot start (no such file) writes nothing: one profile,
// the exit's, with the 4 and the 6 (Run/exec-path-search.c: a shell's
// search of PATH wrote one profile per directory it tried).
// RUN: %env_heapprof_opts=print_text=1:print_raw=0:profile_dir=%t.d8 %run %t fail /nonexistent/heapprof-test | FileCheck %s --check-prefix=MISSING
// RUN: ls %t.d8 | count 1
// RUN: cat %t.d8/*.txt | FileCheck %s --check-prefix=BOTH
// MISSING: execv -1 ENOENT
// BOTH: HeapProf profile: {{.*}}, exit, dump 0
// BOTH-DAG: alloc_count 4, size (ave/min/max) 333.00 / 333 / 333
// BOTH-DAG: alloc_count 6, size (ave/min/max) 444.00 / 444 / 444
//
// A forked child that execs: no profile of its own; the parent's at its
// exit has its 4 objects.
// RUN: %env_heapprof_opts=print_text=1:print_raw=0:profile_dir=%t.d6 %run %t fork-exec
// RUN: ls %t.d6 | count 1
// RUN: cat %t.d6/*.txt | FileCheck %s --check-prefix=PARENT
// PARENT: HeapProf profile: {{.*}}, exit, dump 0
// PARENT: alloc_count 4, size (ave/min/max) 333.00 / 333 / 333
//
// dump_at_exit=0: nothing written, the exec still happens.
// RUN: sh -c '%env_heapprof_opts=print_text=1:print_raw=0:profile_dir=%t.d7:dump_at_exit=0 %run %t execv; echo status $?' | FileCheck %s --check-prefix=STATUS0
// RUN: not ls %t.d7
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;
static void *volatile keep[16];

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "";
  for (int i = 0; i < 4; i++)
    keep[i] = malloc(333);
  char *true_argv[] = {"true", NULL};
  if (!strcmp(mode, "execv")) {
    execv("/bin/true", true_argv);
  } else if (!strcmp(mode, "execl")) {
    execl("/bin/true", "true", (char *)NULL);
  } else if (!strcmp(mode, "execlp")) {
    execlp("true", "true", (char *)NULL);
  } else if (!strcmp(mode, "execle")) {
    execle("/bin/true", "true", (char *)NULL, environ);
  } else if (!strcmp(mode, "fail")) {
    int r = execv(argv[2], true_argv);
    printf("execv %d %s\n", r,
           errno == ENOENT    ? "ENOENT"
           : errno == ENOEXEC ? "ENOEXEC"
                              : strerror(errno));
    for (int i = 0; i < 6; i++)
      keep[4 + i] = malloc(444);
    return 0;
  } else if (!strcmp(mode, "fork-exec")) {
    pid_t c = fork();
    if (c == 0) {
      execv("/bin/true", true_argv);
      _exit(127);
    }
    int st;
    waitpid(c, &st, 0);
    return WEXITSTATUS(st);
  }
  return 1;
}
