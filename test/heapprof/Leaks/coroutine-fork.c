// A child forked while another thread is inside makecontext: heapprof's
// note of the stack holds a lock for a few stores, and a child copied
// while another thread held it found it held for good (that thread is not
// in the child): its makecontext noted nothing after a spin, nor did its
// leak check read any noted stack.  A thread makes contexts in a loop on
// 1000 slices of a mapping; main forks 60 children, one at a time, and
// each runs a coroutine on a fresh mmap'd stack that mallocs one object
// of 40 bytes, keeps it in a local array and switches back; the child
// exits.  Right answer: in every child the object is reachable (its
// coroutine is switched out, its stack noted), so each of the 61 profiles
// (60 children and main) has no leak.  Before, about one child in ten
// (the share of time the thread holds the lock) read its object as a
// direct leak; the fork handlers now hold the lock across the copy.
// The child's coroutine is run_suspended_coroutine()
// (Inputs/suspended_coroutine.h).
// RUN: %clang_heapprof -O0 -g -pthread %s -o %t
// RUN: rm -rf %t.d && %env_heapprof_opts=profile_dir=%t.d %run %t
// RUN: ls %t.d | count 61
// RUN: heapprof show %t.d | grep -o ' direct_objects=[0-9]*' | sort | uniq -c | FileCheck %s
// CHECK: {{^ *}}61  direct_objects=0{{$}}
// CHECK-NOT: direct_objects
#include "Inputs/suspended_coroutine.h"
#include <pthread.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <ucontext.h>
#include <unistd.h>

#define CHILDREN 60
#define SLICES 1000
#define SLICE_BYTES 128

static volatile int stop, started;

static void nothing(void) {}

static void *churn(void *arg) {
  char *slices = mmap(NULL, SLICES * SLICE_BYTES, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ucontext_t uc;
  getcontext(&uc);
  for (unsigned long i = 0; !stop; i++) {
    uc.uc_stack.ss_sp = slices + (i % SLICES) * SLICE_BYTES;
    uc.uc_stack.ss_size = SLICE_BYTES;
    makecontext(&uc, nothing, 0);
    started = 1;
  }
  return arg;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, NULL, churn, NULL);
  while (!started)
    usleep(1000);
  for (int f = 0; f < CHILDREN; f++) {
    pid_t p = fork();
    if (p == 0) {
      run_suspended_coroutine();
      _exit(0);
    }
    waitpid(p, NULL, 0);
  }
  stop = 1;
  pthread_join(t, NULL);
  return 0;
}
