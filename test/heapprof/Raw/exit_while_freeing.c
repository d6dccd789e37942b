// The exit profile is written while other threads go on.  Here one thread
// frees 200,000 objects main allocated, and main calls exit() once the
// thread has begun: every object is in the exit profile, freed or live at
// the end, whichever it was when the dump's walk came to it.  Before, the
// dump wrote back the threads' records, then walked the live chunks, and
// an object freed between the two was in neither: without a checkpoint
// the profile had 67,000 to 97,000 of the 200,000 (1,400 to 21,000 on
// glibc's allocator); after one, which counted all 200,000, their frees
// were missing, frees + live 58,000 to 152,000.  Checked on heapprof's
// allocator and on glibc's (allocator=system: the side table's entry
// instead of the chunk's flag marks what the last fold went over).
// RUN: %clang_heapprof -O1 %s -o %t
// RUN: rm -rf %t.d && %env_heapprof_opts=profile_dir=%t.d %run %t
// RUN: heapprof show %t.d/*.profraw > %t.show
// RUN: %python %S/Inputs/sum_show.py %t.show | FileCheck %s
// RUN: rm -rf %t.d && %env_heapprof_opts=profile_dir=%t.d %run %t checkpoint
// RUN: heapprof show %t.d/*.profraw > %t.show
// RUN: %python %S/Inputs/sum_show.py %t.show | FileCheck %s
// RUN: rm -rf %t.d && %env_heapprof_opts=profile_dir=%t.d:allocator=system %run %t
// RUN: heapprof show %t.d/*.profraw > %t.show
// RUN: %python %S/Inputs/sum_show.py %t.show | FileCheck %s
// RUN: rm -rf %t.d && %env_heapprof_opts=profile_dir=%t.d:allocator=system %run %t checkpoint
// RUN: heapprof show %t.d/*.profraw > %t.show
// RUN: %python %S/Inputs/sum_show.py %t.show | FileCheck %s
#include <heapprof/heapprof_interface.h>
#include <pthread.h>
#include <stdlib.h>

#define N 200000
static void *objs[N];
static int go, started;

__attribute__((noinline)) void *obj(size_t n) { return malloc(n); }

static void *freer(void *arg) {
  while (!__atomic_load_n(&go, __ATOMIC_ACQUIRE))
    ;
  for (int i = 0; i < N; i++) {
    free(objs[i]);
    if (i == 1000)
      __atomic_store_n(&started, 1, __ATOMIC_RELEASE);
  }
  return arg;
}

int main(int argc, char **argv) {
  (void)argv;
  for (int i = 0; i < N; i++)
    objs[i] = obj(40);
  if (argc > 1 && __heapprof_dump() != 0)
    return 1;
  pthread_t t;
  pthread_create(&t, NULL, freer, NULL);
  __atomic_store_n(&go, 1, __ATOMIC_RELEASE);
  while (!__atomic_load_n(&started, __ATOMIC_ACQUIRE))
    ;
  exit(0);
}
// 200,000 objects of 40 bytes, each freed or live at the end, once.
// CHECK: context AllocCount=200000 TotalSize=8000000 {{.*}}live_at_dump=[[#LIVE:]]{{ }}
// CHECK: bin 40: allocs=200000 bytes=8000000 frees=[[#200000-LIVE]] freed_bytes=[[#sub(8000000,mul(LIVE,40))]]{{$}}
