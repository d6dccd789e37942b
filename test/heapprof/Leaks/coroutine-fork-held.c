// A fork while another thread holds the noted stacks' lock for longer than
// a spin's bound.  The fork's prepare handler took the lock with the
// bounded spin of a note (2^20 tries, 0.06-0.12 s) and, when it gave up,
// let the copy be made with the lock held by a thread the child does not
// have: the child's makecontext noted nothing and its leak check read no
// noted stack.  Under make check's load the holder of coroutine-fork.c
// (a thread making contexts in a loop) was descheduled that long: about
// one run in fifty had a child read its coroutine's 40-byte object as a
// direct leak.  Here the holder is made slow on purpose: the program's own
// mincore, which the set's growth calls under the lock, sleeps 500 ms
// once, and main forks meanwhile.  The child runs a coroutine on a fresh
// mmap'd stack that mallocs one object of 40 bytes, keeps it in a local
// array and switches back, then exits: the object is reachable (its
// coroutine is switched out, its stack noted), so neither profile (main's,
// the child's) has a leak.  Before: the child's had 1 direct leak, 40
// bytes.  The fork now waits for the lock without a bound.
// The child's coroutine is run_suspended_coroutine()
// (Inputs/suspended_coroutine.h).
// RUN: %clang_heapprof -O0 -g -pthread %s -o %t
// RUN: rm -rf %t.d && %env_heapprof_opts=profile_dir=%t.d %run %t
// RUN: ls %t.d | count 2
// RUN: heapprof show %t.d | grep -o ' direct_objects=[0-9]*' | sort | uniq -c | FileCheck %s
// CHECK: {{^ *}}2  direct_objects=0{{$}}
// CHECK-NOT: direct_objects
#define _GNU_SOURCE
#include "Inputs/suspended_coroutine.h"
#include <pthread.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <ucontext.h>
#include <unistd.h>

static volatile int armed, in_mincore;

/* heapprof's growth of the set calls this under the lock. */
int mincore(void *addr, size_t len, unsigned char *vec) {
  if (armed) {
    armed = 0;
    in_mincore = 1;
    usleep(500000);
  }
  return syscall(SYS_mincore, addr, len, vec);
}

static char stacks[200][256];

static void nothing(void) {}

/* Notes stacks until the set grows with some in it (a mincore each). */
static void *churn(void *arg) {
  ucontext_t uc;
  getcontext(&uc);
  armed = 1;
  for (int i = 0; i < 200 && !in_mincore; i++) {
    uc.uc_stack.ss_sp = stacks[i];
    uc.uc_stack.ss_size = sizeof(stacks[i]);
    makecontext(&uc, nothing, 0);
  }
  return arg;
}

int main(void) {
  pthread_t t;
  if (pthread_create(&t, NULL, churn, NULL))
    return 1;
  while (!in_mincore)
    usleep(1000);
  pid_t p = fork(); /* the lock is held, for 500 ms yet */
  if (p == 0) {
    run_suspended_coroutine();
    _exit(0);
  }
  waitpid(p, NULL, 0);
  pthread_join(t, NULL);
  return 0;
}
