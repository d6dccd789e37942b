// An object the program holds only in a callee-saved register when the
// image ends is reachable: the leak check reads the exiting thread's
// registers at exit, quick_exit, _exit and _Exit, and at an exec.  mk()
// keeps 5 blocks of 7000-7004 bytes in a global; the assembly moves the 5
// pointers into rbx and r12-r15, clears the global and calls the ending
// function, so the registers alone hold them: 5 objects live, 0 leaks in
// every case, with the runtime linked in and under heapprof run (an exec
// there also profiles /bin/true, with no objects).  _exit, _Exit and exec
// used to start the stack's roots at their own frame, above the registers
// they had pushed: all 5 were reported leaked (2 at the exec).
// RUN: %clang_heapprof -O0 -g %s -o %t
// RUN: rm -rf %t.d0 && %env_heapprof_opts=profile_dir=%t.d0 %run %t 0
// RUN: heapprof show %t.d0 | FileCheck %s
// RUN: rm -rf %t.d1 && %env_heapprof_opts=profile_dir=%t.d1 %run %t 1
// RUN: heapprof show %t.d1 | FileCheck %s
// RUN: rm -rf %t.d2 && %env_heapprof_opts=profile_dir=%t.d2 %run %t 2
// RUN: heapprof show %t.d2 | FileCheck %s
// RUN: rm -rf %t.d3 && %env_heapprof_opts=profile_dir=%t.d3 %run %t 3
// RUN: heapprof show %t.d3 | FileCheck %s
// RUN: rm -rf %t.d4 && %env_heapprof_opts=profile_dir=%t.d4 %run %t 4
// RUN: heapprof show %t.d4 | FileCheck %s
// The same program not rebuilt, under heapprof run:
// RUN: %clang_plain -O0 -g %s -o %t.plain
// RUN: rm -rf %t.r1 && env -u LD_PRELOAD heapprof run -o %t.r1 -- %t.plain 1
// RUN: heapprof show %t.r1 | FileCheck %s
// RUN: rm -rf %t.r2 && env -u LD_PRELOAD heapprof run -o %t.r2 -- %t.plain 2
// RUN: heapprof show %t.r2 | FileCheck %s
// RUN: rm -rf %t.r3 && env -u LD_PRELOAD heapprof run -o %t.r3 -- %t.plain 3
// RUN: heapprof show %t.r3 | FileCheck %s
// CHECK: leaks: head_words=10 objects=5 {{.*}} direct_objects=0 direct_bytes=0 indirect_objects=0 indirect_bytes=0
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void *g[5];

__attribute__((noinline)) static void mk(void) {
  for (int i = 0; i < 5; i++) {
    g[i] = malloc(7000 + i);
    memset(g[i], 0, 7000 + i);
  }
}

#include "../Inputs/clobber.h"

static void do_exec(int status) {
  (void)status;
  execl("/bin/true", "true", (char *)NULL);
  _exit(1);
}

int main(int argc, char **argv) {
  int m = argc > 1 ? atoi(argv[1]) : 0;
  void (*fn)(int) = m == 0   ? exit
                    : m == 1 ? _exit
                    : m == 2 ? _Exit
                    : m == 3 ? do_exec
                             : quick_exit;
  mk();
  clobber();
  __asm__ volatile("mov g(%%rip), %%rbx\n\t"
                   "mov g+8(%%rip), %%r12\n\t"
                   "mov g+16(%%rip), %%r13\n\t"
                   "mov g+24(%%rip), %%r14\n\t"
                   "mov g+32(%%rip), %%r15\n\t"
                   "movq $0, g(%%rip)\n\t"
                   "movq $0, g+8(%%rip)\n\t"
                   "movq $0, g+16(%%rip)\n\t"
                   "movq $0, g+24(%%rip)\n\t"
                   "movq $0, g+32(%%rip)\n\t"
                   "and $-16, %%rsp\n\t"
                   "xor %%edi, %%edi\n\t"
                   "call *%0\n\t"
                   :
                   : "a"(fn)
                   : "rbx", "r12", "r13", "r14", "r15", "rdi", "memory");
  return 0;
}
