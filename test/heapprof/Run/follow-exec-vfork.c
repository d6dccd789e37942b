// --follow-exec follows an exec from a vfork child too (Python's
// subprocess execs that way), with an environment of the program's own
// ({A=1}): heapprof run's variables are added to it, in an array built on
// the child's stack (the child shares its parent's memory, so a mapping
// made there would stay in the parent).  The child execs env, which prints
// A=1 and them and writes its own profile; the parent goes on allocating
// and writes its own.  Without --follow-exec env prints A=1 alone and
// writes nothing.  A vfork child that execs a missing program and _exits
// leaves nothing behind either way.  A program built with -fheapprof is
// followed the same way.
// RUN: %clang_plain -O0 -g %s -o %t
// RUN: rm -rf %t.f && env -u LD_PRELOAD heapprof run --follow-exec -o %t.f -- %t > %t.fout
// RUN: FileCheck %s --check-prefix=FENV < %t.fout
// RUN: ls %t.f | FileCheck %s --check-prefix=FFILES
// RUN: ls %t.f | count 2
// RUN: rm -rf %t.n && env -u LD_PRELOAD heapprof run -o %t.n -- %t > %t.nout
// RUN: FileCheck %s --check-prefix=NENV < %t.nout
// RUN: ls %t.n | count 1
// Built with -fheapprof, the executable's runtime asks the preloaded one
// for heapprof run's variables (__heapprof_run_exec_environment).
// RUN: %clang_heapprof -O0 %s -o %t.inst
// RUN: rm -rf %t.i && env -u LD_PRELOAD heapprof run --follow-exec -o %t.i -- %t.inst > %t.iout
// RUN: FileCheck %s --check-prefix=FENV < %t.iout
// RUN: ls %t.i | count 2
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

static void *volatile keep[4];

static int spawn(const char *path) {
  char *argv[] = {"env", NULL};
  char *envp[] = {"A=1", NULL};
  fflush(stdout);
  pid_t c = vfork();
  if (c == 0) {
    execve(path, argv, envp);
    _exit(127);
  }
  int st;
  waitpid(c, &st, 0);
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

int main(void) {
  for (int i = 0; i < 4; i++)
    keep[i] = malloc(48);
  int missing = spawn("/nonexistent/env");
  int ran = spawn("/usr/bin/env");
  for (int i = 0; i < 4; i++)
    free(keep[i]);
  printf("missing %d, env %d\n", missing, ran);
  return 0;
}
// FENV-DAG: A=1
// FENV-DAG: LD_PRELOAD={{.*}}libheapprof_rt.so
// FENV-DAG: HEAPPROF_RUN=follow-exec
// FENV: missing 127, env 0
// FFILES-DAG: heapprof.env.{{[0-9]+}}.profraw
// FFILES-DAG: heapprof.follow-exec-vfork.c.tmp.{{[0-9]+}}.profraw
// NENV: A=1
// NENV-NOT: LD_PRELOAD
// NENV-NOT: HEAPPROF
// NENV: missing 127, env 0
