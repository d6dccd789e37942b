// aligned_alloc, memalign and __libc_memalign with alignments that are not
// powers of two answer as the glibc the program runs on: glibc before 2.38
// rounds the alignment up (aligned_alloc is memalign), 2.38 and later fail
// aligned_alloc with EINVAL. The oracle is glibc itself: the same program
// built without heapprof must print the same lines, under every mode (the
// default allocator, sampled, heapprof run, heapprof run on glibc's).
// RUN: %clang_plain -O0 -fno-builtin %s -o %t.plain
// RUN: %clang_rt_heapprof -O0 -fno-builtin %s -o %t
// RUN: %run %t.plain > %t.glibc
// RUN: %env_heapprof_opts=dump_at_exit=0 %run %t > %t.default
// RUN: diff %t.glibc %t.default
// RUN: %env_heapprof_opts=sample_bytes=1:dump_at_exit=0 %run %t > %t.sampled-all
// RUN: diff %t.glibc %t.sampled-all
// RUN: %env_heapprof_opts=sample_bytes=1099511627776:dump_at_exit=0 %run %t > %t.sampled-none
// RUN: diff %t.glibc %t.sampled-none
// RUN: rm -rf %t.dir && heapprof run -o %t.dir -- %t.plain > %t.run
// RUN: diff %t.glibc %t.run
// RUN: rm -rf %t.dir && heapprof run --allocator=system -o %t.dir -- %t.plain > %t.run-system
// RUN: diff %t.glibc %t.run-system
// RUN: FileCheck %s < %t.default
// REQUIRES: heapprof-driver
#include <errno.h>
#include <gnu/libc-version.h>
#include <malloc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void *__libc_memalign(size_t, size_t);

static void show(const char *fn, size_t align, void *p, int err) {
  // An alignment is met when the address is a multiple of the smallest
  // power of two at least as large as it (glibc's rounding).
  size_t need = 1;
  while (need < align && need)
    need <<= 1;
  printf("%s(%zu): %s", fn, align,
         !p ? "NULL" : (uintptr_t)p % (need ? need : 1) ? "MISALIGNED" : "aligned");
  if (!p)
    printf(" errno=%s", err == EINVAL ? "EINVAL" : err == ENOMEM ? "ENOMEM" : "other");
  printf("\n");
}

int main(void) {
  // The version line is part of the oracle: both builds run on one glibc.
  printf("glibc %s\n", gnu_get_libc_version());
  static const size_t aligns[] = {0, 1, 3, 12, 24, 48, 100, 4095, 4097,
                                  ((size_t)1 << 62) + 8, (size_t)1 << 63, ((size_t)1 << 63) + 1};
  for (unsigned i = 0; i < sizeof aligns / sizeof *aligns; i++) {
    size_t a = aligns[i];
    errno = 0;
    void *p = aligned_alloc(a, 64);
    show("aligned_alloc", a, p, errno);
    if (p)
      memset(p, 1, 64);
    free(p);
    errno = 0;
    p = memalign(a, 64);
    show("memalign", a, p, errno);
    free(p);
    errno = 0;
    p = __libc_memalign(a, 64);
    show("__libc_memalign", a, p, errno);
    free(p);
  }
  return 0;
}
// Whatever glibc says, a power of two is always served, and 2^63 + 1 has no
// power of two to round up to.
// CHECK: glibc 2.
// CHECK: aligned_alloc(1): aligned
// CHECK: memalign(24): aligned
// CHECK: __libc_memalign(4097): aligned
// CHECK: aligned_alloc(9223372036854775809): NULL errno=EINVAL
