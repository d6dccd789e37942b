// --allocator=system (and jemalloc) with threads and fork: 4 producer
// threads each allocate 250 objects of 64 + 16*t bytes (t = 0..3) that the
// main thread frees (cross-thread frees); then a forked child allocates 5
// objects of 222 bytes and exits, writing its own profile, which also holds
// the 3 objects of 111 bytes it inherited live from its parent -- live, not
// allocated: the parent counts them, once.
// RUN: %clang_plain -O0 -g -pthread %s -o %t
// RUN: rm -rf %t.dir && env -u LD_PRELOAD heapprof run -o %t.dir --allocator=system -- %t | FileCheck %s --check-prefix=OUT
// RUN: ls %t.dir | count 2
// RUN: heapprof report %t.dir | FileCheck %s
// The same with jemalloc, whose frees of another thread's objects take
// its remote-free path.
// RUN: %if jemalloc %{ rm -rf %t.je && env -u LD_PRELOAD heapprof run -o %t.je --allocator=%libjemalloc -- %t | FileCheck %s --check-prefix=OUT %}
// RUN: %if jemalloc %{ heapprof report %t.je | FileCheck %s %}
// OUT: freed 1000
// CHECK: == Allocation bins
// 250 objects each, all freed: 16000, 20000, 24000 and 28000 bytes.
// CHECK-DAG: {{^ *64 +250 +15.6 KiB +250 +0 B }}
// CHECK-DAG: {{^ *80 +250 +19.5 KiB +250 +0 B }}
// CHECK-DAG: {{^ *96 +250 +23.4 KiB +250 +0 B }}
// CHECK-DAG: {{^ *112 +250 +27.3 KiB +250 +0 B }}
// CHECK-DAG: {{^ *111 +3 +333 B +0 }}
// CHECK-DAG: {{^ *222 +5 +1110 B +0 }}
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#define N 250
static void *volatile objs[4][N];
static void *volatile keep[8];

static void *producer(void *arg) {
  long t = (long)arg;
  for (int i = 0; i < N; i++)
    objs[t][i] = malloc(64 + 16 * t);
  return NULL;
}

int main(void) {
  pthread_t th[4];
  for (long t = 0; t < 4; t++)
    pthread_create(&th[t], NULL, producer, (void *)t);
  for (int t = 0; t < 4; t++)
    pthread_join(th[t], NULL);
  int freed = 0;
  for (int t = 0; t < 4; t++)
    for (int i = 0; i < N; i++, freed++)
      free(objs[t][i]);
  printf("freed %d\n", freed);
  for (int i = 0; i < 3; i++)
    keep[i] = malloc(111);
  fflush(stdout);
  pid_t c = fork();
  if (c == 0) {
    for (int i = 3; i < 8; i++)
      keep[i] = malloc(222);
    exit(0);
  }
  waitpid(c, NULL, 0);
  return 0;
}
