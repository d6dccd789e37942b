// Many root regions, registered and taken back in orders that move
// entries of the runtime's set (open addressing: a removal shifts the
// entries after it back).  An mmap'd arena of 20,000 slots of 16 bytes;
// slot i holds the only pointer to an object of 40 bytes and is registered
// as a region of its own, [slot i, slot i + 16); slots 0..999 are
// registered twice.  Then every third region (i % 3 == 0: 6,667 of them)
// is taken back once, in a scrambled order (i visited as 7919 * j mod
// 20,000).  A region registered twice stays a root after one call: of
// those 6,667, the 334 below 1,000 (0, 3, ..., 999).  So the objects of
// the other 6,333 regions leak: 6,333 direct leaks of 253,320 bytes, in
// one row (one allocation site), and no warning.
//   again  the same, then the 334 taken back a second time: 6,667 leaks,
//          266,680 bytes.
// Taking back a region in the order they came had read the whole list
// each time (100,000 regions: 1.36 s); the set finds it at once.
// RUN: %clang_heapprof -O0 -g %s -o %t
// RUN: rm -rf %t.once && %env_heapprof_opts=profile_dir=%t.once %run %t once 2> %t.once.err
// RUN: FileCheck %s --check-prefix=QUIET --allow-empty < %t.once.err
// RUN: heapprof show %t.once | FileCheck %s --check-prefix=ONCE
// RUN: rm -rf %t.again && %env_heapprof_opts=profile_dir=%t.again %run %t again 2> %t.again.err
// RUN: FileCheck %s --check-prefix=QUIET --allow-empty < %t.again.err
// RUN: heapprof show %t.again | FileCheck %s --check-prefix=AGAIN
// QUIET-NOT: HeapProf
// ONCE: leaks: {{.*}} direct_objects=6333 direct_bytes=253320 indirect_objects=0 indirect_bytes=0 {{.*}} nrows=1{{$}}
// AGAIN: leaks: {{.*}} direct_objects=6667 direct_bytes=266680 indirect_objects=0 indirect_bytes=0 {{.*}} nrows=1{{$}}
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <heapprof/heapprof_interface.h>

#define SLOTS 20000
#define TWICE 1000

__attribute__((noinline)) static void *widget(void) { return malloc(40); }

// Clears the stack below main's frame, where the calls left the objects'
// addresses.
__attribute__((noinline)) static void scrub(void) {
  volatile char junk[16384];
  memset((char *)junk, 0, sizeof(junk));
}

int main(int argc, char **argv) {
  int again = argc > 1 && !strcmp(argv[1], "again");
  void **arena = mmap(NULL, SLOTS * 16, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (arena == MAP_FAILED)
    return 2;
  for (int i = 0; i < SLOTS; i++) {
    arena[2 * i] = widget();
    __heapprof_register_root_region(&arena[2 * i], 16);
  }
  for (int i = 0; i < TWICE; i++)
    __heapprof_register_root_region(&arena[2 * i], 16);
  // 7919 is prime, so j -> 7919 * j mod SLOTS visits every slot once.
  for (long j = 0; j < SLOTS; j++) {
    int i = (int)(7919 * j % SLOTS);
    if (i % 3 == 0)
      __heapprof_unregister_root_region(&arena[2 * i], 16);
  }
  for (int i = 0; again && i < TWICE; i += 3)
    __heapprof_unregister_root_region(&arena[2 * i], 16);
  scrub();
  return 0;
}
