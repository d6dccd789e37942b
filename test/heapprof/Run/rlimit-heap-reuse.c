// A program at a memory limit it set itself frees what it allocated and
// allocates again, blocks of another size: natively glibc's heap takes
// the freed memory back (its top trimmed at free, the rest reused), and
// the second fill gets as much as the first.  heapprof's ballast
// (heapprof_rlimit.c) stood for every span ever made: the freed blocks
// of the first size stayed charged, and the second fill got nothing
// ("second fill 0").  Now it stands for the spans' pages not given back:
// at the limit the allocator gives back its free pages (as malloc_trim)
// and the ballast shrinks by as much, and pages given back that are
// handed out again are charged again.  So, each line as natively:
//  - first fill: blocks of 4,064 bytes until malloc fails, within the
//    budget (between 128 MiB and 256 MiB of them: heapprof's header and
//    its own memory count, half the budget at the least);
//  - all freed, blocks of 992 bytes: at least 95% of the first fill's
//    bytes (the per-block overhead, 32 bytes on 992 with heapprof, 16
//    with glibc, is at most 3.3%, and the first size's thread cache keeps
//    up to 256 KiB);
//  - all freed, blocks of 4,064 bytes again: at least 95% of the first
//    fill's bytes, and no more than the budget (the pages given back and
//    taken again count: without that, the freed blocks of the first fill
//    came back uncharged, on top of the new spans);
//  - all freed, one block of 128 MiB (a mapping of its own, the
//    allocator's secondary): given, as natively (the freed blocks' pages,
//    not yet given back by an idle pass, go back when the mapping is
//    refused, and it is tried again).
// RUN: %clang_plain -O0 %s -o %t
// RUN: %t as | FileCheck %s
// RUN: heapprof run -o %t.d -- %t as 2> %t.aerr | FileCheck %s
// RUN: heapprof run -o %t.d -- %t data 2> %t.derr | FileCheck %s
// RUN: not grep HeapProf %t.aerr %t.derr
// RUN: %clang_heapprof -O0 %s -o %t.inst
// RUN: env HEAPPROF_OPTIONS=profile_dir=%t.i %t.inst as | FileCheck %s
// CHECK: first fill within the budget: yes
// CHECK-NEXT: second fill, another size: yes
// CHECK-NEXT: third fill, the first size again: yes
// CHECK-NEXT: third fill within the budget: yes
// CHECK-NEXT: large block after freeing: yes
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "Inputs/own_limit.h"

#define MAX_BLOCKS 400000
static void *volatile blocks[MAX_BLOCKS];

static long fill(size_t size) {
  long n = 0;
  while (n < MAX_BLOCKS && (blocks[n] = malloc(size)))
    n++;
  return n;
}

static void free_all(long n) {
  for (long i = 0; i < n; i++)
    free(blocks[i]);
}

static const char *yes(int c) { return c ? "yes" : "no"; }

int main(int argc, char **argv) {
  setvbuf(stdout, NULL, _IONBF, 0); /* no buffer: no malloc but ours */
  set_own_limit(argc, argv);
  long first = fill(4064) * 4064l;
  printf("first fill within the budget: %s\n",
         yes(first >= (128l << 20) && first <= (256l << 20)));
  free_all(first / 4064);
  long second = fill(992) * 992l;
  printf("second fill, another size: %s\n", yes(second >= first / 100 * 95));
  free_all(second / 992);
  long third = fill(4064) * 4064l;
  printf("third fill, the first size again: %s\n",
         yes(third >= first / 100 * 95));
  printf("third fill within the budget: %s\n", yes(third <= (256l << 20)));
  free_all(third / 4064);
  void *volatile large = malloc(128 << 20);
  printf("large block after freeing: %s\n", yes(large != NULL));
  fprintf(stderr, "fills %ld %ld %ld\n", first, second, third);
  return 0;
}
