// heapprof run on a program that forks and execs (not rebuilt: plain clang).
// The parent makes 3 objects of 111 bytes, a forked child 5 of 222 and
// exits; a second child execs env (which prints its environment).  Without --follow-exec the exec'd sh is
// not profiled and prints the caller's environment (no LD_PRELOAD, no
// HEAPPROF_RUN); the forked child, the same program, writes its own profile.
// With --follow-exec env is profiled too, to its own file.
// RUN: %clang_plain -O0 -g %s -o %t
// RUN: rm -rf %t.dir && env -u LD_PRELOAD heapprof run -o %t.dir -- %t > %t.out
// RUN: FileCheck %s --check-prefix=ENV < %t.out
// RUN: grep -c PATH= %t.out
// RUN: ls %t.dir | FileCheck %s --check-prefix=FILES
// RUN: ls %t.dir | count 2
// RUN: heapprof report %t.dir | FileCheck %s --check-prefix=BINS
// RUN: rm -rf %t.dir2 && env -u LD_PRELOAD heapprof run --follow-exec -o %t.dir2 -- %t > %t.out2
// RUN: FileCheck %s --check-prefix=FOLLOW < %t.out2
// RUN: ls %t.dir2 | FileCheck %s --check-prefix=FILES2
// RUN: ls %t.dir2 | count 3
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

static void *volatile keep[8];

int main(void) {
  for (int i = 0; i < 3; i++)
    keep[i] = malloc(111);
  fflush(stdout);
  pid_t c = fork();
  if (c == 0) {
    for (int i = 0; i < 5; i++)
      keep[i] = malloc(222);
    exit(0);
  }
  waitpid(c, NULL, 0);
  c = fork();
  if (c == 0) {
    execl("/usr/bin/env", "env", NULL);
    _exit(127);
  }
  int st;
  waitpid(c, &st, 0);
  return WEXITSTATUS(st);
}
// ENV-NOT: LD_PRELOAD=
// ENV-NOT: HEAPPROF_RUN
// FILES: heapprof.fork-exec.c.tmp.{{[0-9]+}}.profraw
// FILES-NEXT: heapprof.fork-exec.c.tmp.{{[0-9]+}}.profraw
// FOLLOW-DAG: LD_PRELOAD={{.*}}libheapprof_rt.so
// FOLLOW-DAG: HEAPPROF_RUN=follow-exec
// FILES2-DAG: heapprof.env.{{[0-9]+}}.profraw
// FILES2-DAG: heapprof.fork-exec.c.tmp.{{[0-9]+}}.profraw
// BINS: == Allocation bins
// The 3 objects of 111 bytes are counted once, by the parent that made
// them: the child holds them too, inherited, but did not allocate them.
// BINS: {{^ *111 +3 }}
// BINS: {{^ *222 +5 }}
