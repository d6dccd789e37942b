// Every running thread is scanned at exit, however many there are: main
// holds one object on its stack and one in its TLS, 4200 other threads wait
// (on 64 KiB stacks), and exit() ends the process: 0 leaks, 4200 threads
// running.  The check kept the roots of 4096 threads and dropped the rest
// unsaid; main came last, and its 2 objects (18003 bytes) were leaks.
// RUN: %clang_heapprof -O0 -g %s -o %t -lpthread
// RUN: rm -rf %t.d && %env_heapprof_opts=profile_dir=%t.d %run %t 4200
// RUN: heapprof show %t.d | FileCheck %s
// CHECK: leaks: head_words=10 {{.*}} direct_objects=0 direct_bytes=0 indirect_objects=0 indirect_bytes=0 {{.*}}threads_running=4200
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static pthread_barrier_t bar;
__thread void *main_tls;

static void *idle(void *arg) {
  (void)arg;
  pthread_barrier_wait(&bar);
  for (;;)
    pause();
  return NULL;
}

__attribute__((noinline)) static void *mk(size_t n) {
  void *p = malloc(n);
  memset(p, 0, n);
  return p;
}

int main(int argc, char **argv) {
  int n = atoi(argv[1]);
  void *volatile on_stack = mk(9001);
  main_tls = mk(9002);
  pthread_barrier_init(&bar, NULL, n + 1);
  pthread_attr_t at;
  pthread_attr_init(&at);
  pthread_attr_setstacksize(&at, 65536);
  for (int i = 0; i < n; i++) {
    pthread_t t;
    if (pthread_create(&t, &at, idle, NULL))
      return 1;
  }
  pthread_barrier_wait(&bar);
  (void)on_stack;
  exit(0);
}
