// Two contexts that symbolize alike are one row, and the least object size
// of the row comes from the contexts that allocated: a context with no
// allocation (a fork child's, whose objects all came from its parent: its
// records are continuations, with no sizes the report reads) has no least
// size, not 0.  Build A allocates 10 objects of 100 bytes, forks; the
// child exits (its profile: 10 objects inherited, live, none allocated)
// and the parent is killed (no profile).  Build B (-DOTHER: another
// module, the same lines) allocates the same 10 and frees them.  Read
// together, in either order, one context: 10 allocations of 100 bytes
// (1000 B, "100 B each"), and the child's 10 live (1000 B).  Taking the
// least size from the child's context too read "0 B to 100 B".
// RUN: rm -rf %t.d && mkdir -p %t.d/a %t.d/b
// RUN: %clang_heapprof -O0 -g %s -o %t.a
// RUN: %clang_heapprof -O0 -g -DOTHER %s -o %t.b
// RUN: %env_heapprof_opts=profile_dir=%t.d/a:detect_leaks=0 not --crash %run %t.a fork
// RUN: %env_heapprof_opts=profile_dir=%t.d/b:detect_leaks=0 %run %t.b
// RUN: heapprof report %t.d/a %t.d/b | FileCheck %s
// RUN: heapprof report %t.d/b %t.d/a | FileCheck %s
// CHECK: == Top contexts by bytes
// CHECK-NEXT: #1  100.0%  1000 B in 10 objects (100 B each), 10 live (1000 B)
// CHECK-NEXT: {{^ +}}obj
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

static void *volatile objs[10];

__attribute__((noinline)) static void *obj(void) { return malloc(100); }

int main(int argc, char **argv) {
  for (int i = 0; i < 10; i++)
    objs[i] = obj();
  if (argc > 1) {
    pid_t pid = fork();
    if (pid == 0)
      exit(0);
    waitpid(pid, NULL, 0);
    kill(getpid(), SIGKILL); /* no profile of the parent's */
  }
  for (int i = 0; i < 10; i++)
    free(objs[i]);
  return 0;
}
#ifdef OTHER
int other_build = 1; /* a different binary, its lines unchanged */
#endif
