// A sampled call during which the thread lost the CPU is not a sample of
// the allocator's cycles (alloc_faults=1, the default: the page-fault
// ring's control page shows the thread was scheduled back in).  The
// allocator library (Inputs/sleepy-alloc.c) sleeps in each malloc of 777
// bytes until the thread has been switched out at least once; the program
// makes 10 of those and 100 of 16 bytes and frees all 110: 220 calls,
// every one timed (cycle_sample_every=1).  On, the 10 sleeping calls (and
// any other call preempted on a busy machine) are counted as descheduled
// and left out of cycle_samples and the cycle totals: at most 210 samples,
// at least 10 descheduled.  Off, all 220 calls are samples, the sleeps'
// cycles included.
// RUN: %clang_plain -shared -fPIC %S/Inputs/sleepy-alloc.c -o %t.alloc.so
// RUN: %clang_plain -O0 -g %s -o %t
// RUN: rm -rf %t.dir && env -u LD_PRELOAD HEAPPROF_OPTIONS=print_stats=1:cycle_sample_every=1 heapprof run -o %t.dir --allocator=%t.alloc.so -- %t > %t.on 2>&1
// RUN: awk '$1 == "cycle_samples" { s = $2 } $1 == "descheduled" { d = $2 } END { if (!(s <= 210 && d >= 10 && s + d <= 220)) { print "cycle_samples=" s " descheduled=" d > "/dev/stderr"; exit 1 } }' %t.on
// RUN: rm -rf %t.dir && env -u LD_PRELOAD HEAPPROF_OPTIONS=print_stats=1:cycle_sample_every=1:alloc_faults=0 heapprof run -o %t.dir --allocator=%t.alloc.so -- %t > %t.off 2>&1
// RUN: FileCheck %s < %t.off
// CHECK: cycle_samples 220 allocator calls
// CHECK-NOT: descheduled
#include <stdlib.h>

static void *volatile keep[110];

int main(void) {
  for (int i = 0; i < 110; i++)
    keep[i] = malloc(i % 11 == 0 ? 777 : 16);
  for (int i = 0; i < 110; i++)
    free(keep[i]);
  return 0;
}
