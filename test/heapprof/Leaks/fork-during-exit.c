// main exits while another thread forks in a loop.  glibc dropped
// heapprof's fork handlers at exit (registered with pthread_atfork, under
// the handle of the module heapprof is linked into, which that module's
// __cxa_finalize unregisters before the exit profile) and runs a fork's
// handlers without its lock held: a fork under way ran the prepare
// handlers (the dump lock and the allocator's locks taken) and no parent
// handler, and the exit profile waited for the dump lock for ever, or
// glibc aborted ("array index 0 not less than array length 0") with no
// profile: 2 runs in 40 here.  And a fork that held the noted coroutine
// stacks' lock while it waited for the dump lock made the exit's leak
// check give up on them: a switched-out coroutine's 4 objects of 40 bytes
// read as 3 direct leaks (one reached through a stale word) in 3 runs of
// 40.  The right answer in every run: a profile, exit status 0, no leak
// (the 4 objects are in the coroutine's frame, its stack noted).  The
// forks' children call _exit at once and write no profile.
// RUN: %clang_heapprof -O0 -g -pthread %s -o %t
// RUN: rm -rf %t.d && sh -c 'for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25; do HEAPPROF_OPTIONS=profile_dir=$0 timeout 60 $1 || echo "run $i: status $?"; done' %t.d %t > %t.status
// RUN: count 0 < %t.status
// RUN: ls %t.d | count 25
// RUN: heapprof show %t.d | grep -o 'leaks: .* direct_objects=[0-9]*' | grep -o 'direct_objects=[0-9]*' | sort | uniq -c | FileCheck %s
// CHECK: {{^ *}}25 direct_objects=0{{$}}
// CHECK-NOT: direct_objects
#define _GNU_SOURCE
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <ucontext.h>
#include <unistd.h>

static ucontext_t back, co;
static volatile int forking;

static void body(void) {
  void *volatile objs[4];
  for (int k = 0; k < 4; k++)
    objs[k] = malloc(40);
  swapcontext(&co, &back);
}

static void *forker(void *arg) {
  for (;;) {
    forking = 1;
    pid_t p = fork();
    if (p == 0)
      _exit(0);
    if (p > 0)
      waitpid(p, 0, 0);
  }
  return arg;
}

int main(void) {
  enum { STACK = 65536, BIG = 64 << 20 };
  /* Pages for the forks to copy: each takes a while. */
  char *big = mmap(NULL, BIG, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  char *stack = mmap(NULL, STACK, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (big == MAP_FAILED || stack == MAP_FAILED)
    return 2;
  memset(big, 1, BIG);
  getcontext(&co);
  co.uc_stack.ss_sp = stack;
  co.uc_stack.ss_size = STACK;
  co.uc_link = &back;
  makecontext(&co, body, 0);
  swapcontext(&back, &co);
  pthread_t t;
  if (pthread_create(&t, NULL, forker, NULL))
    return 2;
  while (!forking)
    ;
  usleep(10000);
  exit(0);
}
