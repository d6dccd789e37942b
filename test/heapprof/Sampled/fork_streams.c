// Sampled mode: each fork child draws its own samples.  The children
// inherited the forking thread's PRNG, so every child of a process sampled
// the same allocations and reported the same estimate (a merge of a
// prefork server's workers added one estimate up many times).  Now each
// child is reseeded from the parent's fork count (and the clock and pid
// without sample_seed): four children, four estimates of their 100,000
// allocations; with sample_seed, the same four again in a second run.
// Without a seed, independent streams can still agree by chance: an
// estimate is 655 times the ~152 samples (p = 1 - e^(-100/65536)) plus the
// weights rounded up (1/p = 655.86), so two of four children print one
// count in about 1 run in 110, and all four in under 1 in 10^8; the
// inherited stream made all four agree always.  So that run asserts only
// that they are not all one.
// RUN: rm -rf %t.a %t.b %t.c && %clang_heapprof -O1 -g %s -o %t
// RUN: %env_heapprof_opts=sample_bytes=65536:sample_seed=5:print_text=1:profile_dir=%t.a %run %t
// RUN: %env_heapprof_opts=sample_bytes=65536:sample_seed=5:print_text=1:profile_dir=%t.b %run %t
// RUN: %env_heapprof_opts=sample_bytes=65536:print_text=1:profile_dir=%t.c %run %t
// RUN: sh -c 'cat %t.a/*.txt | grep "size (ave/min/max) 100.00" | sort' > %t.a.counts
// RUN: sh -c 'cat %t.b/*.txt | grep "size (ave/min/max) 100.00" | sort' > %t.b.counts
// RUN: sh -c 'cat %t.c/*.txt | grep "size (ave/min/max) 100.00" | sort' > %t.c.counts
// RUN: diff %t.a.counts %t.b.counts
// RUN: sort -u %t.a.counts | count 4
// RUN: sort -u %t.c.counts | wc -l | FileCheck %s --check-prefix=UNSEEDED
// UNSEEDED: {{^ *[234]$}}
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

__attribute__((noinline)) static char *alloc100(void) { return malloc(100); }

int main(void) {
  for (int r = 0; r < 4; r++) {
    if (fork() == 0) {
      for (int i = 0; i < 100000; i++) {
        char *volatile p = alloc100();
        p[0] = 1;
        free(p);
      }
      exit(0);
    }
    wait(0);
  }
  return 0;
}
