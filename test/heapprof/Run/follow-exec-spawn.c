// --follow-exec follows a child started by posix_spawn or posix_spawnp with
// an environment of the program's own ({A=1}; Rust's Command with
// env_clear spawns that way): glibc execs inside libc, past the exec
// family heapprof interposes, so heapprof run's variables are added at the
// spawn, in the parent.  Each child (env) prints A=1 and them and writes
// its own profile; without --follow-exec they print A=1 alone and write
// nothing.  A spawn of a missing program fails as without heapprof.
// RUN: %clang_plain -O0 -g %s -o %t
// RUN: rm -rf %t.f && env -u LD_PRELOAD heapprof run --follow-exec -o %t.f -- %t > %t.fout
// RUN: FileCheck %s --check-prefix=FENV < %t.fout
// RUN: ls %t.f | FileCheck %s --check-prefix=FFILES
// RUN: ls %t.f | count 3
// RUN: rm -rf %t.n && env -u LD_PRELOAD heapprof run -o %t.n -- %t > %t.nout
// RUN: FileCheck %s --check-prefix=NENV < %t.nout
// RUN: ls %t.n | count 1
#include <errno.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

static int run(int search, const char *path) {
  char *argv[] = {"env", NULL};
  char *envp[] = {"A=1", NULL};
  pid_t pid;
  fflush(stdout);
  int rc = search ? posix_spawnp(&pid, path, NULL, NULL, argv, envp)
                  : posix_spawn(&pid, path, NULL, NULL, argv, envp);
  if (rc)
    return -rc;
  int st;
  waitpid(pid, &st, 0);
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

int main(void) {
  int a = run(0, "/usr/bin/env");
  printf("spawn %d\n", a);
  int b = run(1, "/usr/bin/env");
  printf("spawnp %d\n", b);
  int c = run(0, "/nonexistent/env");
  printf("missing %s\n", c == -ENOENT ? "ENOENT" : "other");
  return 0;
}
// FENV: A=1
// FENV-DAG: LD_PRELOAD={{.*}}libheapprof_rt.so
// FENV-DAG: HEAPPROF_RUN=follow-exec
// FENV: spawn 0
// FENV: A=1
// FENV-DAG: LD_PRELOAD={{.*}}libheapprof_rt.so
// FENV: spawnp 0
// FENV-NEXT: missing ENOENT
// FFILES: heapprof.env.{{[0-9]+}}.profraw
// FFILES-NEXT: heapprof.env.{{[0-9]+}}.profraw
// FFILES-NEXT: heapprof.follow-exec-spawn.c.tmp.{{[0-9]+}}.profraw
// NENV: A=1
// NENV-NOT: LD_PRELOAD
// NENV-NOT: HEAPPROF
// NENV: spawn 0
// NENV-NEXT: A=1
// NENV-NEXT: spawnp 0
// NENV-NEXT: missing ENOENT
