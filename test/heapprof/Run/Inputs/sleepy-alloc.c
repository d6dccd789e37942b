// An "allocator library" for allocator-descheduled.c: glibc's allocator
// under its own names, except that a malloc of exactly 777 bytes sleeps
// for 2 ms first, as an allocator blocking on a lock would: the calling
// thread loses the CPU inside the call.
#include <stddef.h>
#include <time.h>

void *__libc_malloc(size_t);
void __libc_free(void *);
void *__libc_calloc(size_t, size_t);
void *__libc_realloc(void *, size_t);
void *__libc_memalign(size_t, size_t);

void *malloc(size_t n) {
  if (n == 777) {
    struct timespec ts = {0, 2000000};
    nanosleep(&ts, NULL);
  }
  return __libc_malloc(n);
}
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
