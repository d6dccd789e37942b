// glibc_rest: an allocator library's functions that are glibc's allocator
// under their own names (through __libc_malloc and friends): free, calloc,
// realloc, memalign, aligned_alloc and posix_memalign.  The library
// (Run/Inputs/counting-alloc.c, Run/Inputs/sleepy-alloc.c) writes its own
// malloc, and what it is about.
#ifndef HEAPPROF_TEST_GLIBC_REST_H
#define HEAPPROF_TEST_GLIBC_REST_H
#include <stddef.h>

void *__libc_malloc(size_t);
void __libc_free(void *);
void *__libc_calloc(size_t, size_t);
void *__libc_realloc(void *, size_t);
void *__libc_memalign(size_t, size_t);

void free(void *p) { __libc_free(p); }
void *calloc(size_t n, size_t s) { return __libc_calloc(n, s); }
void *realloc(void *p, size_t n) { return __libc_realloc(p, n); }
void *memalign(size_t a, size_t n) { return __libc_memalign(a, n); }
void *aligned_alloc(size_t a, size_t n) { return __libc_memalign(a, n); }
int posix_memalign(void **out, size_t a, size_t n) {
  void *p = __libc_memalign(a, n);
  if (!p)
    return 12; /* ENOMEM */
  *out = p;
  return 0;
}

#endif
