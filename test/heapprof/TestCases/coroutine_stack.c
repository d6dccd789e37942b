// Allocations on a stack that is not the thread's own: makecontext
// coroutines on stacks the program mapped.  The walk took the
// frame-pointer step wherever a return address had no CFI, bounded only
// by the thread's own top, which is meaningless there:
//
// 1. A coroutine's first function returns to the very start of
//    __start_context, whose return address - 1 has no CFI: the rbp that
//    getcontext saved in run() was taken for its caller, and the 111-byte
//    object had the context co_leaf <- co_body <- libc.so.6+0x... <- main,
//    main having never called into the coroutine (gdb: co_leaf, co_body,
//    __start_context, then garbage).  Expected: co_leaf <- co_body, the
//    coroutine's own frames, as a thread's stack ends at its start
//    routine.
// 2. Code without CFI that keeps another value in rbp (nofp_alloc: JIT
//    code, hand-written assembly) calls malloc on a coroutine stack with
//    an inaccessible page right above it, its address in rbp: the walk read
//    it, and the program died of SIGSEGV in malloc.  Expected: the program
//    runs to the end, the 222-byte object with no frames (nofp_alloc's
//    caller is unknown, so its frame is not kept, as anywhere).
// 3. A coroutine stack mapped above a thread's own stack (below the main
//    thread's): the walk started above the thread's top and kept
//    nothing.  Expected:
//    co_up_leaf <- co_up_body for the 333-byte object.
// RUN: %clang_heapprof -O0 -g %s -o %t -lpthread
// RUN: rm -rf %t.d && %env_heapprof_opts=profile_dir=%t.d %run %t | FileCheck %s --check-prefix=OUT
// RUN: heapprof report %t.d | FileCheck %s
// Under heapprof run, built without heapprof:
// RUN: %clang_plain -O0 -g %s -o %t-plain -lpthread
// RUN: rm -rf %t.p && env -u LD_PRELOAD heapprof run -o %t.p -- %t-plain | FileCheck %s --check-prefix=OUT
// RUN: heapprof report %t.p | FileCheck %s
// OUT: above: 1
// OUT: done
// CHECK: == Top contexts by bytes
// CHECK: 333 B in 1 object
// CHECK-NEXT: co_up_leaf {{.*}}coroutine_stack.c:[[#UP_LINE:]]
// CHECK-NEXT: co_up_body {{.*}}coroutine_stack.c:[[#UP_LINE+1]]
// CHECK-NEXT: {{^(#[0-9]|$)}}
// CHECK: 222 B in 1 object
// CHECK-NEXT: [no frames
// CHECK: 111 B in 1 object
// CHECK-NEXT: co_leaf {{.*}}coroutine_stack.c:[[#LEAF_LINE:]]
// CHECK-NEXT: co_body {{.*}}coroutine_stack.c:[[#LEAF_LINE+1]]
// CHECK-NEXT: {{^(#[0-9]|$)}}
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <ucontext.h>

#define STACK (1 << 16)

static ucontext_t back, co;
static void *volatile keep;
static uintptr_t hole;

// nofp_alloc(rbp, size): malloc(size) with rbp set to the first argument;
// no CFI.
void *nofp_alloc(uintptr_t rbp, size_t size);
__asm__(".text\n.globl nofp_alloc\n.type nofp_alloc,@function\n"
        "nofp_alloc:\npush %rbp\nmov %rdi, %rbp\nmov %rsi, %rdi\n"
        "call malloc@PLT\npop %rbp\nret\n.size nofp_alloc, .-nofp_alloc\n");

// clang-format off
__attribute__((noinline)) void co_leaf(void) { keep = malloc(111); __asm__ volatile(""); }
__attribute__((noinline)) void co_body(void) { co_leaf(); __asm__ volatile(""); }
__attribute__((noinline)) void co_jit(void) { keep = nofp_alloc(hole, 222); __asm__ volatile(""); }
__attribute__((noinline)) void co_up_leaf(void) { keep = malloc(333); __asm__ volatile(""); }
__attribute__((noinline)) void co_up_body(void) { co_up_leaf(); __asm__ volatile(""); }
// clang-format on

// Runs fn on the coroutine stack st until it returns.
__attribute__((noinline)) static void run(char *st, void (*fn)(void)) {
  getcontext(&co);
  co.uc_stack.ss_sp = st;
  co.uc_stack.ss_size = STACK;
  co.uc_link = &back;
  makecontext(&co, fn, 0);
  swapcontext(&back, &co);
}

// A stack with an inaccessible page right above it.
static char *guarded_stack(void) {
  char *st = mmap(0, STACK + 4096, PROT_READ | PROT_WRITE,
                  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (st == MAP_FAILED || mprotect(st + STACK, 4096, PROT_NONE))
    exit(1);
  return st;
}

// On a thread: a coroutine stack mapped above the thread's stack, in the
// room the kernel leaves below the main thread's (64 MiB down: below its
// 8 MiB limit, above every thread's stack).
static uintptr_t main_frame;
static void *thread_main(void *arg) {
  uintptr_t at = (uintptr_t)__builtin_frame_address(0);
  char *st = MAP_FAILED;
  for (int k = 0; k < 64 && st == MAP_FAILED; k++)
    st = mmap((void *)((main_frame & ~(uintptr_t)0xfffff) - ((64 + k) << 20)),
              STACK, PROT_READ | PROT_WRITE,
              MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
  printf("above: %d\n", st != MAP_FAILED && (uintptr_t)st > at);
  if (st != MAP_FAILED)
    run(st, co_up_body);
  return arg;
}

int main(void) {
  main_frame = (uintptr_t)__builtin_frame_address(0);
  char *st = guarded_stack();
  hole = (uintptr_t)(st + STACK);
  run(st, co_body);
  run(st, co_jit);
  pthread_t t;
  if (pthread_create(&t, 0, thread_main, 0) || pthread_join(t, 0))
    return 1;
  printf("done\n");
  return 0;
}
