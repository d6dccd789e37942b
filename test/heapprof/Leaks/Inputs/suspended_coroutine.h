// suspended_coroutine: run_suspended_coroutine(), what the forked child of
// Leaks/coroutine-fork.c and Leaks/coroutine-fork-held.c does before it
// exits.  A coroutine started by makecontext on a fresh mmap'd stack of
// 64 KiB mallocs one object of 40 bytes, keeps it in a local array (its
// only copy) and switches back.  The object is then reachable only through
// the switched-out coroutine's stack, which the leak check reads only if
// makecontext noted it: the child's profile has no leak, or, with the
// stack not noted, 1 direct leak of 40 bytes.
#ifndef HEAPPROF_TEST_SUSPENDED_COROUTINE_H
#define HEAPPROF_TEST_SUSPENDED_COROUTINE_H
#include <stdlib.h>
#include <sys/mman.h>
#include <ucontext.h>

#define SUSPENDED_STACK_BYTES (64 * 1024)

static ucontext_t suspended_back, suspended_co;

static void suspended_body(void) {
  void *volatile objs[1];
  objs[0] = malloc(40);
  swapcontext(&suspended_co, &suspended_back);
}

static void run_suspended_coroutine(void) {
  getcontext(&suspended_co);
  suspended_co.uc_stack.ss_sp =
      mmap(NULL, SUSPENDED_STACK_BYTES, PROT_READ | PROT_WRITE,
           MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  suspended_co.uc_stack.ss_size = SUSPENDED_STACK_BYTES;
  suspended_co.uc_link = NULL;
  makecontext(&suspended_co, suspended_body, 0);
  swapcontext(&suspended_back, &suspended_co);
}

#endif
