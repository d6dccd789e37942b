// realloc_in_place on a large chunk at the edge of its pages: a chunk stays
// where it is when the new size needs the same number of pages, and is
// resized by mremap when it needs fewer or more (design.md, "realloc in
// place"; user-guide.md's statistics).  malloc(300000) takes 74 pages
// after the header page (73 * 4096 = 299008 < 300000 <= 303104):
//   300000 -> 299009   ceil(299009 / 4096) = 74 pages: kept
//   299009 -> 299008   exactly 73 pages, one page less: mremap
//   299008 -> 299008   73 pages, the mapping's every byte: kept
//   299008 -> 299009   74 pages, one page more: mremap
// so 4 reallocs, 2 in place, 2 by mremap.  A pointer equal to the last
// is no sign either way (a shrinking mremap stays put), so the test
// reads the statistics.
// RUN: %clang_rt_heapprof -O0 %s -o %t
// RUN: %env_heapprof_opts=print_stats=1:log_path=%t.prof %run %t 2>&1 | FileCheck %s
// With realloc_in_place=0 (phkmalloc's R) every one of them moves.
// RUN: %env_heapprof_opts=print_stats=1:log_path=%t.prof:realloc_in_place=0 %run %t 2>&1 | FileCheck %s --check-prefix=MOVE
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  char *volatile p = malloc(300000);
  p = realloc(p, 299009);
  p = realloc(p, 299008);
  p = realloc(p, 299008);
  p = realloc(p, 299009);
  fprintf(stderr, "last realloc: %s\n", p ? "ok" : "NULL");
  free(p);
  return 0;
}
// CHECK: last realloc: ok
// CHECK: HeapProf statistics:
// CHECK: reallocs 4 reallocations
// CHECK: inplace_reallocs 2 reallocations that kept their block
// CHECK-NEXT: mremap_reallocs 2 reallocations of large chunks resized by mremap
// MOVE: HeapProf statistics:
// MOVE: reallocs 4 reallocations
// MOVE: inplace_reallocs 0 reallocations that kept their block
// MOVE-NEXT: mremap_reallocs 0 reallocations of large chunks resized by mremap
