// main may end with pthread_exit and leave the process to its other
// threads.  Then /proc/self (the main thread's directory) goes quiet: its
// maps read empty, exe leads nowhere, statm reads zeros.  The exit profile
// named the program "unknown" (heapprof report: "unknown: cannot open")
// and the leak check had no mappings to find roots in.  The runtime now
// reads /proc/thread-self and the executable's path at start.
//
// main keeps 3 objects of 48 bytes (reachable from a global), then ends
// with pthread_exit; the worker joins it (so the main thread is gone),
// allocates 5 objects of 200 bytes whose pointers it drops, and returns:
// the last thread's end is exit(0), and the exit profile is written.
// RUN: %clang_heapprof -O1 -g %s -o %t -lpthread
// RUN: %clang_plain -O1 -g %s -o %t-plain -lpthread
// RUN: rm -rf %t.d && %env_heapprof_opts=profile_dir=%t.d %run %t | FileCheck %s --check-prefix=OUT
// RUN: heapprof report %t.d --depth 1 | FileCheck %s -DPROG=%t
// RUN: rm -rf %t.r && env -u LD_PRELOAD heapprof run -o %t.r -- %t-plain | FileCheck %s --check-prefix=OUT
// RUN: heapprof report %t.r --depth 1 | FileCheck %s -DPROG=%t-plain
// OUT: main has ended
// CHECK: program [[PROG]] (build id
// CHECK: == Memory leaks: unreachable at exit
// CHECK-NEXT: bytes
// CHECK-NEXT: 1000 B {{.*}} 5 {{.*}} worker
// CHECK-NEXT: (still reachable at exit
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

static pthread_t main_thread;
static void *kept[3];

static void *worker(void *arg) {
  pthread_join(main_thread, NULL);
  write(1, "main has ended\n", 15);
  for (int i = 0; i < 5; i++) {
    char *volatile p = malloc(200);
    p[0] = 1;
  }
  return arg;
}

int main(void) {
  main_thread = pthread_self();
  for (int i = 0; i < 3; i++)
    kept[i] = malloc(48);
  pthread_t t;
  pthread_create(&t, NULL, worker, NULL);
  pthread_exit(NULL);
}
