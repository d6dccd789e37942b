// The size bins are counted per thread and added up when a dump is written:
// a checkpoint taken while the threads are alive (their counts still in
// their caches) and the exit dump after they are gone and main freed what
// they kept.  Together they count every object once.
// RUN: %clang_heapprof -O0 %s -o %t
// RUN: rm -rf %t.dir && mkdir -p %t.dir/out
// RUN: %env_heapprof_opts=print_raw=1:print_text=0:profile_dir=%t.dir %run %t
// RUN: mv %t.dir/heapprof.*.1.profraw %t.dir/out/1.profraw
// RUN: mv %t.dir/heapprof.*.profraw %t.dir/out/exit.profraw
// RUN: heapprof show %t.dir/out/1.profraw | FileCheck %s --check-prefix=DUMP1
// RUN: heapprof show %t.dir/out/exit.profraw | FileCheck %s --check-prefix=EXIT
// RUN: heapprof show %t.dir/out/1.profraw %t.dir/out/exit.profraw > %t.both
// RUN: %python %S/Inputs/sum_show.py %t.both | FileCheck %s --check-prefix=SUM
#include <heapprof/heapprof_interface.h>
#include <pthread.h>
#include <stdlib.h>

#define NTHREADS 4
static pthread_barrier_t dumped, done;
static void *volatile kept[NTHREADS];

__attribute__((noinline)) void *obj(size_t n) { return malloc(n); }

static void *worker(void *arg) {
  long id = (long)arg;
  for (int i = 0; i < 100; i++) {
    void *volatile p = obj(88);
    free(p);
  }
  kept[id] = obj(1100 + 100 * id); // 1100, 1200, 1300, 1400
  pthread_barrier_wait(&dumped);   // main dumps while we are alive
  pthread_barrier_wait(&done);
  return NULL;
}

int main(void) {
  pthread_t t[NTHREADS];
  pthread_barrier_init(&dumped, NULL, NTHREADS + 1);
  pthread_barrier_init(&done, NULL, NTHREADS + 1);
  for (long i = 0; i < NTHREADS; i++)
    pthread_create(&t[i], NULL, worker, (void *)i);
  pthread_barrier_wait(&dumped);
  if (__heapprof_dump() != 0)
    return 1;
  pthread_barrier_wait(&done);
  for (int i = 0; i < NTHREADS; i++)
    pthread_join(t[i], NULL);
  for (int i = 0; i < NTHREADS; i++)
    free(kept[i]);
  return 0;
}
// 4 threads x 100 objects of 88 bytes, freed before the checkpoint; the
// four kept objects (1100+1200+1300+1400 = 5000 bytes) live at it.
// DUMP1: bin 88: allocs=400 bytes=35200 frees=400 freed_bytes=35200{{$}}
// DUMP1: bin >1024: allocs=4 bytes=5000 frees=0 freed_bytes=0{{$}}
// EXIT-NOT: bin 88:
// EXIT: bin >1024: allocs=0 bytes=0 frees=4 freed_bytes=5000{{$}}
// SUM: bin 88: allocs=400 bytes=35200 frees=400 freed_bytes=35200{{$}}
// SUM: bin >1024: allocs=4 bytes=5000 frees=4 freed_bytes=5000{{$}}
