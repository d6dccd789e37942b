// A minimal "allocator library" for the --allocator tests: glibc's
// allocator under its own names (through __libc_malloc and friends), plus
// operator new/delete that count their calls and print the counts at exit,
// so a test can see that heapprof run called the library's C++ forms.
#include <stddef.h>
#include <stdio.h>
#include <unistd.h>

void *__libc_malloc(size_t);
void __libc_free(void *);
void *__libc_calloc(size_t, size_t);
void *__libc_realloc(void *, size_t);
void *__libc_memalign(size_t, size_t);

void *malloc(size_t n) { return __libc_malloc(n); }
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

static long news, array_news, deletes, array_deletes;
void *_ZnwmRKSt9nothrow_t(size_t n, const void *nt) {
  news++;
  return __libc_malloc(n);
}
void *_ZnamRKSt9nothrow_t(size_t n, const void *nt) {
  array_news++;
  return __libc_malloc(n);
}
void _ZdlPv(void *p) {
  deletes++;
  __libc_free(p);
}
void _ZdaPv(void *p) {
  array_deletes++;
  __libc_free(p);
}

__attribute__((destructor)) static void report(void) {
  char buf[128];
  int n = snprintf(buf, sizeof buf,
                   "counting-alloc: new %ld new[] %ld delete %ld "
                   "delete[] %ld\n",
                   news, array_news, deletes, array_deletes);
  write(2, buf, n);
}
