// A program that has as many mappings as vm.max_map_count allows when it
// exits: heapprof cannot map all the profile needs.  It says so and
// leaves out what it cannot make (the leak check; the profile, when even
// its records cannot be gathered: which one depends on how many mappings
// are left at exit), and the program's output and exit status stay its
// own (it used to abort with "cannot map ... for profile": exit status
// 134, the program's buffered output lost).  The program maps 4 KiB pages
// until the kernel refuses, starts a thread on a stack of its own (glibc
// maps nothing for it; heapprof's state for the thread cannot be mapped:
// the thread shares the fallback state, where heapprof used to abort with
// "cannot map ... for thread state"), gives two pages back, and ends
// normally.
// RUN: %clang_plain -O1 %s -o %t.plain -lpthread
// RUN: %clang_heapprof -O1 %s -o %t -lpthread
// RUN: %t.plain | FileCheck %s --check-prefix=OUT
// RUN: rm -rf %t.d && %env_heapprof_opts=profile_dir=%t.d %run %t > %t.out 2> %t.err
// RUN: FileCheck %s --check-prefix=OUT < %t.out
// RUN: FileCheck %s --check-prefix=ERR --implicit-check-not=ERROR --implicit-check-not=caught < %t.err
// RUN: rm -rf %t.r && heapprof run -o %t.r -- %t.plain > %t.rout 2> %t.rerr
// RUN: FileCheck %s --check-prefix=OUT < %t.rout
// RUN: FileCheck %s --check-prefix=ERR --implicit-check-not=ERROR --implicit-check-not=caught < %t.rerr
// OUT: at the limit: yes
// OUT-NEXT: thread: ok
// OUT-NEXT: malloc: ok
// ERR: HeapProf: WARNING: {{.*}}out of memory
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>

static char thread_stack[1 << 20] __attribute__((aligned(4096)));

static void *thread_fn(void *arg) {
  char *volatile p = malloc(64); /* the thread allocates */
  free(p);
  return arg;
}

int main(void) {
  long max = 65530;
  FILE *f = fopen("/proc/sys/vm/max_map_count", "r");
  if (f) {
    if (fscanf(f, "%ld", &max) != 1)
      max = 65530;
    fclose(f);
  }
  void **maps = malloc((size_t)(max + 16) * sizeof(void *));
  long n = 0;
  int err = 0;
  /* Alternate protections: neighbours never merge into one mapping. */
  while (n < max + 16) {
    void *p = mmap(NULL, 4096, (n & 1) ? PROT_READ : PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) {
      err = errno;
      break;
    }
    maps[n++] = p;
  }
  printf("at the limit: %s\n", err == ENOMEM ? "yes" : "no");
  pthread_attr_t attr;
  pthread_t t;
  void *ret = NULL;
  pthread_attr_init(&attr);
  pthread_attr_setstack(&attr, thread_stack, sizeof(thread_stack));
  int rc = pthread_create(&t, &attr, thread_fn, (void *)1);
  if (rc == 0)
    pthread_join(t, &ret);
  printf("thread: %s\n", rc == 0 && ret == (void *)1 ? "ok" : "failed");
  for (int i = 0; i < 2 && n > 0; i++)
    munmap(maps[--n], 4096);
  char *volatile q = malloc(100);
  printf("malloc: %s\n", q ? "ok" : "failed");
  return 0;
}
