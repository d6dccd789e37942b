// A 1-set, 1-way Heap Info Block table evicts on almost every merge; the
// evicted records go to the spill log and are merged back when the profile is
// written, so the profile is identical to a default run's.
// 25 contexts (one per recursion depth, so recursion folding is off), 4
// rounds, interleaved.
// RUN: %clang_rt_heapprof -O0 -fno-builtin %s -o %t
// RUN: %env_heapprof_opts=fold_recursion=0:log_path=stderr:print_terse=1 %run %t 2>&1 | FileCheck %s --check-prefixes=CHECK,DEFAULT
// RUN: %env_heapprof_opts=fold_recursion=0:log_path=stderr:print_terse=1:hib_table_sets=1:hib_table_ways=1 %run %t 2>&1 | FileCheck %s --check-prefixes=CHECK,TINY
// RUN: %env_heapprof_opts=fold_recursion=0:log_path=stderr:print_terse=1:hib_table_sets=3:hib_table_ways=2 %run %t 2>&1 | FileCheck %s --check-prefixes=CHECK,TINY
#include <stdlib.h>
#include <string.h>

#define DEPTHS 25

// Allocates d bytes d calls deep: a distinct stack (context) per depth.
__attribute__((noinline)) char *deep(int d, int left) {
  if (left == 0)
    return malloc((size_t)d);
  char *p = deep(d, left - 1);
  __asm__ volatile("" ::: "memory"); // not a tail call
  return p;
}

int main(void) {
  for (int round = 0; round < 4; round++)
    for (int d = 1; d <= DEPTHS; d++) {
      char *p = deep(d, d);
      memset(p, 0, (size_t)d); // ceil(d / 8) words
      free(p);
    }
  return 0;
}
// Every context: 4 allocations of d bytes, each with ceil(d/8) accesses.
// CHECK-COUNT-25: {{^}}MIB:{{[0-9]+}}/4/[[SIZE:[0-9]+]].00/[[SIZE]]/[[SIZE]]/{{[1-4]}}.00/{{[1-4]}}/{{[1-4]}}/
// CHECK-NOT: {{^}}MIB:
// 4 * (1 + ... + 25) = 1300 bytes; 4 * (8*1 + 8*2 + 8*3 + 4) = 208 accesses.
// DEFAULT: Summary: 25 contexts, 100 allocations, 1300 bytes, 208 accesses, 0 HIB table evictions
// TINY: Summary: 25 contexts, 100 allocations, 1300 bytes, 208 accesses, {{[1-9][0-9]*}} HIB table evictions
