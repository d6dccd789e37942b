// realloc and malloc_usable_size follow C and glibc: realloc(NULL, n) is
// malloc(n), realloc(p, 0) frees p and returns NULL, shrinking and growing
// keep the contents; malloc_usable_size is at least the requested size.
// RUN: %clang_rt_heapprof -O0 %s -o %t
// RUN: %env_heapprof_opts=log_path=stderr %run %t 2>&1 | FileCheck %s
// The same profile whether realloc keeps or moves its chunks.
// RUN: %env_heapprof_opts=log_path=stderr:realloc_in_place=0 %run %t 2>&1 | FileCheck %s
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;

static void check(const char *what, int ok) {
  fprintf(stderr, "%s: %s\n", what, ok ? "ok" : "FAIL");
  failures += !ok;
}

static int pattern_ok(const unsigned char *p, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (p[i] != (unsigned char)(i * 7 + 1))
      return 0;
  return 1;
}

static int pattern_byte_ok(const unsigned char *p, size_t n, unsigned char v) {
  for (size_t i = 0; i < n; i++)
    if (p[i] != v)
      return 0;
  return 1;
}

static void fill(unsigned char *p, size_t n) {
  for (size_t i = 0; i < n; i++)
    p[i] = (unsigned char)(i * 7 + 1);
}

__attribute__((noinline)) void *from_null(void) { return realloc(NULL, 40); }
__attribute__((noinline)) void *grow(void *p, size_t n) { return realloc(p, n); }

int main(void) {
  unsigned char *p = from_null();
  check("realloc(NULL, 40)", p && malloc_usable_size(p) >= 40);
  // CHECK: realloc(NULL, 40): ok
  fill(p, 40);
  // Grow within the primary, then into a large (mmap'd) chunk, then shrink;
  // one call site, so one context.
  static const size_t steps[] = {1000, 300000, 10};
  size_t have = 40;
  for (int i = 0; i < 3; i++) {
    p = grow(p, steps[i]);
    size_t keep = have < steps[i] ? have : steps[i];
    fprintf(stderr, "realloc to %zu keeps contents: %s\n", steps[i],
            p && pattern_ok(p, keep) && malloc_usable_size(p) >= steps[i]
                ? "ok"
                : "FAIL");
    fill(p, steps[i]);
    have = steps[i];
  }
  // CHECK: realloc to 1000 keeps contents: ok
  // CHECK: realloc to 300000 keeps contents: ok
  // CHECK: realloc to 10 keeps contents: ok
  p = realloc(p, 0);
  check("realloc(p, 0) returns NULL", p == NULL);
  // CHECK: realloc(p, 0) returns NULL: ok

  check("malloc_usable_size(NULL) == 0", malloc_usable_size(NULL) == 0);
  // CHECK: malloc_usable_size(NULL) == 0: ok
  int bad = 0;
  for (size_t n = 0; n < 5000; n += 37) {
    unsigned char *q = malloc(n);
    if (!q || malloc_usable_size(q) < n)
      bad++;
    else
      memset(q, 1, malloc_usable_size(q)); // the whole usable size is ours
    free(q);
  }
  check("malloc_usable_size >= requested", bad == 0);
  // CHECK: malloc_usable_size >= requested: ok
  // The whole usable size is the program's, and realloc keeps it (Redis's
  // strings grow into it): bytes written up to malloc_usable_size survive
  // a realloc to any larger size, small or large, kept or moved.
  bad = 0;
  for (size_t n = 1; n < 300000; n = n * 5 / 4 + 3) {
    unsigned char *q = malloc(n);
    size_t u = malloc_usable_size(q);
    memset(q, 0x5a, u);
    unsigned char *g = realloc(q, u + 1 + n / 2);
    if (!g || !pattern_byte_ok(g, u, 0x5a))
      bad++;
    free(g);
  }
  check("realloc keeps the usable size", bad == 0);
  // CHECK: realloc keeps the usable size: ok
  unsigned char *z = malloc(0);
  check("malloc(0) is a unique pointer", z != NULL);
  // CHECK: malloc(0) is a unique pointer: ok
  free(z);
  fprintf(stderr, "failures: %d\n", failures);
  // CHECK: failures: 0

  // Each realloc is an allocation of the realloc call's context, and the
  // old chunk is freed.  from_null: 40.  grow: 1000, 300000, 10.
  // CHECK: HeapProf profile:
  // CHECK: Memory allocation stack id = [[NULL_ID:[0-9]+]]
  // CHECK-NEXT: alloc_count 1, size (ave/min/max) 40.00 / 40 / 40
  // CHECK: live at dump: 0,
  // CHECK: Memory allocation stack id = [[GROW:[0-9]+]]
  // CHECK-NEXT: alloc_count 3, size (ave/min/max) 100336.66 / 10 / 300000
  // CHECK: live at dump: 0,
  // CHECK: Stack for id [[NULL_ID]]:
  // CHECK-NEXT: in from_null
  // CHECK: Stack for id [[GROW]]:
  // CHECK-NEXT: in grow
  return failures != 0;
}
