// A valid alignment no mapping can satisfy (2^62: a power of two and a
// multiple of sizeof(void *)) is an allocation failure, ENOMEM, as POSIX
// and glibc have it -- not EINVAL, which is for alignments the function's
// contract rejects.  memalign keeps glibc's EINVAL above 2^63, where no
// power of two is left to round up to.  With allocator_may_return_null=0
// the failure is reported like any other.
// RUN: %clang_rt_heapprof -O0 %s -o %t
// RUN: %env_heapprof_opts=log_path=%t.prof %run %t 2>&1 | FileCheck %s
// RUN: %env_heapprof_opts=log_path=%t.prof:allocator_may_return_null=0 not --crash %run %t 2>&1 | FileCheck %s --check-prefix=ABORT
#include <errno.h>
#include <malloc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static int failures;

static void check(const char *what, int ok) {
  fprintf(stderr, "%s: %s\n", what, ok ? "ok" : "FAIL");
  failures += !ok;
}

int main(void) {
  const size_t huge = (size_t)1 << 62;
  void *p = &failures;
  errno = 0;
  int r = posix_memalign(&p, huge, 16);
  /* errno ENOMEM as well, as glibc 2.36 sets it. */
  check("posix_memalign(2^62) ENOMEM", r == ENOMEM && p == &failures && errno == ENOMEM);
  // CHECK: posix_memalign(2^62) ENOMEM: ok
  // ABORT: HeapProf: ERROR: alignment-too-big: cannot allocate 0x10 (16) bytes
  // ABORT: HINT: HEAPPROF_OPTIONS=allocator_may_return_null=1
  errno = 0;
  p = aligned_alloc(huge, 16);
  check("aligned_alloc(2^62) ENOMEM", !p && errno == ENOMEM);
  // CHECK: aligned_alloc(2^62) ENOMEM: ok
  errno = 0;
  p = memalign(huge, 16);
  check("memalign(2^62) ENOMEM", !p && errno == ENOMEM);
  // CHECK: memalign(2^62) ENOMEM: ok
  errno = 0;
  p = memalign(huge + 1, 16); // rounds up to 2^63
  check("memalign(2^62 + 1) ENOMEM", !p && errno == ENOMEM);
  // CHECK: memalign(2^62 + 1) ENOMEM: ok
  errno = 0;
  p = memalign(((size_t)1 << 63) + 1, 16);
  check("memalign(2^63 + 1) EINVAL", !p && errno == EINVAL);
  // CHECK: memalign(2^63 + 1) EINVAL: ok
  // Still EINVAL: not a power of two, or not a multiple of sizeof(void *).
  p = &failures;
  check("posix_memalign(2^62 + 8) EINVAL",
        posix_memalign(&p, huge + 8, 16) == EINVAL && p == &failures);
  // CHECK: posix_memalign(2^62 + 8) EINVAL: ok
  // aligned_alloc fails it either way: EINVAL from glibc 2.38 on, ENOMEM
  // for the 2^63 it rounds up to before (aligned_alloc_glibc.c).
  errno = 0;
  p = aligned_alloc(huge + 8, 16);
  check("aligned_alloc(2^62 + 8) fails",
        !p && (errno == EINVAL || errno == ENOMEM));
  // CHECK: aligned_alloc(2^62 + 8) fails: ok
  // The largest alignment heapprof serves still works.
  p = NULL;
  check("posix_memalign(2^21)", posix_memalign(&p, (size_t)1 << 21, 16) == 0 &&
                                    (uintptr_t)p % ((size_t)1 << 21) == 0);
  // CHECK: posix_memalign(2^21): ok
  free(p);
  fprintf(stderr, "failures: %d\n", failures);
  // CHECK: failures: 0
  return failures != 0;
}
