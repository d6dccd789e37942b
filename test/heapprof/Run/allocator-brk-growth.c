// glibc's heap growth under --allocator=system: each move of the break
// across a wrapped call counts one brk (print_stats=1's alloc_brk; glibc
// calls the kernel internally, so heapprof reads its break, __curbrk, what
// sbrk(0) returns, before and after).  48 live blocks of 64 KiB, under
// glibc's 128 KiB mmap threshold, all from the main heap: glibc grows it by
// the request plus its 128 KiB top pad, so every second or third block
// moves the break: at least 3 MiB / (64 + 128 + 4) KiB = 16 moves, at
// most one a block plus the first small allocation's (puts's buffer) and
// the heap's creation: 16 to 50 (18 here; strace counts 20 brk calls of
// the program alone, 2 of them brk(NULL) queries).  A break
// read that missed the moves (or read a word that never changes) counts 1
// or 0.
// RUN: %clang_plain -O0 -g %s -o %t
// RUN: rm -rf %t.dir && env -u LD_PRELOAD HEAPPROF_OPTIONS=print_stats=1 heapprof run -o %t.dir --allocator=system -- %t 2>&1 | FileCheck %s
// CHECK: alloc_brk {{1[6-9]|[2-4][0-9]|50}} the
#include <stdio.h>
#include <stdlib.h>

static void *volatile keep[48];

int main(void) {
  puts("start");
  for (int i = 0; i < 48; i++)
    keep[i] = malloc(64 << 10);
  for (int i = 0; i < 48; i++)
    free(keep[i]);
  return 0;
}
