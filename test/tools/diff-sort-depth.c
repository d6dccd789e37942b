// heapprof diff's last ranking key before the frames' names: of two rows
// equal in every measure ranked, the one with the shorter stack comes
// first.  NEW (argument 1) allocates, and frees, 10 objects of 100 bytes
// from zshallow() (called by main: 2 frames) and 10 from adeep() (called
// by middle(), called by main: 3 frames); BASE (no argument) neither.
// Both rows are new, +1000 B, 10 allocations, 0 live, 0 accesses: equal;
// zshallow's 2 frames rank it first, though its name sorts last.
// RUN: rm -rf %t.base %t.new && %clang_heapprof -O0 -g %s -o %t
// RUN: %env_heapprof_opts=profile_dir=%t.base %run %t
// RUN: %env_heapprof_opts=profile_dir=%t.new %run %t 1
// RUN: heapprof diff %t.base %t.new | FileCheck %s
// CHECK: #1 new bytes +1000 B (0 B -> 1000 B), allocs +10
// CHECK-NEXT: {{^ +}}zshallow {{.*}}diff-sort-depth.c
// CHECK-NEXT: {{^ +}}main {{.*}}diff-sort-depth.c
// CHECK: #2 new bytes +1000 B (0 B -> 1000 B), allocs +10
// CHECK-NEXT: {{^ +}}adeep {{.*}}diff-sort-depth.c
// CHECK-NEXT: {{^ +}}middle {{.*}}diff-sort-depth.c
#include <stdlib.h>

static void *volatile keep;

__attribute__((noinline)) static void zshallow(void) {
  for (int i = 0; i < 10; i++)
    free(malloc(100));
}

__attribute__((noinline)) static void adeep(void) {
  for (int i = 0; i < 10; i++)
    free(malloc(100));
}

__attribute__((noinline)) static void middle(void) { adeep(); }

int main(int argc, char **argv) {
  keep = malloc(50); // one context on both sides, unchanged
  if (argc > 1) {
    zshallow();
    middle();
  }
  return 0;
}
