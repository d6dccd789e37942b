// A thread cancelled while it writes a checkpoint (a worker dumping in a
// loop, cancelled at shutdown) used to be cancelled inside the dump, at its
// open or write, leaving the dump lock held: the next dump, the exit
// profile's, waited for ever.  The dump now runs with cancellation off, and
// __heapprof_dump() is a cancellation point once its checkpoint is written.
//
// 20 rounds: a worker allocates 100 bytes and dumps, in a loop, until main
// cancels it.  The loop's only cancellation point is __heapprof_dump(), so
// each round ends just after a checkpoint that was written, with the
// round's last object live: the directory holds the checkpoints the
// workers counted, one more per round, and the exit profile; no temporary
// file; 20 objects of the worker's live at the end.
// RUN: %clang_heapprof -O0 %s -o %t
// RUN: rm -rf %t.d && %env_heapprof_opts=profile_dir=%t.d timeout 120 %run %t > %t.out
// RUN: ls %t.d | wc -l >> %t.out
// RUN: ls -a %t.d | not grep -E "profraw[.]tmp[.]"
// RUN: heapprof report %t.d --leaks live --depth 1 >> %t.out
// RUN: FileCheck %s < %t.out
// CHECK: joined after 20 rounds; checkpoints counted: [[#N:]]
// CHECK-NEXT: [[#N+20+1]]
// CHECK: == Memory leaks: live at the end
// CHECK: 2000 B {{.*}} 20  dumper ({{.*}}dump_cancel.c:
#include <heapprof/heapprof_interface.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static long counted; /* checkpoints the workers saw return 0 */

static void *dumper(void *arg) {
  for (;;) {
    char *volatile p = malloc(100);
    p[0] = 1;
    if (__heapprof_dump() == 0)
      __atomic_add_fetch(&counted, 1, __ATOMIC_RELAXED);
    free(p);
  }
  return arg;
}

int main(void) {
  int rounds = 0;
  for (; rounds < 20; rounds++) {
    pthread_t t;
    pthread_create(&t, NULL, dumper, NULL);
    usleep(20000);
    pthread_cancel(t);
    pthread_join(t, NULL);
  }
  char line[96];
  int n = snprintf(line, sizeof(line),
                   "joined after %d rounds; checkpoints counted: %ld\n",
                   rounds, counted);
  write(1, line, (size_t)n);
  return 0;
}
