// Coroutines no thread exits on: their mmap'd stacks hold objects in live
// frames, and no thread's stack range covers them.  main leaks 5 objects
// of 333 bytes (their only pointers are in a dead frame it overwrites), so
// the right answer is 5 direct leaks of 1665 bytes in every mode:
//   suspended  10 coroutines on mmap'd stacks of 64 KiB, each made with 8
//              arguments (past the 6 that go in registers: makecontext
//              takes them from the stack), keep 100 objects of 204 bytes
//              in a local array and switch back to main, which exits.
//              Before the stacks were noted: 995 direct leaks (10 of
//              the 1000 were reached through stale words elsewhere).
//   parked     a worker thread runs a coroutine on an mmap'd stack that
//              keeps 100 objects of 300 bytes in a local array and waits
//              there while main exits.  Before: 105.  (The worker's dtv,
//              the dynamic linker's, is the 106th object; the worker is a
//              thread running.)
//   freed      a coroutine on a malloc'd stack keeps 20 objects of 111
//              bytes in a local array, switches back and is never resumed;
//              main clears its context (the registers it saved) and frees
//              the stack.  The stack is no root: the 20 are
//              leaks too, 25 direct leaks of 3885 bytes.  Before the check
//              left heapprof's heap out, the freed stack was read: none.
//              (Not under allocator=system: glibc's heap is not told from
//              a mapping of the program's, see the user guide.)
//   pending    10 coroutines on mmap'd stacks, made with 8 arguments, the
//              eighth a pointer to a new object of 50 bytes (glibc passes
//              64-bit values), and never run: the pointer is on the stack
//              only, the second word above __start_context's address (the
//              first is the seventh argument, the third uc_link).  The 10
//              are reachable: 5 direct leaks of 1665 bytes.  Before the
//              words past the two above that address were read: 15, 2165.
//   returned   10 coroutines on mmap'd stacks, made with 8 arguments,
//              keep 100 objects of 204 bytes in a local array and return
//              to main (uc_link); their stacks stay mapped, and hold only
//              dead frames.  The 1000 are leaks: 1005 direct leaks of
//              205665 bytes.  Before, such a stack was read as a
//              coroutine's while __start_context's address was still
//              there, and only with 6 arguments or fewer did the call
//              __start_context makes when the function returns write over
//              it: 5 direct leaks.
//   local      a function's local array of 256 KiB: a coroutine runs on
//              its lower 64 KiB (as LLVM's lsan swapcontext test does with
//              half its array), keeps 100 objects of 204 bytes in a local
//              array and switches back; the function returns, main clears
//              the context.  The array is dead, below main's stack
//              pointer: 105 direct leaks of 22065 bytes.  Before, the
//              noted stack was read there: 5.
// A coroutine checks the arguments makecontext gave it and exits with
// status 3 if one is wrong (run would fail).
// RUN: %clang_heapprof -O0 -g -pthread %s -o %t
// RUN: rm -rf %t.s && %env_heapprof_opts=profile_dir=%t.s %run %t suspended
// RUN: heapprof show %t.s | FileCheck %s --check-prefix=SUSPENDED
// RUN: rm -rf %t.p && %env_heapprof_opts=profile_dir=%t.p %run %t parked
// RUN: heapprof show %t.p | FileCheck %s --check-prefix=PARKED
// RUN: rm -rf %t.f && %env_heapprof_opts=profile_dir=%t.f %run %t freed
// RUN: heapprof show %t.f | FileCheck %s --check-prefix=FREED
// RUN: rm -rf %t.a && %env_heapprof_opts=profile_dir=%t.a %run %t pending
// RUN: heapprof show %t.a | FileCheck %s --check-prefix=PENDING
// RUN: rm -rf %t.r && %env_heapprof_opts=profile_dir=%t.r %run %t returned
// RUN: heapprof show %t.r | FileCheck %s --check-prefix=RETURNED
// RUN: rm -rf %t.l && %env_heapprof_opts=profile_dir=%t.l %run %t local
// RUN: heapprof show %t.l | FileCheck %s --check-prefix=LOCAL
// The same program not rebuilt, under heapprof run on glibc's allocator:
// RUN: %clang_plain -O0 -g -pthread %s -o %t.plain
// RUN: rm -rf %t.ss && env -u LD_PRELOAD heapprof run -o %t.ss --allocator=system -- %t.plain suspended
// RUN: heapprof show %t.ss | FileCheck %s --check-prefix=SUSPENDED
// RUN: rm -rf %t.sp && env -u LD_PRELOAD heapprof run -o %t.sp --allocator=system -- %t.plain parked
// RUN: heapprof show %t.sp | FileCheck %s --check-prefix=PARKED
// RUN: rm -rf %t.sr && env -u LD_PRELOAD heapprof run -o %t.sr --allocator=system -- %t.plain returned
// RUN: heapprof show %t.sr | FileCheck %s --check-prefix=RETURNED
// SUSPENDED: leaks: head_words=10 objects=1005 root_bytes={{[1-9][0-9]*}} direct_objects=5 direct_bytes=1665 indirect_objects=0 indirect_bytes=0 threads_running=0 row_words=5 nrows=1{{$}}
// PENDING: leaks: head_words=10 objects=15 root_bytes={{[1-9][0-9]*}} direct_objects=5 direct_bytes=1665 indirect_objects=0 indirect_bytes=0 threads_running=0 row_words=5 nrows=1{{$}}
// RETURNED: leaks: head_words=10 objects=1005 root_bytes={{[1-9][0-9]*}} direct_objects=1005 direct_bytes=205665 indirect_objects=0 indirect_bytes=0 threads_running=0 row_words=5 nrows=2{{$}}
// LOCAL: leaks: head_words=10 objects=105 root_bytes={{[1-9][0-9]*}} direct_objects=105 direct_bytes=22065 indirect_objects=0 indirect_bytes=0 threads_running=0 row_words=5 nrows=2{{$}}
// FREED: leaks: head_words=10 objects=25 root_bytes={{[1-9][0-9]*}} direct_objects=25 direct_bytes=3885 indirect_objects=0 indirect_bytes=0 threads_running=0 row_words=5 nrows=2{{$}}
// PARKED: leaks: head_words=10 objects=106 root_bytes={{[1-9][0-9]*}} direct_objects=5 direct_bytes=1665 indirect_objects=0 indirect_bytes=0 threads_running=1 row_words=5 nrows=1{{$}}
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#define COROUTINES 10
#define STACK_BYTES (64 * 1024)

static ucontext_t back, co[COROUTINES];
static volatile int ready;

static void *map_stack(void) {
  return mmap(NULL, STACK_BYTES, PROT_READ | PROT_WRITE,
              MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
}

// The arguments makecontext was given: i, i + 1, ..., i + 7.
static void check_args(int i, int a1, int a2, int a3, int a4, int a5, int a6,
                       int a7) {
  if (a1 != i + 1 || a2 != i + 2 || a3 != i + 3 || a4 != i + 4 ||
      a5 != i + 5 || a6 != i + 6 || a7 != i + 7)
    _exit(3);
}

static void body(int i, int a1, int a2, int a3, int a4, int a5, int a6,
                 int a7) {
  check_args(i, a1, a2, a3, a4, a5, a6, a7);
  void *volatile objs[100];
  for (int k = 0; k < 100; k++)
    objs[k] = malloc(204);
  swapcontext(&co[i], &back);
}

static void returned_body(int i, int a1, int a2, int a3, int a4, int a5,
                          int a6, int a7) {
  check_args(i, a1, a2, a3, a4, a5, a6, a7);
  void *volatile objs[100];
  for (int k = 0; k < 100; k++)
    objs[k] = malloc(204);
}

static void freed_body(void) {
  void *volatile objs[20];
  for (int k = 0; k < 20; k++)
    objs[k] = malloc(111);
  swapcontext(&co[0], &back);
}

static void pending_body(int i, int a1, int a2, int a3, int a4, int a5,
                         int a6, void *obj) {
  body(i, a1, a2, a3, a4, a5, a6, i + 7);
}

static void parked_body(void) {
  void *volatile objs[100];
  for (int k = 0; k < 100; k++)
    objs[k] = malloc(300);
  ready = 1;
  for (;;)
    pause();
}

static void *worker(void *arg) {
  swapcontext(&back, &co[0]);
  return arg;
}

static void local_body(void) {
  void *volatile objs[100];
  for (int k = 0; k < 100; k++)
    objs[k] = malloc(204);
  swapcontext(&co[0], &back);
}

// co[i] made ready for makecontext on the stack given.
static void prepare(int i, void *stack, ucontext_t *link) {
  getcontext(&co[i]);
  co[i].uc_stack.ss_sp = stack;
  co[i].uc_stack.ss_size = STACK_BYTES;
  co[i].uc_link = link;
}

__attribute__((noinline)) static void on_local_array(void) {
  char array[4 * STACK_BYTES] __attribute__((aligned(16)));
  prepare(0, array, NULL);
  makecontext(&co[0], local_body, 0);
  swapcontext(&back, &co[0]);
}

__attribute__((noinline)) static void leak(void) {
  void *volatile lost[5];
  for (int k = 0; k < 5; k++)
    lost[k] = malloc(333);
}

// Overwrites the stack below main's frame, where leak's frame was.
#include "../Inputs/clobber.h"

static void make(int i, void (*fn)(void), int args) {
  prepare(i, map_stack(), NULL);
  if (args)
    makecontext(&co[i], fn, 8, i, i + 1, i + 2, i + 3, i + 4, i + 5, i + 6,
                i + 7);
  else
    makecontext(&co[i], fn, 0);
}

int main(int argc, char **argv) {
  if (argc > 1 && !strcmp(argv[1], "pending")) {
    for (int i = 0; i < COROUTINES; i++) {
      prepare(i, map_stack(), NULL);
      makecontext(&co[i], (void (*)(void))pending_body, 8, i, i + 1, i + 2,
                  i + 3, i + 4, i + 5, i + 6, malloc(50));
    }
  } else if (argc > 1 && !strcmp(argv[1], "returned")) {
    for (int i = 0; i < COROUTINES; i++) {
      prepare(i, map_stack(), &back); // makecontext puts uc_link on it
      makecontext(&co[i], (void (*)(void))returned_body, 8, i, i + 1, i + 2,
                  i + 3, i + 4, i + 5, i + 6, i + 7);
      swapcontext(&back, &co[i]);
    }
  } else if (argc > 1 && !strcmp(argv[1], "local")) {
    on_local_array();
    memset(&co[0], 0, sizeof co[0]); // its saved registers: never resumed
  } else if (argc > 1 && !strcmp(argv[1], "freed")) {
    void *stack = malloc(STACK_BYTES);
    prepare(0, stack, NULL);
    makecontext(&co[0], freed_body, 0);
    swapcontext(&back, &co[0]);
    memset(&co[0], 0, sizeof co[0]); // its saved registers: never resumed
    free(stack);
  } else if (argc > 1 && !strcmp(argv[1], "parked")) {
    make(0, parked_body, 0);
    pthread_t t;
    pthread_create(&t, NULL, worker, NULL);
    while (!ready)
      usleep(1000);
  } else {
    for (int i = 0; i < COROUTINES; i++) {
      make(i, (void (*)(void))body, 1);
      swapcontext(&back, &co[i]);
    }
  }
  leak();
  clobber();
  return 0;
}
