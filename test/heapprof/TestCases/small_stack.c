// A thread on the smallest stack pthread_create takes (PTHREAD_STACK_MIN,
// 16 KiB): heapprof kept 17 KiB of caches in static TLS, which glibc takes
// out of every thread's stack, so pthread_create failed with EINVAL; and a
// profile or an error report, tens of KiB of stack, overflowed such a
// thread (SIGSEGV inside heapprof, no profile).  The caches are in the
// thread's state now, and dumps and reports run on stacks of the
// runtime's own.  Each case in a PTHREAD_STACK_MIN thread, instrumented
// and under heapprof run:
//   dump    10 objects of 40 bytes, then a checkpoint from the thread: it
//           returns 0 and holds the 10 objects (400 B) at their site;
//   exit    7 objects of 72 bytes, then exit(0) from the thread: the exit
//           profile holds them (504 B), reachable through objs, no leak;
//   double  a double free: the report with both stacks, then the abort,
//           with the profile written.
// RUN: %clang_heapprof -O1 -g %s -o %t -lpthread
// RUN: %clang_plain -O1 -g %s -o %t-plain -lpthread -I%heapprof_include_dir
// RUN: rm -rf %t.d && %env_heapprof_opts=profile_dir=%t.d %run %t dump | FileCheck %s --check-prefix=DUMP
// RUN: heapprof report %t.d/*.1.profraw --depth 2 | FileCheck %s --check-prefix=DUMPPROF
// RUN: rm -rf %t.d && %env_heapprof_opts=profile_dir=%t.d %run %t exit | FileCheck %s --check-prefix=EXIT
// RUN: heapprof report %t.d --depth 2 | FileCheck %s --check-prefix=EXITPROF
// RUN: rm -rf %t.d && %env_heapprof_opts=profile_dir=%t.d not --crash %run %t double 2>&1 | FileCheck %s --check-prefix=DOUBLE
// RUN: ls %t.d | FileCheck %s --check-prefix=FILE
// RUN: rm -rf %t.r && env -u LD_PRELOAD heapprof run -o %t.r -- %t-plain dump | FileCheck %s --check-prefix=DUMP
// RUN: heapprof report %t.r/*.1.profraw --depth 2 | FileCheck %s --check-prefix=DUMPPROF
// RUN: rm -rf %t.r && env -u LD_PRELOAD heapprof run -o %t.r -- %t-plain exit | FileCheck %s --check-prefix=EXIT
// RUN: heapprof report %t.r --depth 2 | FileCheck %s --check-prefix=EXITPROF
// RUN: rm -rf %t.r && env -u LD_PRELOAD not --crash heapprof run -o %t.r -- %t-plain double 2>&1 | FileCheck %s --check-prefix=DOUBLE
// RUN: ls %t.r | FileCheck %s --check-prefix=FILE
// DUMP: dump returned 0
// DUMP-NEXT: joined
// DUMPPROF: 400 B in 10 objects (40 B each), 10 live (400 B)
// DUMPPROF-NEXT: small_alloc {{.*}}small_stack.c:
// DUMPPROF-NEXT: dumper {{.*}}small_stack.c:
// EXIT: exiting from the thread
// EXIT-NOT: joined
// EXITPROF: 504 B in 7 objects (72 B each), 7 live (504 B)
// EXITPROF-NEXT: small_alloc {{.*}}small_stack.c:
// EXITPROF-NEXT: exiter {{.*}}small_stack.c:
// EXITPROF: == Memory leaks: unreachable at exit
// EXITPROF-NEXT: (no object was unreachable at exit)
// DOUBLE: HeapProf: ERROR: double-free on address
// DOUBLE-NEXT: #0 {{.*}} in double_freer {{.*}}small_stack.c:
// DOUBLE-NEXT: The chunk (40 bytes) was allocated at:
// DOUBLE-NEXT: #0 {{.*}} in small_alloc {{.*}}small_stack.c:
// DOUBLE-NEXT: #1 {{.*}} in double_freer {{.*}}small_stack.c:
// DOUBLE: HeapProf: ABORTING
// DOUBLE-NOT: SIGSEGV
// FILE: .profraw
#include <heapprof/heapprof_interface.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Weak: the plain build gets it from heapprof run's preloaded runtime. */
#pragma weak __heapprof_dump

static void *objs[16];

/* Not a tail call, so that its frame is in the stacks. */
static __attribute__((noinline)) void *small_alloc(size_t n) {
  void *p = malloc(n);
  __asm__ volatile("" : : "r"(p) : "memory");
  return p;
}

static void *dumper(void *arg) {
  for (int i = 0; i < 10; i++)
    objs[i] = small_alloc(40);
  int r = __heapprof_dump ? __heapprof_dump() : -2;
  printf("dump returned %d\n", r);
  fflush(stdout);
  return arg;
}

static void *exiter(void *arg) {
  for (int i = 0; i < 7; i++)
    objs[i] = small_alloc(72);
  printf("exiting from the thread\n");
  fflush(stdout);
  exit(0);
}

static void *double_freer(void *arg) {
  char *volatile p = small_alloc(40);
  free(p);
  free(p);
  return arg;
}

int main(int argc, char **argv) {
  void *(*fn)(void *) = !strcmp(argv[1], "dump")   ? dumper
                        : !strcmp(argv[1], "exit") ? exiter
                                                   : double_freer;
  pthread_attr_t at;
  pthread_attr_init(&at);
  pthread_attr_setstacksize(&at, PTHREAD_STACK_MIN);
  pthread_t t;
  int e = pthread_create(&t, &at, fn, NULL);
  if (e) {
    printf("pthread_create: %s\n", strerror(e));
    return 1;
  }
  pthread_join(t, NULL);
  printf("joined\n");
  return 0;
}
