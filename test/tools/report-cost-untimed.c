// The allocator's cost per operation averages the calls whose class has a
// mean: a class none of whose calls was timed has no mean, and its calls
// are left out rather than counted as 0 cycles.  With cycle_sample_every=1
// every call is timed but a thread's first, which makes its state: here
// the 1 MiB malloc, alone in "malloc large new".  Then 9 malloc(64)/free
// pairs and the free of the 1 MiB block: 20 calls, 19 of them timed.  The
// cost per operation is the classes' mean x calls summed, over 19 (it was
// over 20, as if the large malloc had cost nothing).  A profile whose
// calls were none timed has no cost per operation (it read 0 cycles).
// RUN: rm -rf %t.d %t.one && mkdir -p %t.d %t.one
// RUN: %clang_heapprof -O0 -g %s -o %t
// RUN: %env_heapprof_opts=profile_dir=%t.d:cycle_sample_every=1 %run %t
// RUN: heapprof report %t.d | FileCheck %s
// RUN: heapprof report --format json %t.d > %t.json
// RUN: %python %S/Inputs/check-cost-untimed.py %t.json | FileCheck %s --check-prefix=JSON
// RUN: %env_heapprof_opts=profile_dir=%t.one %run %t one
// RUN: heapprof report %t.one | FileCheck %s --check-prefix=ONE
// RUN: heapprof report --format json %t.one | %python -c 'import json,sys; print(json.load(sys.stdin)["cost_per_op"])' | FileCheck %s --check-prefix=ONE-JSON
#include <stdlib.h>

int main(int argc, char **argv) {
  char *volatile p = malloc(1 << 20);
  if (argc > 1)
    return 0; // one call, a thread's first: not timed
  for (int i = 0; i < 9; i++) {
    char *volatile q = malloc(64);
    free(q);
  }
  free(p);
  return 0;
}

// CHECK: == Allocator cost by operation class
// CHECK: {{^ *}}1 {{.*}} 0 {{ *}}- {{ *}}- {{ *}}- malloc large new serial
// CHECK: cost per operation: [[#]] cycles in the allocator's calls (20 calls; left out: 1 call of classes with no timed call)

// JSON: calls 20 timed 19 per_op_ok True sum_ok True

// ONE: cost per operation: unknown (1 call, not timed)
// ONE-JSON: 'per_op': None
