// A thread created but not yet started: its argument is reachable (the
// thread will run with it), and the thread counts among those running at
// exit.  The leak check finds such arguments in the wrapper's table of
// start arguments (hp_thread_pending_args); the window between
// pthread_create and the wrapper's thread_start is held open here: the new
// thread's signal mask (pthread_attr_setsigmask_np) lets in a SIGUSR1
// already pending for the process, which glibc's start_thread delivers when
// it installs that mask, before it calls the start routine; the handler
// never returns.  main then exits, its only pointer to the 204-byte
// argument gone with start()'s frame.  So the argument is not a leak
// (direct_objects=0) and one thread is running (threads_running=1); with
// the pending arguments not roots, the argument was a direct leak of 204
// bytes, and with them not counted, threads_running read 0.
// RUN: %clang_heapprof -O0 -g -pthread %s -o %t
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: %env_heapprof_opts=profile_dir=%t.d %run %t
// RUN: heapprof show %t.d/*.profraw | FileCheck %s
// CHECK: leaks: head_words=10 objects={{[1-9][0-9]*}} root_bytes={{[0-9]+}} direct_objects=0 direct_bytes=0 indirect_objects=0 indirect_bytes=0 threads_running=1 row_words=5 nrows=0{{$}}
#define _GNU_SOURCE
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static sem_t started;

/* Runs on the new thread before its start routine, and stays. */
static void hold(int sig) {
  (void)sig;
  sem_post(&started);
  for (;;)
    pause();
}

static void *worker(void *arg) { return arg; } /* never reached */

__attribute__((noinline)) static void *arg_obj(void) { return malloc(204); }

__attribute__((noinline)) static void start(void) {
  pthread_attr_t attr;
  sigset_t none;
  sigemptyset(&none);
  pthread_attr_init(&attr);
  pthread_attr_setsigmask_np(&attr, &none);
  pthread_t th;
  pthread_create(&th, &attr, worker, arg_obj());
  pthread_attr_destroy(&attr);
}

int main(void) {
  sem_init(&started, 0, 0);
  struct sigaction sa;
  memset(&sa, 0, sizeof(sa));
  sa.sa_handler = hold;
  sigaction(SIGUSR1, &sa, NULL);
  sigset_t usr1;
  sigemptyset(&usr1);
  sigaddset(&usr1, SIGUSR1);
  pthread_sigmask(SIG_BLOCK, &usr1, NULL);
  kill(getpid(), SIGUSR1); /* pending: no thread lets it in yet */
  start();
  while (sem_wait(&started) != 0)
    ;
  exit(0);
}
