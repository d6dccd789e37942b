// A realloc of a large chunk (its own mapping) to a size that is still
// large resizes the mapping with mremap, as glibc does, instead of copying:
// the bytes stay, and the profile is the same as a moving realloc's (the
// old chunk ends in its own context, the new one starts in the realloc's
// with its counters at zero).  realloc_in_place=0 (phkmalloc's R) copies.
//
// The program grows a 1 MiB chunk to 2, 4 and 8 MiB at one call site, then
// shrinks it to 300000 bytes (still large) at another.  Before the first
// growth it maps a page right after the chunk's mapping (the secondary puts
// user bytes on the first page boundary past the mapping's start, so the
// mapping ends at p + 1 MiB): the kernel cannot grow it there and must
// move it.  "stale" then frees the old pointer: a double free, because the
// old mapping is remembered as freed.
// RUN: %clang_rt_heapprof -O0 %s -o %t
// RUN: %env_heapprof_opts=log_path=stderr:print_stats=1 %run %t 2>&1 | FileCheck %s --check-prefixes=CHECK,REMAP
// RUN: %env_heapprof_opts=log_path=stderr:print_stats=1:realloc_in_place=0 %run %t 2>&1 | FileCheck %s --check-prefixes=CHECK,COPY
// RUN: %env_heapprof_opts=log_path=stderr:halt_on_error=0 %run %t stale 2>&1 | FileCheck %s --check-prefix=STALE
// RUN: %env_heapprof_opts=log_path=stderr:halt_on_error=0:realloc_in_place=0 %run %t stale 2>&1 | FileCheck %s --check-prefix=STALE
#include <heapprof/heapprof_interface.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define MiB (1u << 20)

static int failures;

static void fill(unsigned char *p, size_t from, size_t to) {
  for (size_t i = from; i < to; i++)
    p[i] = (unsigned char)(i * 7 + i / 4096);
}

static int intact(const unsigned char *p, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (p[i] != (unsigned char)(i * 7 + i / 4096))
      return 0;
  return 1;
}

static void touch(unsigned char *p, size_t n, int times) {
  for (int i = 0; i < times; i++)
    __heapprof_record_access(p + (size_t)i * 4099 % n);
}

__attribute__((noinline)) unsigned char *make_large(size_t n) { return malloc(n); }
__attribute__((noinline)) unsigned char *grow_large(unsigned char *p, size_t n) {
  return realloc(p, n);
}
__attribute__((noinline)) unsigned char *shrink_large(unsigned char *p, size_t n) {
  return realloc(p, n);
}

int main(int argc, char **argv) {
  int stale = argc > 1 && !strcmp(argv[1], "stale");
  size_t n = MiB;
  unsigned char *p = make_large(n);
  fill(p, 0, n);
  touch(p, n, 11);
  /* Taken already (EEXIST) or taken now: either way not free to grow into. */
  void *blocker = mmap(p + n, 4096, PROT_NONE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
  unsigned char *first = p;
  for (int k = 0; k < 3; k++) {
    unsigned char *q = grow_large(p, 2 * n);
    if (!q || !intact(q, n)) {
      fprintf(stderr, "growth to %zu lost bytes\n", 2 * n);
      failures++;
    }
    fill(q, n, 2 * n);
    touch(q + n, n, 2);
    p = q;
    n *= 2;
  }
  fprintf(stderr, "first growth moved: %s\n", p != first ? "yes" : "no");
  // CHECK: first growth moved: yes
  if (stale) {
    free(first);
    fprintf(stderr, "program finished\n");
    return 0;
  }
  unsigned char *s = shrink_large(p, 300000);
  if (!s || !intact(s, 300000)) {
    fprintf(stderr, "shrink lost bytes\n");
    failures++;
  }
  touch(s, 300000, 5);
  free(s);
  if (blocker != MAP_FAILED)
    munmap(blocker, 4096);
  fprintf(stderr, "failures: %d\n", failures);
  return failures;
}
// CHECK-NOT: lost bytes
// CHECK: failures: 0
// Contexts in order of first allocation: make_large 11 accesses; the
// growths 2 each, of 2, 4 and 8 MiB (14680064 / 3 = 4893354.67 on
// average, which the text profile truncates to two decimals); the
// shrink 5.
// CHECK-LABEL: HeapProf profile:
// CHECK: Memory allocation stack id = [[MAKE:[0-9]+]]
// CHECK-NEXT: alloc_count 1, size (ave/min/max) 1048576.00 / 1048576 / 1048576
// CHECK-NEXT: access_count (ave/min/max): 11.00 / 11 / 11
// CHECK: Memory allocation stack id = [[GROW:[0-9]+]]
// CHECK-NEXT: alloc_count 3, size (ave/min/max) 4893354.66 / 2097152 / 8388608
// CHECK-NEXT: access_count (ave/min/max): 2.00 / 2 / 2
// CHECK: Memory allocation stack id = [[SHRINK:[0-9]+]]
// CHECK-NEXT: alloc_count 1, size (ave/min/max) 300000.00 / 300000 / 300000
// CHECK-NEXT: access_count (ave/min/max): 5.00 / 5 / 5
// CHECK: Stack for id [[MAKE]]:
// CHECK-NEXT: in make_large
// CHECK: Stack for id [[GROW]]:
// CHECK-NEXT: in grow_large
// CHECK: Stack for id [[SHRINK]]:
// CHECK-NEXT: in shrink_large
// Four reallocs (three growths, one shrink), all of them large to large.
// CHECK: HeapProf statistics:
// CHECK: reallocs 4 reallocations
// CHECK: inplace_reallocs 0
// REMAP-NEXT: mremap_reallocs 4
// COPY-NEXT: mremap_reallocs 0

// STALE: first growth moved: yes
// STALE-NEXT: HeapProf: ERROR: double-free on address
// STALE: program finished
