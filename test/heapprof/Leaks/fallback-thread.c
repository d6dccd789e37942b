// A thread whose state cannot be mapped shares the fallback state and is
// in no thread list; when it is the thread that exits, its stack and TLS
// are roots all the same.  Here the thread's state cannot be mapped
// because the address space is full (RLIMIT_AS lowered to what the process
// maps, the thread's stack mapped before); it then allocates a 1000-byte
// object only its stack holds, leaks 10 objects of 300 bytes, restores the
// limit and calls exit.  The held object was reported leaked: 11 objects,
// 4000 bytes.  Now 10 objects, 3000 bytes leak.
// RUN: %clang_heapprof -O1 -g %s -o %t -lpthread
// RUN: rm -rf %t.d && %env_heapprof_opts=profile_dir=%t.d %run %t 2>&1 | FileCheck %s --check-prefix=WARN
// RUN: heapprof show %t.d | FileCheck %s
// RUN: %clang_plain -O1 -g %s -o %t.plain -lpthread
// RUN: rm -rf %t.r && heapprof run -o %t.r -- %t.plain 2>&1 | FileCheck %s --check-prefix=WARN
// RUN: heapprof show %t.r | FileCheck %s
// WARN: HeapProf: WARNING: cannot map a thread's state
// CHECK: leaks: {{.*}} direct_objects=10 direct_bytes=3000 indirect_objects=0 indirect_bytes=0
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

static struct rlimit saved;

__attribute__((noinline)) static void leak(void) {
  char *volatile p = malloc(300);
  memset((char *)p, 1, 300);
}

static void *run(void *arg) {
  (void)arg;
  char *volatile held = malloc(1000);
  memset((char *)held, 7, 1000);
  for (int i = 0; i < 10; i++)
    leak();
  setrlimit(RLIMIT_AS, &saved);
  exit(held[999] == 7 ? 0 : 1);
}

static long mapped_bytes(void) {
  FILE *f = fopen("/proc/self/statm", "r");
  long pages = 0;
  if (!f || fscanf(f, "%ld", &pages) != 1)
    abort();
  fclose(f);
  return pages * sysconf(_SC_PAGESIZE);
}

int main(void) {
  size_t size = 1 << 20;
  void *stack = mmap(NULL, size, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  pthread_attr_t a;
  pthread_attr_init(&a);
  pthread_attr_setstack(&a, stack, size);
  getrlimit(RLIMIT_AS, &saved);
  struct rlimit low = saved;
  low.rlim_cur = mapped_bytes() + (64 << 10);
  setrlimit(RLIMIT_AS, &low);
  pthread_t t;
  if (pthread_create(&t, &a, run, NULL))
    return 2;
  pthread_join(t, NULL);
  return 3;
}
