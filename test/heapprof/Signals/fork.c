// fork: parent and child each write their own profile; the child neither
// deadlocks (every runtime lock is held across fork) nor reports what the
// parent freed before the fork.
// RUN: rm -rf %t.dir && %clang_heapprof -O0 %s -o %t
// RUN: %env_heapprof_opts=print_raw=0:profile_dir=%t.dir:print_text=1 %run %t
// RUN: ls %t.dir | count 2
// Each churn() call site is its own context (the call line in main is in
// the stack).  The parent freed 10 objects before the fork and 5 after; the
// child must not report the parent's 10, only its own 3.
// RUN: cat %t.dir/*.txt | grep "alloc_count 10, size (ave/min/max) 24.00" | count 1
// RUN: cat %t.dir/*.txt | grep "alloc_count 5, size (ave/min/max) 24.00" | count 1
// RUN: cat %t.dir/*.txt | grep "alloc_count 3, size (ave/min/max) 24.00" | count 1
// The 100-byte object: allocated and freed by the parent, which counts it;
// inherited and still held by the child at its exit: part of the child's
// heap, reported live there, but as a continuation (alloc_count 0, as after
// a checkpoint), since the parent's allocation is the parent's to count.
// RUN: cat %t.dir/*.txt | grep "alloc_count 1, size (ave/min/max) 100.00" | count 1
// RUN: cat %t.dir/*.txt | grep -A8 "alloc_count 0, size (ave/min/max) n/a / 100 / 100" | FileCheck %s --check-prefix=CHILD
// CHILD: live at dump: 1, continued from earlier dumps: 1, live bytes: 100
#include <pthread.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

__attribute__((noinline)) static void churn(int n) {
  for (int i = 0; i < n; i++) {
    char *volatile p = malloc(24);
    p[0] = 1;
    free(p);
  }
}

static void *spin(void *arg) {
  // Another thread allocating while main forks.
  for (int i = 0; i < 20000; i++) {
    void *volatile q = malloc(1000 + i % 64);
    free(q);
  }
  return arg;
}

int main(void) {
  char *volatile inherited = malloc(100);
  churn(10);
  pthread_t t;
  pthread_create(&t, 0, spin, 0);
  pid_t c = fork();
  if (c == 0) {
    churn(3);
    exit(0);
  }
  int st;
  waitpid(c, &st, 0);
  pthread_join(t, 0);
  churn(5);
  free(inherited);
  return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : 1;
}
