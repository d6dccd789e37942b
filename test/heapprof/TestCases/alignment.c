// posix_memalign, aligned_alloc, memalign, valloc and pvalloc: alignment,
// argument checks (EINVAL) and sizes as C, POSIX and glibc define them
// (aligned_alloc's other alignments: aligned_alloc_glibc.c); the chunks are
// profiled with their requested sizes and freed normally.
// RUN: %clang_rt_heapprof -O0 -Wno-non-power-of-two-alignment %s -o %t
// RUN: %env_heapprof_opts=log_path=stderr %run %t 2>&1 | FileCheck %s
#include <errno.h>
#include <malloc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int failures;

static void check(const char *what, int ok) {
  fprintf(stderr, "%s: %s\n", what, ok ? "ok" : "FAIL");
  failures += !ok;
}

static int aligned(void *p, size_t a) { return p && (uintptr_t)p % a == 0; }

int main(void) {
  size_t page = (size_t)sysconf(_SC_PAGESIZE);
  void *p = NULL;

  // posix_memalign: power of two and multiple of sizeof(void *), or EINVAL
  // with *memptr and errno untouched.
  static const size_t good[] = {8, 16, 32, 64, 128, 4096, 65536, 1 << 21};
  for (int i = 0; i < 8; i++) {
    p = NULL;
    int r = posix_memalign(&p, good[i], 100);
    if (r || !aligned(p, good[i]) || malloc_usable_size(p) < 100) {
      fprintf(stderr, "posix_memalign(%zu) r=%d p=%p\n", good[i], r, p);
      failures++;
    }
    memset(p, 0xab, 100);
    free(p);
  }
  check("posix_memalign good alignments", failures == 0);
  // CHECK: posix_memalign good alignments: ok
  static const size_t bad[] = {0, 1, 2, 4, 3, 24, 48, 4095};
  for (int i = 0; i < 8; i++) {
    void *out = &failures;
    errno = 0;
    int r = posix_memalign(&out, bad[i], 16);
    if (r != EINVAL || out != &failures || errno != 0) {
      fprintf(stderr, "posix_memalign(%zu) r=%d\n", bad[i], r);
      failures++;
    }
  }
  check("posix_memalign bad alignments give EINVAL", failures == 0);
  // CHECK: posix_memalign bad alignments give EINVAL: ok
  // Size 0: success with a pointer free() accepts (or NULL).
  p = &failures;
  check("posix_memalign size 0", posix_memalign(&p, 64, 0) == 0 && p != &failures);
  // CHECK: posix_memalign size 0: ok
  free(p);
  // Size 0 at every alignment: free() must accept each pointer (a report
  // would abort the program here).
  for (size_t a = 64; a <= 8192; a *= 2) {
    void *q = NULL;
    if (posix_memalign(&q, a, 0) || !aligned(q, a))
      failures++;
    free(q);
    q = aligned_alloc(a, 0);
    free(q);
    q = memalign(a, 0);
    free(q);
  }
  check("aligned size 0 chunks free cleanly", failures == 0);
  // CHECK: aligned size 0 chunks free cleanly: ok

  // aligned_alloc: power-of-two alignment.
  p = aligned_alloc(64, 200);
  check("aligned_alloc(64, 200)", aligned(p, 64) && malloc_usable_size(p) >= 200);
  // CHECK: aligned_alloc(64, 200): ok
  free(p);
  p = aligned_alloc(4096, 4096);
  check("aligned_alloc(4096, 4096)", aligned(p, 4096));
  // CHECK: aligned_alloc(4096, 4096): ok
  free(p);
  // A non-power-of-two alignment answers as the glibc the program runs on
  // (aligned_alloc_glibc.c); 2^63 + 1 has no power of two above it.
  errno = 0;
  p = aligned_alloc(((size_t)1 << 63) + 1, 30);
  check("aligned_alloc(2^63 + 1) EINVAL", !p && errno == EINVAL);
  // CHECK: aligned_alloc(2^63 + 1) EINVAL: ok

  // memalign: glibc rounds a non-power-of-two alignment up.
  p = memalign(128, 10);
  check("memalign(128, 10)", aligned(p, 128));
  // CHECK: memalign(128, 10): ok
  free(p);
  p = memalign(48, 10);
  check("memalign(48) rounds up to 64", aligned(p, 64));
  // CHECK: memalign(48) rounds up to 64: ok
  free(p);

  // valloc: page aligned, requested size.
  p = valloc(10);
  check("valloc(10)", aligned(p, page) && malloc_usable_size(p) >= 10);
  // CHECK: valloc(10): ok
  free(p);
  // pvalloc: page aligned, size rounded up to whole pages (0 -> one page).
  p = pvalloc(10);
  check("pvalloc(10)", aligned(p, page) && malloc_usable_size(p) >= page);
  // CHECK: pvalloc(10): ok
  free(p);
  p = pvalloc(0);
  check("pvalloc(0)", aligned(p, page) && malloc_usable_size(p) >= page);
  // CHECK: pvalloc(0): ok
  free(p);
  p = pvalloc(page + 1);
  check("pvalloc(page + 1)", aligned(p, page) && malloc_usable_size(p) >= 2 * page);
  // CHECK: pvalloc(page + 1): ok
  free(p);

  fprintf(stderr, "failures: %d\n", failures);
  // CHECK: failures: 0
  // Every chunk was freed through the normal path.
  // CHECK: HeapProf profile:
  // CHECK-NOT: live at dump: {{[1-9]}}
  // CHECK: Summary:
  return failures != 0;
}
