// The leak check at exit reads a large live object only where the program
// wrote it: pages nothing wrote hold no pointer, and are skipped (a 4 GiB
// block of which the program wrote three words took 4.3 s at exit, now
// 0.05 s; docs/performance.md).  What is live at the end:
//  - a block of 1 GiB, held by a global, written in its first and last
//    byte and, in its middle, with the only pointer to an object of 48
//    bytes: both reachable (the write makes that page one to read);
//  - an object of 24 bytes whose pointer the program dropped: a direct
//    leak, the only one.
// With heapprof's allocator; with glibc's (allocator=system) the block and
// the 48 bytes are reachable (where the 24 bytes stand glibc's own state
// decides: the scan is conservative).
// RUN: %clang_heapprof -O1 -g %s -o %t
// RUN: rm -rf %t.d && %env_heapprof_opts=profile_dir=%t.d %run %t
// RUN: heapprof report %t.d | FileCheck %s
// RUN: rm -rf %t.s && %env_heapprof_opts=profile_dir=%t.s:allocator=system %run %t
// RUN: heapprof report --leaks=live %t.s | FileCheck %s --check-prefix=SYS
// RUN: heapprof report %t.s | FileCheck %s --check-prefix=SYS-LEAKS
// SYS: == Memory leaks: live at the end
// SYS: 1.0 GiB {{.*}} 1 main
// SYS-NEXT: 48 B {{.*}} 1 main
// SYS-LEAKS: == Memory leaks
// SYS-LEAKS-NOT: 48 B
// SYS-LEAKS-NOT: GiB {{.*}} 1 main
// SYS-LEAKS: == Allocation bins
// CHECK: == Memory leaks
// CHECK-NEXT: bytes % objects direct indirect call chain
// CHECK-NEXT: 24 B 100.0% 1 24 B 0 B leak
// CHECK-NEXT: (still reachable at exit, not listed: 1073741872 bytes (1.0 GiB) in 2 objects;
#include <stdlib.h>
#include <string.h>

char *volatile keep;

/* The 24 bytes, their pointer dropped, and the stack it was on written
 * over: a stale copy in a dead frame would count as a pointer. */
__attribute__((noinline)) static void leak(void) {
  void *volatile lost = malloc(24);
  lost = 0;
}
__attribute__((noinline)) static void clobber(void) {
  volatile char junk[4096];
  memset((char *)junk, 0, sizeof(junk));
}

int main(void) {
  size_t n = (size_t)1 << 30;
  keep = malloc(n);
  keep[0] = 1;
  keep[n - 1] = 1;
  *(void **)(keep + n / 2) = malloc(48);
  leak();
  clobber();
  return 0;
}
