// A small direct leak beside a large indirect one, in one row of the leak
// table: both objects come from xmalloc called on one line of main, a
// 24-byte head (direct: nothing reaches it) holding the only pointer to a
// 120000-byte block (indirect).  The row is 2 objects, 120024 bytes, 24 of
// them direct and 120000 indirect.  With the bytes and the indirect bytes
// only, it read "117.2 KiB ... 117.2 KiB": 120024 and 120000 bytes round
// to the same, and the 24-byte direct leak, the one to fix, was nowhere.
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: %clang_heapprof -O0 -g %s -o %t
// RUN: %env_heapprof_opts=profile_dir=%t.d %run %t
// RUN: heapprof report %t.d | FileCheck %s
#include <stdlib.h>

static const size_t sizes[2] = {24, 120000};

__attribute__((noinline)) static void *xmalloc(size_t n) { return malloc(n); }

// The pointers live in this frame only; clobber() overwrites it before the
// check, so no stale copy keeps the head reachable.
__attribute__((noinline)) static void make(void) {
  void *p[2];
  for (int i = 0; i < 2; i++)
    p[i] = xmalloc(sizes[i]);
  *(void **)p[0] = p[1];
}

__attribute__((noinline)) static void clobber(void) {
  volatile char buf[512];
  for (int i = 0; i < 512; i++)
    buf[i] = 0;
}

int main(void) {
  make();
  clobber();
  return 0;
}

// CHECK: == Memory leaks: unreachable at exit, by allocation site and 2 callers
// CHECK-NEXT: bytes % objects direct indirect call chain
// CHECK-NEXT: 117.2 KiB 100.0% 2 24 B 117.2 KiB xmalloc ({{.*}}leaks-direct.c:{{[0-9:]+}}) <- make ({{.*}}) <- main ({{.*}}){{$}}
// CHECK-NEXT: (still reachable at exit, not listed: 0 bytes (0 B) in 0 objects;
