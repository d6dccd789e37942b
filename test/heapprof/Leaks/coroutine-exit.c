// exit called on a stack that is not the thread's own: a coroutine's
// (makecontext), mmap'd or malloc'd, or one switched to by hand.  The
// coroutine mallocs 5000 objects of 204 bytes kept in a local array, then
// calls a function that mallocs 10 of 1000 bytes, keeps them in its own
// frame (32 KiB below, past a pad) and returns, dropping them; then it
// calls exit.  Right answer: the 5000 are reachable (their array is in a
// live frame), the 10 are direct leaks (10,000 bytes), whatever the stack:
//   mmap       an mmap'd stack.  Before the fix it was not read at all:
//              5010 direct leaks.
//   held       a malloc'd stack, held by the coroutine's ucontext (a
//              global): 5011 objects.  Before, the stack was read whole as
//              an object, its dead frames too: no leak at all.
//   dropped    a malloc'd stack no pointer outside it holds (the coroutine
//              clears its ucontext): in use, so reachable, not a leak.
//              Before, on heapprof's allocator: the stack a direct leak,
//              the 5010 indirect ones.
//   thread     a worker thread keeps 100 objects of 300 bytes in its start
//              routine's frame and switches to a coroutine whose mmap'd
//              stack lies above its own; that stack is read, and all of
//              the thread's own (where its frames stopped is not known).
//              Before, neither was: 5109 of the 5110 objects were leaks.
//              The worker's dtv (the dynamic linker's) is the 5111th
//              object; main, waiting in pthread_join, is a thread running.
//   hand       an mmap'd stack the program switches to with a mov to rsp
//              and a call, no makecontext.  Before: 5010 leaks.
//   args       the mmap'd stack, the coroutine made with 8 arguments, the
//              eighth a pointer to a new object of 50 bytes, which the
//              function that calls body has (above __start_context's
//              address, the second word: glibc passes 64-bit values).
//              It is reachable: 5011 objects.  Before, only the word
//              above that address was read: 11 direct leaks.
// RUN: %clang_heapprof -O0 -g -pthread %s -o %t
// RUN: rm -rf %t.mmap && %env_heapprof_opts=profile_dir=%t.mmap %run %t mmap
// RUN: heapprof show %t.mmap | FileCheck %s --check-prefix=N5010
// RUN: rm -rf %t.held && %env_heapprof_opts=profile_dir=%t.held %run %t held
// RUN: heapprof show %t.held | FileCheck %s --check-prefix=N5011
// RUN: rm -rf %t.dropped && %env_heapprof_opts=profile_dir=%t.dropped %run %t dropped
// RUN: heapprof show %t.dropped | FileCheck %s --check-prefix=N5011
// RUN: rm -rf %t.thread && %env_heapprof_opts=profile_dir=%t.thread %run %t thread
// RUN: heapprof show %t.thread | FileCheck %s --check-prefix=N5111
// RUN: rm -rf %t.hand && %env_heapprof_opts=profile_dir=%t.hand %run %t hand
// RUN: heapprof show %t.hand | FileCheck %s --check-prefix=N5010
// RUN: rm -rf %t.args && %env_heapprof_opts=profile_dir=%t.args %run %t args
// RUN: heapprof show %t.args | FileCheck %s --check-prefix=N5011
// The same program not rebuilt, under heapprof run on glibc's allocator:
// RUN: %clang_plain -O0 -g -pthread %s -o %t.plain
// RUN: rm -rf %t.smmap && env -u LD_PRELOAD heapprof run -o %t.smmap --allocator=system -- %t.plain mmap
// RUN: heapprof show %t.smmap | FileCheck %s --check-prefix=N5010
// RUN: rm -rf %t.sheld && env -u LD_PRELOAD heapprof run -o %t.sheld --allocator=system -- %t.plain held
// RUN: heapprof show %t.sheld | FileCheck %s --check-prefix=N5011
// RUN: rm -rf %t.sdropped && env -u LD_PRELOAD heapprof run -o %t.sdropped --allocator=system -- %t.plain dropped
// RUN: heapprof show %t.sdropped | FileCheck %s --check-prefix=N5011
// RUN: rm -rf %t.sthread && env -u LD_PRELOAD heapprof run -o %t.sthread --allocator=system -- %t.plain thread
// RUN: heapprof show %t.sthread | FileCheck %s --check-prefix=N5111
// RUN: rm -rf %t.shand && env -u LD_PRELOAD heapprof run -o %t.shand --allocator=system -- %t.plain hand
// RUN: heapprof show %t.shand | FileCheck %s --check-prefix=N5010
// N5010: leaks: head_words=10 objects=5010 root_bytes={{[1-9][0-9]*}} direct_objects=10 direct_bytes=10000 indirect_objects=0 indirect_bytes=0 threads_running=0 row_words=5 nrows=1{{$}}
// N5011: leaks: head_words=10 objects=5011 root_bytes={{[1-9][0-9]*}} direct_objects=10 direct_bytes=10000 indirect_objects=0 indirect_bytes=0 threads_running=0 row_words=5 nrows=1{{$}}
// N5111: leaks: head_words=10 objects=5111 root_bytes={{[1-9][0-9]*}} direct_objects=10 direct_bytes=10000 indirect_objects=0 indirect_bytes=0 threads_running=1 row_words=5 nrows=1{{$}}
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>

#define N 5000
#define STACK_BYTES (256 * 1024)

static ucontext_t back, co;
static const char *mode;

__attribute__((noinline)) static void drop(void) {
  void *volatile kept[10];
  for (int i = 0; i < 10; i++)
    kept[i] = malloc(1000);
}

__attribute__((noinline)) static void deep_drop(void) {
  volatile char pad[32768];
  pad[0] = 0;
  drop();
}

static void body(void) {
  void *volatile objs[N];
  if (!strcmp(mode, "dropped"))
    memset(&co, 0, sizeof co);
  for (int i = 0; i < N; i++)
    objs[i] = malloc(204);
  deep_drop();
  exit(0);
}

static void args_body(long a1, long a2, long a3, long a4, long a5, long a6,
                      long a7, void *obj) {
  body();
}

static void *map_stack(void) {
  return mmap(NULL, STACK_BYTES, PROT_READ | PROT_WRITE,
              MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
}

__attribute__((noinline)) static void make(int heap) {
  void *stack = heap ? malloc(STACK_BYTES) : map_stack();
  getcontext(&co);
  co.uc_stack.ss_sp = stack;
  co.uc_stack.ss_size = STACK_BYTES;
  co.uc_link = NULL;
  if (!strcmp(mode, "args"))
    makecontext(&co, (void (*)(void))args_body, 8, 0L, 0L, 0L, 0L, 0L, 0L,
                0L, malloc(50));
  else
    makecontext(&co, body, 0);
}

// Overwrites the stack below main's frame, where make's frame was.
#include "../Inputs/clobber.h"

static void *worker(void *arg) {
  void *volatile keep[100];
  for (int i = 0; i < 100; i++)
    keep[i] = malloc(300);
  swapcontext(&back, &co);
  return arg;
}

int main(int argc, char **argv) {
  mode = argc > 1 ? argv[1] : "mmap";
  if (!strcmp(mode, "hand")) {
    char *top = (char *)map_stack() + STACK_BYTES;
    __asm__ volatile("mov %0, %%rsp\n\t"
                     "call *%1\n\t"
                     "ud2"
                     :
                     : "r"(top), "r"(body)
                     : "memory");
  }
  int heap = !strcmp(mode, "held") || !strcmp(mode, "dropped");
  make(heap);
  clobber();
  if (!strcmp(mode, "thread")) {
    pthread_t t;
    pthread_create(&t, NULL, worker, NULL);
    pthread_join(t, NULL);
  }
  swapcontext(&back, &co);
  return 1;
}
