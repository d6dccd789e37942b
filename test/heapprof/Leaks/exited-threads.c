// Threads that exited leave glibc's dtv of each (callocked by the dynamic
// linker, pointed to only from the thread's control block) in glibc's
// cache of stacks, where no root reaches it; LeakSanitizer counts what the
// dynamic linker allocated as reachable, and so does heapprof.  Three
// threads are created and joined, each allocating and freeing; nothing
// the program allocated is left, so no object is a leak.  (Before the
// rule: three direct leaks, the dtvs.)
// RUN: %clang_heapprof -O0 -g -pthread %s -o %t
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: %env_heapprof_opts=profile_dir=%t.d %run %t
// RUN: heapprof show %t.d/*.profraw | FileCheck %s
// CHECK: leaks: head_words=10 objects={{[1-9][0-9]*}} root_bytes={{[0-9]+}} direct_objects=0 direct_bytes=0 indirect_objects=0 indirect_bytes=0 threads_running=0 row_words=5 nrows=0{{$}}
#include <pthread.h>
#include <stdlib.h>

static void *worker(void *arg) {
  free(malloc(100));
  return arg;
}

int main(void) {
  pthread_t t[3];
  for (int i = 0; i < 3; i++)
    pthread_create(&t[i], NULL, worker, NULL);
  for (int i = 0; i < 3; i++)
    pthread_join(t[i], NULL);
  return 0;
}
