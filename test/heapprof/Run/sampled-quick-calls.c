// Sampled mode on another allocator: a call that makes or frees no
// sampled object is a quick call (heapprof_foreign.c), which makes no
// page-fault boundaries of its own while no fault happens.  What the calls
// do inside the allocator must still be charged to them, and what the
// program does between them to no call.  The allocator library
// (Inputs/faulting-alloc.c) takes a fault in each malloc of 333 bytes,
// maps a page in each malloc of 4000 and unmaps the page in each free of
// either.  The program makes 50 mallocs of 333 bytes, 30 of 4000, and 100
// of 16 bytes, after each of the first 40 of which it writes to one fresh
// page of its own mapping (a fault outside any call, found at the next
// call's start); it reallocs 20 of the 16-byte blocks to 4000 bytes (the
// library maps a page and copies into it) and 20 to 32 bytes (glibc's);
// then it frees all 180 blocks.
// Expected, with nothing sampled (sample_bytes=2^40; every call counted)
// as with the full profile: 30 mmaps charged to "malloc small", 20 mmaps
// and 20 faults (and those of glibc's reallocs that reach a fresh page) to
// "realloc small", 100 munmaps to "free small", a fault
// in each of the 50 mallocs of 333 (glibc's first malloc of the process
// may take a few more), and the
// program's 40 faults outside any call (and a few of its own at start
// and exit: stack, libc's data).  No mmap outside any call: the 95
// reservations of heapprof's own allocator at init are not the profiled
// allocator's (they were charged there once).
// RUN: %clang_plain -shared -fPIC %S/Inputs/faulting-alloc.c -o %t.alloc.so
// RUN: %clang_plain -O0 -g %s -o %t
// RUN: rm -rf %t.s && env -u LD_PRELOAD HEAPPROF_OPTIONS=sample_bytes=1099511627776:print_stats=1 heapprof run -o %t.s --allocator=%t.alloc.so -- %t > %t.s.out 2>&1
// RUN: heapprof show %t.s/*.profraw > %t.s.show
// RUN: FileCheck %s < %t.s.show
// RUN: FileCheck %s --check-prefix=NONE < %t.s.show
// RUN: FileCheck %s --check-prefix=STATS < %t.s.out
// The same with every call timed (no quick call: cycle_sample_every=1),
// and with the full profile.
// RUN: rm -rf %t.t && env -u LD_PRELOAD HEAPPROF_OPTIONS=sample_bytes=1099511627776:cycle_sample_every=1 heapprof run -o %t.t --allocator=%t.alloc.so -- %t
// RUN: heapprof show %t.t/*.profraw > %t.t.show
// RUN: FileCheck %s < %t.t.show
// RUN: FileCheck %s --check-prefix=NONE < %t.t.show
// RUN: rm -rf %t.f && env -u LD_PRELOAD heapprof run -o %t.f --allocator=%t.alloc.so -- %t
// RUN: heapprof show %t.f/*.profraw > %t.f.show
// RUN: FileCheck %s < %t.f.show
// RUN: FileCheck %s --check-prefix=NONE < %t.f.show
// CHECK-DAG: mmap by malloc small - serial: count=30 bytes=122880
// CHECK-DAG: munmap by free small - serial: count=100 bytes=409600
// CHECK-DAG: mmap by realloc small - serial: count=20 bytes=81920
// CHECK-DAG: fault by realloc small - serial: count={{2[0-3]}} bytes=
// CHECK-DAG: fault by malloc small - serial: count={{5[0-4]}} bytes=
// CHECK-DAG: fault by outside any call: count={{4[0-9]|5[0-9]}} bytes=
// NONE-NOT: fault by free
// NONE-NOT: mmap by outside
// A realloc is an allocation and a free: 180 + 40 of each.
// STATS: mallocs{{ +}}220 allocations
// STATS: frees{{ +}}220 deallocations
// STATS: reallocs{{ +}}40 reallocations
#include <stdlib.h>
#include <sys/mman.h>

static void *volatile keep[180];

int main(void) {
  volatile char *mine = mmap(NULL, 40 * 4096, PROT_READ | PROT_WRITE,
                             MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mine == MAP_FAILED)
    return 1;
  for (int i = 0; i < 50; i++)
    keep[i] = malloc(333);
  for (int i = 0; i < 30; i++)
    keep[50 + i] = malloc(4000);
  for (int i = 0; i < 100; i++) {
    keep[80 + i] = malloc(16);
    if (i < 40)
      mine[i * 4096] = 1;
  }
  for (int i = 0; i < 20; i++)
    keep[80 + i] = realloc(keep[80 + i], 4000);
  for (int i = 0; i < 20; i++)
    keep[100 + i] = realloc(keep[100 + i], 32);
  for (int i = 0; i < 180; i++)
    free(keep[i]);
  return 0;
}
