// print_stats=1: every allocator counter counts what the program did.
// 640 blocks of 3000 bytes (class 3072 B, whose thread cache holds 64 and
// moves 32 at a time): 640 allocations from an empty cache are 20 refills;
// 640 frees into it drain 32 blocks at free 65, 97, ..., 609: 18 drains, 64
// blocks stay cached.  One in-place realloc (40 -> 50 bytes, both in the
// 96-byte class: one more refill), one large chunk, one failed allocation.
// RUN: %clang_rt_heapprof -O0 %s -o %t
// RUN: %env_heapprof_opts=print_stats=1:log_path=%t.prof %run %t 2>&1 | FileCheck %s
#include <stdio.h>
#include <stdlib.h>

#define N 640
static char *volatile blocks[N];

int main(void) {
  for (int i = 0; i < N; i++)
    blocks[i] = malloc(3000);
  for (int i = 0; i < N; i++)
    free(blocks[i]);
  char *volatile q = malloc(40);
  char *volatile r = realloc(q, 50);
  fprintf(stderr, "in place: %s\n", r == q ? "yes" : "no");
  free(r);
  char *volatile big = malloc(1 << 20);
  free(big);
  char *volatile fail = malloc((size_t)1 << 50);
  fprintf(stderr, "failed: %s\n", fail ? "no" : "yes");
  return 0;
}
// CHECK: in place: yes
// CHECK: failed: yes
// CHECK: HeapProf statistics:
// 640 + 40 + 50 + 1 MiB; the realloc frees the 40 bytes, free() the 50.
// CHECK-NEXT: mallocs 643 allocations
// CHECK-NEXT: frees 643 deallocations
// CHECK-NEXT: reallocs 1 reallocations
// CHECK-NEXT: malloced_bytes 2968666 bytes requested
// CHECK-NEXT: freed_bytes 2968666 bytes freed
// CHECK-NEXT: large_mallocs 1 allocations served by mmap
// CHECK-NEXT: cache_refills 21 per-thread cache refills
// CHECK-NEXT: cache_drains 18 per-thread cache drains
// CHECK-NEXT: inplace_reallocs 1 reallocations that kept their block
// CHECK-NEXT: mremap_reallocs 0 reallocations of large chunks resized by mremap
// CHECK-NEXT: release_passes 0 release_freed_pages passes
// CHECK-NEXT: pages_released 0 4 KiB pages
// CHECK-NEXT: idle_passes {{[0-9]+}} release_idle_ms passes
// CHECK-NEXT: invalid_frees 0 invalid/double frees
// CHECK-NEXT: failed_allocs 1 failed allocations
// CHECK-NEXT: cold_allocs 0 allocations served from cold regions
// One allocator call in cycle_sample_every (64 by default) of each kind is
// measured: of 640 mallocs and 640 frees, 10 each; both sums are > 0.
// CHECK-NEXT: malloc_cycles {{[1-9][0-9]*}} TSC cycles
// CHECK-NEXT: free_cycles {{[1-9][0-9]*}} TSC cycles
