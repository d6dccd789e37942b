// A checkpoint (__heapprof_dump()) at a memory limit the program set
// itself: the heap has filled the budget (the ballast stands for it,
// heapprof_rlimit.c), and the checkpoint's own buffers were refused:
// "out of memory while gathering the profile's records and modules ...;
// not written", __heapprof_dump() -1, where the exit profile (which drops
// the ballast) was written.  Now the ballast lends the dump its room and
// takes it back after, so:
//  - the checkpoint is written (__heapprof_dump() returns 0), and holds
//    every block the program had: the N it counted, of 4,000 bytes each,
//    N x 4,000 bytes, all live;
//  - the limit still holds after it, as natively: a 4,000-byte malloc
//    (a new span) and a 1 MiB one (a mapping of its own) are refused.
// Under heapprof run (address space and data size) and built with
// -fheapprof (the static runtime).
// RUN: %clang_plain -O0 %s -o %t
// RUN: rm -rf %t.a && heapprof run -o %t.a -- %t as > %t.aout 2> %t.aerr
// RUN: FileCheck %s < %t.aout
// RUN: not grep HeapProf %t.aerr
// RUN: sh -c 'ls %t.a/*.1.profraw' | FileCheck %s --check-prefix=FILE
// RUN: sh -c 'heapprof report %t.a/*.1.profraw | grep "^allocations" | sed -E "s/ +/ /; s/ \(.*//" > %t.arep'
// RUN: sh -c 'sed -n "s/^filled \([0-9]*\)$/allocations \1 objects, \1/p" %t.aout | awk "{ print \$1, \$2, \$3, \$4 * 4000, \"bytes\" }" | diff - %t.arep'
// RUN: rm -rf %t.d && heapprof run -o %t.d -- %t data > %t.dout 2> %t.derr
// RUN: FileCheck %s < %t.dout
// RUN: not grep HeapProf %t.derr
// RUN: sh -c 'heapprof report %t.d/*.1.profraw | grep "^allocations" | sed -E "s/ +/ /; s/ \(.*//" > %t.drep'
// RUN: sh -c 'sed -n "s/^filled \([0-9]*\)$/allocations \1 objects, \1/p" %t.dout | awk "{ print \$1, \$2, \$3, \$4 * 4000, \"bytes\" }" | diff - %t.drep'
// RUN: %clang_heapprof -O0 %s -o %t.inst
// RUN: rm -rf %t.i && env HEAPPROF_OPTIONS=profile_dir=%t.i %t.inst as > %t.iout 2> %t.ierr
// RUN: FileCheck %s < %t.iout
// RUN: not grep HeapProf %t.ierr
// RUN: sh -c 'heapprof report %t.i/*.1.profraw | grep "^allocations" | sed -E "s/ +/ /; s/ \(.*//" > %t.irep'
// RUN: sh -c 'sed -n "s/^filled \([0-9]*\)$/allocations \1 objects, \1/p" %t.iout | awk "{ print \$1, \$2, \$3, \$4 * 4000, \"bytes\" }" | diff - %t.irep'
// CHECK: filled {{[0-9]+}}
// CHECK-NEXT: within the budget: yes
// CHECK-NEXT: checkpoint 0
// CHECK-NEXT: small after: refused
// CHECK-NEXT: large after: refused
// FILE: .1.profraw
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "Inputs/own_limit.h"

int __heapprof_dump(void) __attribute__((weak));

#define MAX_BLOCKS 200000
static void *volatile blocks[MAX_BLOCKS];

int main(int argc, char **argv) {
  setvbuf(stdout, NULL, _IONBF, 0); /* no buffer: no malloc but ours */
  set_own_limit(argc, argv);
  long n = 0;
  while (n < MAX_BLOCKS && (blocks[n] = malloc(4000)))
    n++;
  printf("filled %ld\n", n);
  printf("within the budget: %s\n",
         n * 4000 >= (128l << 20) && n * 4000 <= (256l << 20) ? "yes" : "no");
  printf("checkpoint %d\n", __heapprof_dump ? __heapprof_dump() : -2);
  void *volatile p = malloc(4000);
  printf("small after: %s\n", p ? "given" : "refused");
  void *volatile q = malloc(1 << 20);
  printf("large after: %s\n", q ? "given" : "refused");
  return 0;
}
