// heapprof run on a program that replaces itself with exec (as a wrapper
// script's `exec`, or a pyenv shim, does): the new image is still the
// program asked for, so it is profiled too, each image to its own file;
// what either passes to its children is the caller's environment.
// The program (not rebuilt: plain clang): "first" makes 3 objects of 111
// bytes and execs itself as "second", which makes 5 objects of 222 bytes,
// prints the three variables heapprof run sets, and runs env in a forked
// child (not profiled without --follow-exec).
// RUN: %clang_plain -O0 -g %s -o %t
//
// RUN: rm -rf %t.d && env -u LD_PRELOAD HEAPPROF_OPTIONS=print_text=1 heapprof run -o %t.d -- %t first > %t.out
// RUN: FileCheck %s --check-prefix=ENV < %t.out
// ENV: LD_PRELOAD (unset)
// ENV-NEXT: HEAPPROF_OPTIONS print_text=1
// ENV-NEXT: HEAPPROF_RUN (unset)
// ENV-NOT: LD_PRELOAD=
// ENV-NOT: HEAPPROF_RUN
// ENV: HEAPPROF_OPTIONS=print_text=1
// ENV-NOT: LD_PRELOAD=
// ENV-NOT: HEAPPROF_RUN
//
// The first image's profile is a checkpoint written at the exec, the
// second's the exit profile; with the caller's print_text=1 both images
// also wrote a text profile.
// RUN: ls %t.d | FileCheck %s --check-prefix=FILES
// RUN: ls %t.d | count 4
// FILES: heapprof.exec-self.c.tmp.[[PID:[0-9]+]].1.profraw
// FILES-NEXT: heapprof.exec-self.c.tmp.[[PID]].1.txt
// FILES-NEXT: heapprof.exec-self.c.tmp.[[PID]].profraw
// FILES-NEXT: heapprof.exec-self.c.tmp.[[PID]].txt
// RUN: cat %t.d/*.1.txt | FileCheck %s --check-prefix=FIRST
// FIRST: HeapProf profile: {{.*}}, exec, dump 1
// FIRST-NOT: size (ave/min/max) 222
// FIRST: alloc_count 3, size (ave/min/max) 111.00 / 111 / 111
// FIRST-NOT: size (ave/min/max) 222
// RUN: heapprof report %t.d | FileCheck %s --check-prefix=BINS
// BINS: heapprof report: 2 processes, 2 files
// BINS: accesses {{ *}}0 (none counted: the program was not compiled with -fheapprof
// BINS: == Allocation bins
// BINS: {{^ *111 +3 }}
// BINS: {{^ *222 +5 }}
//
// Through a shell that execs it: the shell's image writes its profile at
// the exec, the program its own at exit.
// RUN: rm -rf %t.d2 && env -u LD_PRELOAD heapprof run -o %t.d2 -- sh -c 'exec "$0" second' %t > /dev/null
// RUN: ls %t.d2 | FileCheck %s --check-prefix=SHELL
// RUN: ls %t.d2 | count 2
// SHELL-DAG: heapprof.exec-self.c.tmp.[[PID:[0-9]+]].profraw
// SHELL-DAG: heapprof.{{.*}}.[[PID]].1.profraw
// RUN: heapprof report %t.d2 | FileCheck %s --check-prefix=SECOND
// SECOND: == Allocation bins
// SECOND: {{^ *222 +5 }}
//
// Two images of the same program before the last: their exec profiles
// would have the same name; the later one's gets -2, nothing is replaced.
// RUN: rm -rf %t.d3 && env -u LD_PRELOAD heapprof run -o %t.d3 -- %t again > /dev/null
// RUN: ls %t.d3 | FileCheck %s --check-prefix=AGAIN
// RUN: ls %t.d3 | count 3
// AGAIN: heapprof.exec-self.c.tmp.[[PID:[0-9]+]].1-2.profraw
// AGAIN-NEXT: heapprof.exec-self.c.tmp.[[PID]].1.profraw
// AGAIN-NEXT: heapprof.exec-self.c.tmp.[[PID]].profraw
// RUN: heapprof report %t.d3 | FileCheck %s --check-prefix=AGAINBINS
// AGAINBINS: heapprof report: 3 processes, 3 files
// AGAINBINS: {{^ *111 +6 }}
// AGAINBINS: {{^ *222 +5 }}
//
// The caller's HEAPPROF_OPTIONS reach the program and its children when
// heapprof run adds none of its own (no -o): unchanged, not removed.
// RUN: rm -rf %t.d4 && mkdir %t.d4 && cd %t.d4 && env -u LD_PRELOAD HEAPPROF_OPTIONS=print_stats=0 heapprof run -- %t second > %t.out4
// RUN: FileCheck %s --check-prefix=KEEP < %t.out4
// RUN: ls %t.d4 | count 1
// KEEP: HEAPPROF_OPTIONS print_stats=0
// KEEP: HEAPPROF_OPTIONS=print_stats=0
//
// The caller's LD_PRELOAD and HEAPPROF_OPTIONS set but empty: heapprof run
// sets its own values alone, with nothing joined to them.  The first
// image's runtime took them for values changed since and passed nothing
// of heapprof's to the exec: the second image ran without the runtime
// (one profile, not two, and its 5 objects of 222 bytes in none).  It
// must get both, and give its children the caller's empty values back.
// RUN: rm -rf %t.d5 && env LD_PRELOAD= HEAPPROF_OPTIONS= heapprof run -o %t.d5 -- %t first > %t.out5
// RUN: FileCheck %s --check-prefix=EMPTY < %t.out5
// EMPTY: LD_PRELOAD {{$}}
// EMPTY-NEXT: HEAPPROF_OPTIONS {{$}}
// EMPTY-NEXT: HEAPPROF_RUN (unset)
// EMPTY-DAG: {{^}}LD_PRELOAD={{$}}
// EMPTY-DAG: {{^}}HEAPPROF_OPTIONS={{$}}
// EMPTY-NOT: HEAPPROF_RUN
// RUN: ls %t.d5 | count 2
// RUN: heapprof report %t.d5 | FileCheck %s --check-prefix=EMPTYBINS
// EMPTYBINS: heapprof report: 2 processes, 2 files
// EMPTYBINS: {{^ *111 +3 }}
// EMPTYBINS: {{^ *222 +5 }}
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static void *volatile keep[8];

static void show(const char *var) {
  const char *v = getenv(var);
  printf("%s %s\n", var, v ? v : "(unset)");
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "";
  if (!strcmp(mode, "first") || !strcmp(mode, "again") ||
      !strcmp(mode, "again2")) {
    for (int i = 0; i < 3; i++)
      keep[i] = malloc(111);
    char *next[] = {argv[0], !strcmp(mode, "again") ? "again2" : "second",
                    NULL};
    execv(argv[0], next);
    return 127;
  }
  for (int i = 0; i < 5; i++)
    keep[i] = malloc(222);
  show("LD_PRELOAD");
  show("HEAPPROF_OPTIONS");
  show("HEAPPROF_RUN");
  fflush(stdout);
  pid_t c = fork();
  if (c == 0) {
    execl("/usr/bin/env", "env", (char *)NULL);
    _exit(127);
  }
  int st;
  waitpid(c, &st, 0);
  return WEXITSTATUS(st);
}
