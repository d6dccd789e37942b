// On glibc's allocator (allocator=system), glibc's arena in the C library's
// data points at chunk headers: its top chunk's and its bins' free chunks'.
// A chunk header lies in the last 8 usable bytes of the object before it,
// so the leak check, which scans the C library's data as a root, took
// those words for pointers into the object below and kept it reachable.
//
// 200 leaked 1048-byte objects (a 1056-byte chunk: the next header is at
// byte 1040), each followed by a 2000-byte object that is freed into the
// unsorted bin (too big for tcache; its neighbours are live, so it is not
// merged) and a reachable 16-byte one; a leaked 40-byte object (a 48-byte
// chunk, the next header at byte 32) taken from the top chunk before the
// frees, and another split off a freed chunk after them (the rest is the
// arena's last remainder).  202 objects, 200 * 1048 + 2 * 40 = 209680
// bytes leak on every allocator; the check missed 4 of them on glibc's
// (2 of the 1048-byte ones, both 40-byte ones).
// RUN: %clang_heapprof -O0 -g %s -o %t
// RUN: rm -rf %t.d && %env_heapprof_opts=profile_dir=%t.d %run %t
// RUN: heapprof show %t.d | FileCheck %s
// RUN: rm -rf %t.d && %env_heapprof_opts=profile_dir=%t.d:allocator=system %run %t
// RUN: heapprof show %t.d | FileCheck %s
// RUN: %clang_plain -O0 -g %s -o %t.plain
// RUN: rm -rf %t.d && heapprof run --allocator=system -o %t.d -- %t.plain
// RUN: heapprof show %t.d | FileCheck %s
// CHECK: leaks: {{.*}} direct_objects=202 direct_bytes=209680 indirect_objects=0 indirect_bytes=0
#include <stdlib.h>
#include <string.h>

void *keep[200];

__attribute__((noinline)) static void leak(size_t size) {
  char *volatile p = malloc(size);
  memset(p, 1, size);
}

int main(void) {
  void *freed[200];
  for (int i = 0; i < 200; i++) {
    leak(1048);
    freed[i] = malloc(2000);
    keep[i] = malloc(16);
  }
  leak(40);
  for (int i = 0; i < 200; i++)
    free(freed[i]);
  leak(40);
  return 0;
}
