// sample_bytes: bad values get one error naming the option and the problem.
// With allocator=PATH sampled mode runs on that library (docs/run.md), which
// must be loaded: here it is not, and the error says so.
// RUN: %clang_rt_heapprof -O0 %s -o %t
// RUN: %env_heapprof_opts=sample_bytes=-1 not %run %t 2>&1 | FileCheck %s --check-prefix=NEG
// RUN: %env_heapprof_opts=sample_bytes=1099511627777 not %run %t 2>&1 | FileCheck %s --check-prefix=BIG
// RUN: %env_heapprof_opts=sample_bytes=512k not %run %t 2>&1 | FileCheck %s --check-prefix=JUNK
// RUN: %env_heapprof_opts=sample_bytes=4096:allocator=/usr/lib/libjemalloc.so.2 not %run %t 2>&1 | FileCheck %s --check-prefix=PATH
// 2^40 is the largest; 0 is off.
// RUN: %env_heapprof_opts=sample_bytes=1099511627776:dump_at_exit=0 %run %t 2>&1 | FileCheck %s --check-prefix=OK
// RUN: %env_heapprof_opts=sample_bytes=0:dump_at_exit=0 %run %t 2>&1 | FileCheck %s --check-prefix=OK
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  char *volatile p = malloc(10);
  free(p);
  puts("ran");
  return 0;
}
// NEG: HeapProf: ERROR: option 'sample_bytes' out of range in HEAPPROF_OPTIONS (see help=1)
// NEG-NOT: ran
// BIG: HeapProf: ERROR: option 'sample_bytes' out of range in HEAPPROF_OPTIONS (see help=1)
// JUNK: HeapProf: ERROR: invalid value '512k' for option 'sample_bytes' in HEAPPROF_OPTIONS
// PATH: HeapProf: ERROR: allocator=/usr/lib/libjemalloc.so.2: cannot profile this allocator: the library is not loaded (heapprof run --allocator=PATH preloads it)
// PATH-NOT: ran
// OK-NOT: ERROR
// OK: ran
