// The dump_signal handler is installed with SA_RESTART: a read() the signal
// interrupts resumes and returns the data, as if heapprof were not there
// (without SA_RESTART it would fail with EINTR).  The signal is sent to the
// reading thread itself; the byte is written only after the checkpoint.
// RUN: rm -rf %t.dir && %clang_heapprof -O0 %s -o %t
// RUN: %env_heapprof_opts=print_raw=0:print_text=1:profile_dir=%t.dir:dump_signal=SIGUSR1 %run %t | FileCheck %s
// CHECK: read returned 1: 'x'
// RUN: ls %t.dir | FileCheck %s --check-prefix=FILES
// FILES: heapprof.{{.*}}.1.txt
#include "Inputs/profiles.h"
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int fds[2];
static pthread_t reader;

static void *writer(void *arg) {
  usleep(100000); // let the reader block in read() first
  pthread_kill(reader, SIGUSR1);
  wait_for_profiles(".1.txt", 1);
  write(fds[1], "x", 1);
  return arg;
}

int main(void) {
  pipe(fds);
  reader = pthread_self();
  pthread_t w;
  pthread_create(&w, 0, writer, 0);
  char c = 0;
  ssize_t r = read(fds[0], &c, 1);
  printf("read returned %zd: '%c'%s\n", r, c, r < 0 && errno == EINTR ? " EINTR" : "");
  pthread_join(w, 0);
  return 0;
}
