// The wrapped allocator's system calls (print_stats=1, alloc_* lines).
// 3 blocks of 1 MiB, all live at once, then one of 64 MiB: glibc serves
// each from its own mapping (above its 128 KiB mmap threshold) and unmaps
// it at free: 4 mmap, 4 munmap, seen through glibc's IS_MMAPPED chunk bit.
// Its first small allocation (puts's buffer) grows the main heap: 1 brk.
// jemalloc maps new extents with mmap through the PLT (at least one for the
// 64 MiB block); tcmalloc grows its heap with sbrk.
// RUN: %clang_plain -O0 -g %s -o %t
// RUN: rm -rf %t.dir && env -u LD_PRELOAD HEAPPROF_OPTIONS=print_stats=1 heapprof run -o %t.dir --allocator=system -- %t 2>&1 | FileCheck %s --check-prefix=GLIBC
// RUN: %if jemalloc %{ env -u LD_PRELOAD HEAPPROF_OPTIONS=print_stats=1 heapprof run -o %t.dir --allocator=%libjemalloc -- %t 2>&1 | FileCheck %s --check-prefix=JE %}
// RUN: %if tcmalloc %{ env -u LD_PRELOAD HEAPPROF_OPTIONS=print_stats=1 heapprof run -o %t.dir --allocator=%libtcmalloc -- %t 2>&1 | FileCheck %s --check-prefix=TC %}
// GLIBC: alloc_mmap 4 the
// GLIBC: alloc_munmap 4 the
// GLIBC: alloc_brk 1 the
// JE: alloc_mmap {{[1-9][0-9]*}} the
// TC: alloc_brk {{[1-9][0-9]*}} the
#include <stdio.h>
#include <stdlib.h>

static void *volatile keep[3];

int main(void) {
  for (int i = 0; i < 3; i++)
    keep[i] = malloc(1 << 20);
  for (int i = 0; i < 3; i++)
    free(keep[i]);
  keep[0] = malloc(64 << 20);
  free(keep[0]);
  puts("done");
  return 0;
}
