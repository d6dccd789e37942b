// Allocation failure does not change the program: by default malloc, calloc,
// realloc and friends return NULL with errno = ENOMEM, as libc's do; with
// allocator_may_return_null=0 the failure is reported and the program aborts
// (after writing its profile).
// RUN: %clang_rt_heapprof -O0 %s -o %t
// RUN: %env_heapprof_opts=log_path=stderr %run %t all 2>&1 | FileCheck %s
// RUN: %env_heapprof_opts=log_path=stderr:max_allocation_size_mb=1 %run %t limit 2>&1 | FileCheck %s --check-prefix=LIMIT
// RUN: %env_heapprof_opts=log_path=stderr:allocator_may_return_null=0 not --crash %run %t malloc 2>&1 | FileCheck %s --check-prefix=ABORT-MALLOC
// RUN: %env_heapprof_opts=log_path=stderr:allocator_may_return_null=0 not --crash %run %t calloc 2>&1 | FileCheck %s --check-prefix=ABORT-CALLOC
// RUN: %env_heapprof_opts=log_path=stderr %run %t calloc 2>&1 | FileCheck %s --check-prefix=CALLOC-FIRST
// RUN: %env_heapprof_opts=log_path=stderr:allocator_may_return_null=0 not --crash %run %t reallocarray 2>&1 | FileCheck %s --check-prefix=ABORT-REALLOCARRAY
#include <errno.h>
#include <malloc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HUGE_SIZE ((size_t)1 << 50) // far beyond any machine

static int failures;

static void expect_null(const char *what, void *p) {
  int e = errno;
  if (p || e != ENOMEM) {
    fprintf(stderr, "FAIL: %s returned %p, errno %d\n", what, p, e);
    failures++;
  } else {
    fprintf(stderr, "%s: NULL, ENOMEM\n", what);
  }
}

__attribute__((noinline)) void *huge_malloc(void) { return malloc(HUGE_SIZE); }
__attribute__((noinline)) void *huge_calloc(void) {
  return calloc(SIZE_MAX / 2, 3);
}
__attribute__((noinline)) void *huge_reallocarray(void) {
  return reallocarray(NULL, 1000, SIZE_MAX / 999);
}

int main(int argc, char **argv) {
  if (!strcmp(argv[1], "malloc")) {
    huge_malloc();
    fprintf(stderr, "program finished\n");
    return 0;
  }
  if (!strcmp(argv[1], "calloc")) {
    // The program's first allocation call: the runtime initializes here.
    errno = 0;
    expect_null("first call calloc overflow", huge_calloc());
    fprintf(stderr, "program finished\n");
    return 0;
  }
  if (!strcmp(argv[1], "reallocarray")) {
    huge_reallocarray();
    fprintf(stderr, "program finished\n");
    return 0;
  }
  if (!strcmp(argv[1], "limit")) {
    void *small = malloc(1 << 20); // exactly the limit: fine
    errno = 0;
    void *big = malloc((1 << 20) + 1);
    fprintf(stderr, "limit: %s %s %s\n", small ? "ok" : "NULL",
            big ? "BIG" : "NULL", errno == ENOMEM ? "ENOMEM" : "no errno");
    // LIMIT: limit: ok NULL ENOMEM
    // A large chunk realloc'd past the limit: not by mremap either.
    errno = 0;
    char *grown = realloc(small, 2 << 20);
    fprintf(stderr, "limit realloc: %s %s\n", grown ? "BIG" : "NULL",
            errno == ENOMEM ? "ENOMEM" : "no errno");
    // LIMIT: limit realloc: NULL ENOMEM
    free(small);
    return 0;
  }
  errno = 0;
  expect_null("malloc(huge)", huge_malloc());
  // CHECK: malloc(huge): NULL, ENOMEM
  errno = 0;
  expect_null("malloc(SIZE_MAX)", malloc(SIZE_MAX));
  // CHECK: malloc(SIZE_MAX): NULL, ENOMEM
  // n * size overflows.
  errno = 0;
  expect_null("calloc overflow", huge_calloc());
  // CHECK: calloc overflow: NULL, ENOMEM
  errno = 0;
  expect_null("calloc(1, huge)", calloc(1, HUGE_SIZE));
  // CHECK: calloc(1, huge): NULL, ENOMEM
  // realloc failure leaves the old block alone.
  char *p = malloc(16);
  strcpy(p, "still here");
  errno = 0;
  expect_null("realloc(p, huge)", realloc(p, HUGE_SIZE));
  // CHECK: realloc(p, huge): NULL, ENOMEM
  fprintf(stderr, "old block: %s\n", p);
  // CHECK: old block: still here
  // Sizes near SIZE_MAX: the size plus the chunk's header would wrap to a
  // small one that fits the 16-byte chunk's block (it once returned p).
  int wrapped = 0;
  for (size_t k = 0; k < 64; k++) {
    errno = 0;
    void *q = realloc(p, SIZE_MAX - k);
    if (q || errno != ENOMEM)
      wrapped++;
  }
  fprintf(stderr, "realloc(p, SIZE_MAX - 0..63): %d not failed\n", wrapped);
  // CHECK: realloc(p, SIZE_MAX - 0..63): 0 not failed
  fprintf(stderr, "old block: %s\n", p);
  // CHECK: old block: still here
  // The same for a large chunk (one realloc would resize with mremap).
  char *l = malloc(1 << 20);
  strcpy(l + (1 << 19), "large still here");
  errno = 0;
  expect_null("realloc(large, huge)", realloc(l, HUGE_SIZE));
  // CHECK: realloc(large, huge): NULL, ENOMEM
  fprintf(stderr, "old large block: %s\n", l + (1 << 19));
  // CHECK: old large block: large still here
  wrapped = 0;
  for (size_t k = 0; k < 64; k++) {
    errno = 0;
    void *q = realloc(l, SIZE_MAX - k);
    if (q || errno != ENOMEM)
      wrapped++;
  }
  fprintf(stderr, "realloc(large, SIZE_MAX - 0..63): %d not failed\n", wrapped);
  // CHECK: realloc(large, SIZE_MAX - 0..63): 0 not failed
  free(l);
  free(p);
  errno = 0;
  expect_null("reallocarray overflow", reallocarray(NULL, SIZE_MAX / 2, 3));
  // CHECK: reallocarray overflow: NULL, ENOMEM
  errno = 0;
  expect_null("aligned_alloc(64, huge)", aligned_alloc(64, HUGE_SIZE));
  // CHECK: aligned_alloc(64, huge): NULL, ENOMEM
  errno = 0;
  expect_null("valloc(huge)", valloc(HUGE_SIZE));
  // CHECK: valloc(huge): NULL, ENOMEM
  errno = 0;
  expect_null("pvalloc(SIZE_MAX)", pvalloc(SIZE_MAX));
  // CHECK: pvalloc(SIZE_MAX): NULL, ENOMEM
  // posix_memalign reports through its result, and sets errno to ENOMEM
  // too, as glibc 2.36 does (heapprof had left it alone).
  void *out = &failures;
  errno = 0;
  int r = posix_memalign(&out, 64, HUGE_SIZE);
  fprintf(stderr, "posix_memalign(huge): %s, errno %s, out %s\n",
          r == ENOMEM ? "ENOMEM" : "WRONG", errno == ENOMEM ? "ENOMEM" : "WRONG",
          out == &failures ? "untouched" : "CHANGED");
  // CHECK: posix_memalign(huge): ENOMEM, errno ENOMEM, out untouched
  fprintf(stderr, "failures: %d\n", failures);
  // CHECK: failures: 0
  // Failed allocations are not profiled: the 16 bytes and the 1 MiB.
  // CHECK: HeapProf profile:
  // CHECK: Summary: 2 contexts, 2 allocations, 1048592 bytes
  return failures != 0;
}
// ABORT-MALLOC: HeapProf: ERROR: allocation-size-too-big: cannot allocate 0x4000000000000 (1125899906842624) bytes (pc 0x{{[0-9a-f]+}})
// ABORT-MALLOC-NEXT: #0 0x{{[0-9a-f]+}} in huge_malloc {{.*}}malloc_failure.c
// ABORT-MALLOC-NEXT: #1 0x{{[0-9a-f]+}} in main {{.*}}malloc_failure.c
// ABORT-MALLOC: HINT: HEAPPROF_OPTIONS=allocator_may_return_null=1 returns NULL with errno=ENOMEM instead
// ABORT-MALLOC-NEXT: HeapProf: ABORTING
// ABORT-MALLOC-NEXT: HeapProf profile: {{.*}}, error, dump 0
// ABORT-MALLOC-NOT: program finished

// CALLOC-FIRST: first call calloc overflow: NULL, ENOMEM
// CALLOC-FIRST: program finished

// The count and the size, not a made-up total: SIZE_MAX / 2 is
// 9223372036854775807, and times 3 it does not fit.
// ABORT-CALLOC: HeapProf: ERROR: calloc-overflow: 9223372036854775807 objects of 3 bytes: the total does not fit in size_t (pc 0x{{[0-9a-f]+}})
// ABORT-CALLOC-NEXT: #0 0x{{[0-9a-f]+}} in huge_calloc {{.*}}malloc_failure.c
// ABORT-CALLOC-NEXT: #1 0x{{[0-9a-f]+}} in main {{.*}}malloc_failure.c
// ABORT-CALLOC: HINT: HEAPPROF_OPTIONS=allocator_may_return_null=1
// ABORT-CALLOC-NEXT: HeapProf: ABORTING
// ABORT-CALLOC-NOT: program finished
// SIZE_MAX / 999 is 18465209282992544; 1000 of them are past SIZE_MAX.
// ABORT-REALLOCARRAY: HeapProf: ERROR: reallocarray-overflow: 1000 objects of 18465209282992544 bytes: the total does not fit in size_t (pc 0x{{[0-9a-f]+}})
// ABORT-REALLOCARRAY-NEXT: #0 0x{{[0-9a-f]+}} in huge_reallocarray {{.*}}malloc_failure.c
// ABORT-REALLOCARRAY: HeapProf: ABORTING
// ABORT-REALLOCARRAY-NOT: program finished
