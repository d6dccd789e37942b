// Leaked objects of 1 and 2 bytes count their own sizes, and 0-byte ones
// 1 byte as everywhere in the profile (Leaks/zero-byte.c), on heapprof's
// allocator and on another one (allocator=system, where the leak check
// keeps live objects in an address-sorted set): 1000 of 1 byte, 1000 of 2
// bytes and 10 of 0 bytes leak, 2010 objects and 3010 bytes; one 0-byte
// object held by a global is reachable (a pointer to it is a pointer to its
// start).  It is allocated last, so on glibc's allocator it lies above every
// other object: the check discards a word above the set's highest object
// before it looks the word up.  The set kept a 1-byte object's end as a
// 0-byte one's, beg + 1, and counted it 0 bytes (2000 leaked bytes); then
// it kept a 0-byte object's end at its start, and the highest object, if
// 0 bytes, lay past that bound: the global's object was a leak too.
// RUN: %clang_heapprof -O0 -g %s -o %t
// RUN: rm -rf %t.d && %env_heapprof_opts=profile_dir=%t.d %run %t
// RUN: heapprof show %t.d | FileCheck %s
// RUN: rm -rf %t.d && %env_heapprof_opts=profile_dir=%t.d:allocator=system %run %t
// RUN: heapprof show %t.d | FileCheck %s
// CHECK: leaks: head_words=10 {{.*}} direct_objects=2010 direct_bytes=3010 indirect_objects=0 indirect_bytes=0
#include <stdlib.h>

void *keep;

__attribute__((noinline)) static void leak(size_t size, int n) {
  for (int i = 0; i < n; i++) {
    volatile char *p = malloc(size);
    if (size)
      *p = 1;
  }
}

int main(void) {
  leak(1, 1000);
  leak(2, 1000);
  leak(0, 10);
  keep = malloc(0);
  return keep == NULL;
}
