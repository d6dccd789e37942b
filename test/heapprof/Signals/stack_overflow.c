// A stack overflow (unbounded recursion) on the main thread or on a thread
// the program started: the SIGSEGV handler runs on the alternate stack
// heapprof gave the thread, writes the profile (one live 123-byte block
// on main, one 321-byte block on the thread), and the process then dies of
// SIGSEGV as it would have.  Without the alternate stack the kernel kills
// it at once and no profile is written.  Also under heapprof run.  A
// program's own alternate stack is kept (heapprof adds none) and its own
// handler, installed after heapprof's, runs on it.
// RUN: %clang_heapprof -O0 -g %s -o %t -lpthread
// RUN: %clang_plain -O0 -g %s -o %t-plain -lpthread
// RUN: rm -rf %t.main && %env_heapprof_opts=print_raw=0:print_text=1:profile_dir=%t.main not --crash %run %t main 2>&1 | FileCheck %s --check-prefix=MSG
// MSG: HeapProf: caught SIGSEGV; writing the profile before the program dies
// RUN: cat %t.main/*.txt | FileCheck %s --check-prefix=MAIN
// MAIN: HeapProf profile: {{.*}}, SIGSEGV, dump 0
// MAIN: alloc_count 1, size (ave/min/max) 123.00 / 123 / 123
// MAIN: live at dump: 1
// RUN: rm -rf %t.thr && %env_heapprof_opts=print_raw=0:print_text=1:profile_dir=%t.thr not --crash %run %t thread 2>&1 | FileCheck %s --check-prefix=MSG
// RUN: cat %t.thr/*.txt | FileCheck %s --check-prefix=THREAD
// THREAD: alloc_count 1, size (ave/min/max) 321.00 / 321 / 321
// RUN: rm -rf %t.run && env -u LD_PRELOAD not --crash heapprof run -o %t.run -- %t-plain main 2>&1 | FileCheck %s --check-prefix=MSG
// RUN: heapprof show %t.run/*.profraw | FileCheck %s --check-prefix=SHOW
// SHOW: MIB {{.*}}AllocCount=1 {{.*}}TotalSize=123
// The program's own alternate stack and handler:
// RUN: %env_heapprof_opts=print_raw=0 %run %t own 2>&1 | FileCheck %s --check-prefix=OWN
// OWN: the program's alternate stack is in place
// OWN: own handler ran on the program's alternate stack
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int depth(int n) {
  volatile char buf[256];
  buf[0] = (char)n;
  return depth(n + 1) + buf[0];
}

static void *run(void *a) {
  (void)a;
  char *volatile p = malloc(321);
  p[0] = 1;
  return (void *)(long)depth(0);
}

static char own_stack[1 << 16];

static void own_handler(int sig) {
  (void)sig;
  char here;
  if (&here >= own_stack && &here < own_stack + sizeof(own_stack)) {
    static const char m[] = "own handler ran on the program's alternate stack\n";
    write(2, m, sizeof(m) - 1);
  }
  _exit(0);
}

int main(int argc, char **argv) {
  if (argc > 1 && !strcmp(argv[1], "own")) {
    stack_t ss = {.ss_sp = own_stack, .ss_size = sizeof(own_stack)};
    if (sigaltstack(&ss, NULL))
      return 1;
    /* A thread heapprof starts gets its own; this one keeps the program's. */
    stack_t cur;
    sigaltstack(NULL, &cur);
    if (cur.ss_sp == own_stack)
      fprintf(stderr, "the program's alternate stack is in place\n");
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = own_handler;
    sa.sa_flags = SA_ONSTACK;
    sigaction(SIGSEGV, &sa, NULL);
    return depth(0);
  }
  if (argc > 1 && !strcmp(argv[1], "thread")) {
    pthread_t t;
    pthread_create(&t, NULL, run, NULL);
    pthread_join(t, NULL);
    return 0;
  }
  char *volatile p = malloc(123);
  p[0] = 1;
  return depth(0);
}
