// junk_fill=1 (phkmalloc's J): a new chunk holds 0xd0 in every byte -- not
// the zeros of a fresh page, and not what its block held in a previous
// life.  The fill is the runtime's write, not the program's: the chunk's
// profile counts only the program's accesses.
// RUN: %clang_rt_heapprof -O0 %s -o %t
// RUN: %env_heapprof_opts=junk_fill=1:log_path=stderr %run %t 2>&1 | FileCheck %s
// Without the flag the reused block still shows what the program left there.
// RUN: %env_heapprof_opts=log_path=stderr %run %t 2>&1 | FileCheck %s --check-prefix=OFF
#include "Inputs/count_bytes.h"
#include <heapprof/heapprof_interface.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__attribute__((noinline)) char *site_counted(void) { return malloc(100); }

int main(void) {
  // A fresh block (its memory was zero before).
  unsigned char *volatile p = malloc(200);
  fprintf(stderr, "fresh: %zu of 200 are 0xd0\n", count_bytes(p, 200, 0xd0));
  // CHECK: fresh: 200 of 200 are 0xd0
  // OFF: fresh: 0 of 200 are 0xd0
  memset(p, 'A', 200);
  free(p);
  // The same block again (the thread cache is last in, first out).
  unsigned char *volatile q = malloc(200);
  fprintf(stderr, "reused: %s, %zu of 200 are 0xd0, %zu are 'A'\n",
          q == p ? "same block" : "other block", count_bytes(q, 200, 0xd0),
          count_bytes(q, 200, 'A'));
  // CHECK: reused: same block, 200 of 200 are 0xd0, 0 are 'A'
  // OFF: reused: same block, 0 of 200 are 0xd0, 200 are 'A'
  free(q);
  // Exact counts: 3 accesses to a junk-filled chunk are 3, not 3 plus the
  // fill's 13 words at allocation and 13 at free.
  char *volatile c = site_counted();
  for (int i = 0; i < 3; i++)
    __heapprof_record_access(c + i);
  free(c);
  return 0;
}
// site_counted's is the only 100-byte chunk.
// CHECK-LABEL: HeapProf profile:
// CHECK: alloc_count 1, size (ave/min/max) 100.00 / 100 / 100
// CHECK-NEXT: access_count (ave/min/max): 3.00 / 3 / 3
