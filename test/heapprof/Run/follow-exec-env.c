// --follow-exec follows an exec whatever environment the program gives it:
// a fork child execs env with an environment of its own ({A=1}), then the
// program replaces itself by true with an empty environment (as `env -i`
// does).  With --follow-exec both new images are profiled (heapprof run's
// variables are added to the environment they get: env prints A=1 and
// them); without it the child is not (env prints A=1 alone), while the
// program replacing itself is, as always.
// RUN: %clang_plain -O0 -g %s -o %t
// RUN: rm -rf %t.f && env -u LD_PRELOAD heapprof run --follow-exec -o %t.f -- %t > %t.fout
// RUN: FileCheck %s --check-prefix=FENV < %t.fout
// RUN: ls %t.f | FileCheck %s --check-prefix=FFILES
// RUN: ls %t.f | count 3
// RUN: rm -rf %t.n && env -u LD_PRELOAD heapprof run -o %t.n -- %t > %t.nout
// RUN: FileCheck %s --check-prefix=NENV < %t.nout
// RUN: ls %t.n | FileCheck %s --check-prefix=NFILES
// RUN: ls %t.n | count 2
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

static void *volatile keep[4];

int main(void) {
  for (int i = 0; i < 4; i++)
    keep[i] = malloc(48);
  fflush(stdout);
  pid_t c = fork();
  if (c == 0) {
    char *argv[] = {"env", NULL};
    char *envp[] = {"A=1", NULL};
    execve("/usr/bin/env", argv, envp);
    _exit(127);
  }
  int st;
  waitpid(c, &st, 0);
  if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
    return 1;
  char *argv[] = {"true", NULL};
  char *envp[] = {NULL};
  execve("/usr/bin/true", argv, envp);
  return 127;
}
// FENV-DAG: A=1
// FENV-DAG: LD_PRELOAD={{.*}}libheapprof_rt.so
// FENV-DAG: HEAPPROF_RUN=follow-exec
// FFILES-DAG: heapprof.env.{{[0-9]+}}.profraw
// FFILES-DAG: heapprof.follow-exec-env.c.tmp.{{[0-9]+}}.1.profraw
// FFILES-DAG: heapprof.true.{{[0-9]+}}.profraw
// NENV: A=1
// NENV-NOT: LD_PRELOAD
// NENV-NOT: HEAPPROF
// NFILES-DAG: heapprof.follow-exec-env.c.tmp.{{[0-9]+}}.1.profraw
// NFILES-DAG: heapprof.true.{{[0-9]+}}.profraw
