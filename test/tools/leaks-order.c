// heapprof report's leak table ranks its rows by bytes, then by objects
// (tables.cpp, Builder::chains): many_small leaks 10 objects of 100 bytes
// (1000 B, a third of the 3000 unreachable bytes), few_big 2 objects of
// 1000 bytes (2000 B, two thirds).  few_big comes first though it leaked
// fewer objects, in the unreachable table and in --leaks=live's (nothing
// else is live at exit).  The objects hold no pointer (0x5a bytes), and
// clobber() overwrites the stack where the frames that held the pointers
// were, so no stale copy keeps one reachable.
// RUN: %clang_heapprof -O0 -g %s -o %t
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: %env_heapprof_opts=profile_dir=%t.d %run %t
// RUN: heapprof report %t.d | FileCheck %s
// RUN: heapprof report --leaks=live %t.d | FileCheck %s --check-prefix=LIVE
// CHECK: == Memory leaks: unreachable at exit
// CHECK-NEXT: bytes % objects direct indirect call chain
// CHECK-NEXT: 2000 B 66.7% 2 2000 B 0 B leak ({{.*}}) <- few_big (
// CHECK-NEXT: 1000 B 33.3% 10 1000 B 0 B leak ({{.*}}) <- many_small (
// CHECK-NEXT: (still reachable at exit, not listed: 0 bytes (0 B) in 0 objects;
// LIVE: == Memory leaks: live at the end
// LIVE-NEXT: bytes % objects call chain
// LIVE-NEXT: 2000 B 66.7% 2 leak ({{.*}}) <- few_big (
// LIVE-NEXT: 1000 B 33.3% 10 leak ({{.*}}) <- many_small (
// LIVE-EMPTY:
#include <stdlib.h>
#include <string.h>

__attribute__((noinline)) static void leak(size_t size) {
  char *p = malloc(size);
  memset(p, 0x5a, size);
}
__attribute__((noinline)) static void many_small(void) {
  for (int i = 0; i < 10; i++)
    leak(100);
}
__attribute__((noinline)) static void few_big(void) {
  for (int i = 0; i < 2; i++)
    leak(1000);
}

// Overwrites the stack below main's frame, where the frames above were.
#include "../heapprof/Inputs/clobber.h"

int main(void) {
  many_small();
  few_big();
  clobber();
  return 0;
}
