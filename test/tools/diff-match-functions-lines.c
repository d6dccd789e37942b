// heapprof diff --match functions matches stacks by their functions, so a
// context whose lines moved in the new build is one row, and the row shows
// the new build's lines (the source a reader has now).  The old build
// allocates 10 blocks of 100 bytes from one line of grow() and one more
// from the next, the new one (-DNEW) 30 and one; in it the line after
// `#line 500` (the `#endif`) is 500: grow() starts at 501, its mallocs are
// at 503 and 504, main's call at 508.  The two lines' contexts are one
// stack of functions, grow <- main: one context on each side, whose row
// grew by 20 objects, 2000 bytes (1100 -> 3100), shown with either of
// the new build's lines for grow.  BASE's frames would say grow at line
// 30 or so (the old source's); counting each side's contexts before
// matching would say 2 and 2.
// RUN: rm -rf %t.d && mkdir -p %t.d/old %t.d/new
// RUN: %clang_heapprof -O0 -g %s -o %t.old
// RUN: %clang_heapprof -O0 -g -DNEW %s -o %t.new
// RUN: %env_heapprof_opts=profile_dir=%t.d/old %run %t.old
// RUN: %env_heapprof_opts=profile_dir=%t.d/new %run %t.new
// RUN: heapprof diff --match functions %t.d/old %t.d/new | FileCheck %s
// CHECK: contexts 1 1{{ *$}}
// CHECK-NEXT: changed contexts: 0 new, 0 gone, 1 grew, 0 shrank, 0 changed otherwise; 0 unchanged
// CHECK: #1 grew bytes +2000 B (1100 B -> 3100 B), allocs +20
// CHECK-NEXT: {{^ +}}grow {{.*}}diff-match-functions-lines.c:50{{[34]}}{{ *$}}
// CHECK-NEXT: {{^ +}}main {{.*}}diff-match-functions-lines.c:508{{ *$}}
#include <stdlib.h>

#ifdef NEW
enum { N = 30 };
#else
enum { N = 10 };
#endif

static void *volatile keep[N], *volatile one_more;

#ifdef NEW
#line 500
#endif
__attribute__((noinline)) static void grow(void) {
  for (int i = 0; i < N; i++)
    keep[i] = malloc(100);
  one_more = malloc(100);
}

int main(void) {
  grow();
  return 0;
}
