// Frees over a process and its fork children: every free counts once,
// in the process that made it.  The parent allocates 10 objects of 100
// bytes and frees 5; its child inherits the other 5, frees one of them
// and allocates one of 64 bytes; with "ckpt" the parent writes a checkpoint
// before the fork, and frees one more after it, before a second one.
//   fork:       allocations 11, frees 5 + 1 = 6, live 5 (parent) + 5 (child)
//   fork ckpt:  allocations 11, frees 6 + 1 = 7, live 4 + 5 = 9
// The frees were allocations less live objects, which an inherited object
// (live in the child, allocated in the parent) pushed below 0: 0 frees.
// A merge of the profiles says the same, and so does the JSON.
// RUN: %clang_heapprof -O1 -g %s -o %t
// RUN: rm -rf %t.a %t.b %t.m && mkdir -p %t.a %t.b %t.m
// RUN: %env_heapprof_opts=profile_dir=%t.a:detect_leaks=0 %run %t fork
// RUN: heapprof report %t.a | FileCheck %s --check-prefix=FORK
// RUN: heapprof merge -o %t.m/a.profraw %t.a
// RUN: heapprof report %t.m/a.profraw | FileCheck %s --check-prefix=FORK
// RUN: heapprof report --format json %t.a | %python -c "import json,sys; s=json.load(sys.stdin)['summary']; print('frees', s['frees'])" | FileCheck %s --check-prefix=JSON
// FORK: allocations 11 objects, 1064 bytes
// FORK-NEXT: frees 6 objects
// FORK-NEXT: live at the end 10 objects, 964 bytes
// JSON: frees 6
// RUN: %env_heapprof_opts=profile_dir=%t.b:detect_leaks=0 %run %t fork ckpt
// RUN: heapprof report %t.b | FileCheck %s --check-prefix=CKPT
// RUN: heapprof merge -o %t.m/b.profraw %t.b
// RUN: heapprof report %t.m/b.profraw | FileCheck %s --check-prefix=CKPT
// CKPT: allocations 11 objects, 1064 bytes
// CKPT-NEXT: frees 7 objects
// CKPT-NEXT: live at the end 9 objects, 864 bytes
// The merged profile's records say how many objects its processes
// inherited (5), not how many continued from a checkpoint; 4 of them and
// 4 of the parent's are live at the end.
// RUN: heapprof show %t.m/b.profraw | FileCheck %s --check-prefix=SHOW
// SHOW: MIB stack id 1: AllocCount=10
// SHOW-NEXT: continuations=5 live_at_dump=8{{ }}
#include <heapprof/heapprof_interface.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

void *volatile sink;
void *p[10];

__attribute__((noinline)) void *obj(size_t n) { return malloc(n); }

int main(int argc, char **argv) {
  int ckpt = argc > 2 && !strcmp(argv[2], "ckpt");
  for (int i = 0; i < 10; i++)
    p[i] = obj(100);
  for (int i = 0; i < 5; i++)
    free(p[i]);
  if (ckpt)
    __heapprof_dump();
  pid_t c = fork();
  if (c == 0) {
    free(p[5]);
    sink = obj(64);
    _exit(0);
  }
  waitpid(c, 0, 0);
  if (ckpt) {
    free(p[6]);
    __heapprof_dump();
  }
  return 0;
}
