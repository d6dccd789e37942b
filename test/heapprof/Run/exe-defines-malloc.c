// An executable that defines malloc itself (an allocator linked in, as
// Chromium's PartitionAlloc is) takes every call before a preloaded
// library: under heapprof run its profile would be empty. heapprof run
// refuses it; with --follow-exec it warns and runs it; an image that a
// followed program execs (a wrapper script) gets the runtime's warning.
// A program built with -fheapprof also defines malloc, heapprof's own,
// and is profiled as usual.
// RUN: %clang_plain -O0 -rdynamic %s -o %t
// RUN: not heapprof run -o %t.d -- %t 2>&1 | FileCheck %s --check-prefix=REFUSED -DPROG=%t
// REFUSED: heapprof: error: cannot profile '[[PROG]]': it defines malloc itself (an allocator linked into the executable, which every call binds to before a preloaded library), so the profile would be empty; rebuild it with heapprof-clang -fheapprof, or without its own allocator (--follow-exec still profiles the programs it runs)
// RUN: heapprof run --follow-exec -o %t.f -- %t 2>&1 | FileCheck %s --check-prefix=FOLLOW -DPROG=%t
// FOLLOW: heapprof: warning: '[[PROG]]': it defines malloc itself
// FOLLOW: served 3 blocks from its own allocator
// Under --follow-exec the image's warning says no more than that.
// RUN: printf '#!/bin/sh\nexec "$@"\n' > %t.sh && chmod +x %t.sh
// RUN: heapprof run --follow-exec -o %t.f2 -- %t.sh %t 2>&1 | FileCheck %s --check-prefix=FOLLOW-IMAGE -DPROG=%t
// FOLLOW-IMAGE: HeapProf: WARNING: the program defines malloc itself ([[PROG]]): {{.*}}or without its own allocator{{$}}
// RUN: heapprof run -o %t.s -- %t.sh %t 2>&1 | FileCheck %s --check-prefix=EXECED -DPROG=%t
// EXECED: HeapProf: WARNING: the program defines malloc itself ([[PROG]]): its allocations bind there before heapprof's preloaded runtime, and its profile holds none of them; rebuild it with heapprof-clang -fheapprof, or without its own allocator (heapprof run --follow-exec profiles the programs it runs)
// EXECED: served 3 blocks from its own allocator
// Run again as /proc/self/exe (Chromium's zygote): the warning named
// '/proc/self/exe'; it names the program's file.
// RUN: heapprof run -o %t.p -- %t.sh %t self 2>&1 | FileCheck %s --check-prefix=SELF -DPROG=%t
// SELF: HeapProf: WARNING: the program defines malloc itself ([[PROG]]): its allocations bind there
// SELF: HeapProf: WARNING: the program defines malloc itself ([[PROG]]): its allocations bind there
// SELF: served 3 blocks from its own allocator
// RUN: %clang_heapprof -O0 %s -DNONE -o %t.inst
// RUN: rm -rf %t.i && heapprof run -o %t.i -- %t.inst 2>&1 | count 0
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef NONE
// A bump allocator: everything a C program's start-up and stdio need.
static char arena[1 << 20] __attribute__((aligned(64)));
static size_t used;
static unsigned served;
void *memalign(size_t align, size_t size) {
  used = (used + align - 1) & ~(align - 1);
  if (used + size + 16 > sizeof(arena))
    return NULL;
  char *p = arena + used + 16;
  *(size_t *)(p - 16) = size;
  used += size + 16;
  served++;
  return p;
}
void *malloc(size_t size) { return memalign(16, size); }
void free(void *p) { (void)p; }
void *calloc(size_t n, size_t size) {
  void *p = malloc(n * size);
  if (p)
    memset(p, 0, n * size);
  return p;
}
void *realloc(void *p, size_t size) {
  void *q = malloc(size);
  if (q && p) {
    size_t old = *(size_t *)((char *)p - 16);
    memcpy(q, p, old < size ? old : size);
  }
  return q;
}
int posix_memalign(void **out, size_t align, size_t size) {
  *out = memalign(align < 16 ? 16 : align, size);
  return *out ? 0 : 12;
}
void *aligned_alloc(size_t align, size_t size) { return memalign(align, size); }
size_t malloc_usable_size(void *p) { return *(size_t *)((char *)p - 16); }
#endif

void *volatile keep[3];

int main(int argc, char **argv) {
  if (argc > 1 && !strcmp(argv[1], "self")) {
    execl("/proc/self/exe", "/proc/self/exe", (char *)NULL);
    return 1;
  }
#ifndef NONE
  unsigned before = served;
#endif
  for (int i = 0; i < 3; i++)
    keep[i] = malloc(40);
#ifndef NONE
  fprintf(stderr, "served %u blocks from its own allocator\n",
          served - before);
#endif
  return 0;
}
