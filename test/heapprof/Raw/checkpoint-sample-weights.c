// Sampled mode weighs each object once.  An object's weight 1/p(size) is
// rounded to an integer, down or up at random (so that its expectation is
// exact); that draw is now made once, when the object is sampled, and every
// piece of its life is weighed alike.  It used to be drawn again at every
// dump and free: a live object could count 1 allocation and 2 live objects,
// and the estimates of one dump disagreed with the next.  Here 200 objects
// of 1000 bytes, sample_bytes=1000 (p = 1 - e^-1, weight 1.58: 1 or 2),
// live over two checkpoints and freed before exit: the first checkpoint's
// estimate of allocations is its estimate of live objects, the second
// continues exactly those (continuations = live = the same number), and
// the exit dump ends them (continuations the same, none live).  On
// heapprof's sampled objects and on glibc's allocator (allocator=system,
// where the object's entry in the side table holds the draw).
// RUN: %clang_heapprof -O1 %s -o %t
// RUN: rm -rf %t.d && %env_heapprof_opts=profile_dir=%t.d:sample_bytes=1000:sample_seed=11 %run %t
// RUN: sh -c 'heapprof show %t.d/*.1.profraw %t.d/*.2.profraw $(ls %t.d/*.profraw | grep -v "[.][12][.]profraw")' > %t.show
// RUN: %python %S/Inputs/context_by_dump.py 1000 %t.show 200 | FileCheck %s
// RUN: rm -rf %t.d && %env_heapprof_opts=profile_dir=%t.d:sample_bytes=1000:sample_seed=11:allocator=system %run %t
// RUN: sh -c 'heapprof show %t.d/*.1.profraw %t.d/*.2.profraw $(ls %t.d/*.profraw | grep -v "[.][12][.]profraw")' > %t.show
// RUN: %python %S/Inputs/context_by_dump.py 1000 %t.show 200 | FileCheck %s
#include <heapprof/heapprof_interface.h>
#include <stdlib.h>

#define N 200
static char *volatile keep[N];
__attribute__((noinline)) char *make(void) { return malloc(1000); }

int main(void) {
  for (int i = 0; i < N; i++)
    keep[i] = make();
  if (__heapprof_dump() != 0 || __heapprof_dump() != 0)
    return 1;
  for (int i = 0; i < N; i++)
    free(keep[i]);
  return 0;
}
// Each of 200 objects is sampled with probability 0.63 and weighs 1 or 2:
// the estimate is 200 within a few dozen, and not 0.
// CHECK: checkpoint 1: allocs [[#A:]]
// CHECK-SAME: {{ }}continuations 0 live [[#A]]{{$}}
// CHECK-NEXT: checkpoint 2: allocs 0 continuations [[#A]] live [[#A]]{{$}}
// CHECK-NEXT: checkpoint 0: allocs 0 continuations [[#A]] live 0{{$}}
// CHECK-NEXT: estimate of 200 allocations: {{1[2-9][0-9]|2[0-7][0-9]}}
