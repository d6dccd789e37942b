// pmu_events: a thread's counters are closed when its state is torn down
// (heapprof's pthread key destructor).  A key destructor of the program's
// that runs after that and allocates must not open a new group, which no
// exit would close any more: 100 such threads left 500 descriptors open
// (5 counters each here), and a long-running server that starts threads
// runs out of descriptors.  The threads come and go one at a time, so the
// process has as many descriptors open after them as before: 0 more.
// RUN: %clang_heapprof -O0 %s -o %t
// RUN: %env_heapprof_opts=log_path=%t.p:pmu_events=1:pmu_sample_every=1 %run %t | FileCheck %s
// RUN: %clang_plain -O0 %s -o %t.plain -lpthread
// RUN: rm -rf %t.r && env HEAPPROF_OPTIONS=pmu_events=1:pmu_sample_every=1 heapprof run -o %t.r -- %t.plain | FileCheck %s
// CHECK: descriptors left open by 100 threads: 0
#include <dirent.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static pthread_key_t key;

static void late(void *v) {
  (void)v;
  char *volatile p = malloc(40);
  free(p);
}

static void *worker(void *arg) {
  pthread_setspecific(key, (void *)1);
  char *volatile p = malloc(24);
  free(p);
  return arg;
}

static int open_fds(void) {
  DIR *d = opendir("/proc/self/fd");
  int n = 0;
  while (readdir(d))
    n++;
  closedir(d);
  return n;
}

int main(void) {
  pthread_key_create(&key, late);
  char *volatile p = malloc(32); /* opens main's counters */
  free(p);
  int before = open_fds();
  for (int i = 0; i < 100; i++) {
    pthread_t t;
    pthread_create(&t, NULL, worker, NULL);
    pthread_join(t, NULL);
  }
  printf("descriptors left open by 100 threads: %d\n", open_fds() - before);
  return 0;
}
