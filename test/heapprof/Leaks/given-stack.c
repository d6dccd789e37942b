// A thread on a stack the program gave it (pthread_attr_setstack, a block
// of its heap): the leak check read that thread's stack from the start of
// the mapping holding it, which for a malloc'd stack is the heap's, so
// every block below the stack was taken for a root.  Here main leaks 10
// blocks of 64 KiB, each holding the only pointer to a 204-byte object,
// then mallocs a 64 KiB stack (above them) and starts a worker on it that
// waits; main calls exit.  Right answer: the 10 blocks are direct leaks
// (655,360 bytes), the 10 objects they point to indirect ones (2,040
// bytes).  The stack (held by a global) and the worker's dtv are the other
// live objects: 22.  Before the fix: 10 direct, 0 indirect (the 204-byte
// objects read as reachable).
// RUN: %clang_heapprof -O0 -g -pthread %s -o %t
// RUN: rm -rf %t.d && %env_heapprof_opts=profile_dir=%t.d %run %t
// RUN: heapprof show %t.d/*.profraw | FileCheck %s
// The same program not rebuilt, on glibc's allocator (its heap is one
// mapping: the blocks sit below the stack there too):
// RUN: %clang_plain -O0 -g -pthread %s -o %t.plain
// RUN: rm -rf %t.sys && env -u LD_PRELOAD heapprof run -o %t.sys --allocator=system -- %t.plain
// RUN: heapprof show %t.sys/*.profraw | FileCheck %s
// CHECK: leaks: head_words=10 objects=22 root_bytes={{[1-9][0-9]*}} direct_objects=10 direct_bytes=655360 indirect_objects=10 indirect_bytes=2040 threads_running=1 row_words=5 nrows=2{{$}}
// CHECK-NEXT: stack id {{[0-9]+}}: direct_objects=10 direct_bytes=655360 indirect_objects=0 indirect_bytes=0{{$}}
// CHECK-NEXT: stack id {{[0-9]+}}: direct_objects=0 direct_bytes=0 indirect_objects=10 indirect_bytes=2040{{$}}
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define STACK_BYTES (64 * 1024)

static void *stack;
static pthread_barrier_t ready;

static void *worker(void *arg) {
  pthread_barrier_wait(&ready);
  for (;;)
    pause();
  return arg;
}

__attribute__((noinline)) static void leak(void) {
  for (int i = 0; i < 10; i++) {
    void **block = calloc(1, STACK_BYTES);
    block[100] = malloc(204);
  }
}

// Overwrites the stack below main's frame, where leak's frame was.
#include "../Inputs/clobber.h"

int main(void) {
  leak();
  clobber();
  stack = malloc(STACK_BYTES);
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstack(&attr, stack, STACK_BYTES);
  pthread_barrier_init(&ready, NULL, 2);
  pthread_t t;
  pthread_create(&t, &attr, worker, NULL);
  pthread_barrier_wait(&ready);
  exit(0);
}
