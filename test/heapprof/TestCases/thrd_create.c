// C11 threads: thrd_create starts the thread through heapprof's wrapper,
// as pthread_create does.  glibc's thrd_create calls its pthread_create
// inside libc; the thread's state was then made at its first allocation,
// whose pthread_getattr_np call (the thread's stack) allocated 3 blocks
// the profile showed as the program's.  Results of thrd_join, from a
// return and from thrd_exit, are kept.
// RUN: rm -rf %t.dir && %clang_heapprof -O0 -g %s -o %t
// RUN: %env_heapprof_opts=print_raw=0:print_text=1:profile_dir=%t.dir %run %t | FileCheck %s --check-prefix=OUT
// OUT: joined 42 7
// Each thread allocates and frees one 16-byte block: 2 allocations of 16
// bytes in two contexts (worker's and exiter's), nothing else in a thread.
// RUN: grep -c "alloc_count 1, size (ave/min/max) 16.00" %t.dir/*.txt | FileCheck %s --check-prefix=TWO
// TWO: 2
// RUN: not grep pthread_getattr_np %t.dir/heapprof.*.txt
// RUN: %env_heapprof_opts=print_raw=0:print_text=1:profile_dir=%t.run heapprof run -o %t.run -- %t | FileCheck %s --check-prefix=OUT
#include <stdio.h>
#include <stdlib.h>
#include <threads.h>

static int worker(void *arg) {
  char *volatile p = malloc(16);
  p[0] = 1;
  free(p);
  return *(int *)arg;
}

static int exiter(void *arg) {
  char *volatile p = malloc(16);
  p[0] = 2;
  free(p);
  thrd_exit(7);
}

int main(void) {
  static int value = 42;
  thrd_t t1, t2;
  if (thrd_create(&t1, worker, &value) != thrd_success ||
      thrd_create(&t2, exiter, NULL) != thrd_success)
    return 1;
  int r1 = 0, r2 = 0;
  thrd_join(t1, &r1);
  thrd_join(t2, &r2);
  printf("joined %d %d\n", r1, r2);
  return 0;
}
