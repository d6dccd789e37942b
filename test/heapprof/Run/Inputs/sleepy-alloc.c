// An "allocator library" for allocator-descheduled.c: glibc's allocator
// under its own names, except that a malloc of exactly 777 bytes sleeps
// first, as an allocator blocking on a lock would: the calling thread loses
// the CPU inside the call.  A 2 ms sleep need not switch (a virtual CPU
// stalled by its host past the timer's expiry before the thread reaches
// the scheduler returns without one), so the call sleeps again until the
// kernel's count of the thread's context switches has moved.
#define _GNU_SOURCE /* RUSAGE_THREAD */
#include <stddef.h>
#include <sys/resource.h>
#include <time.h>

static long switches(void) {
  struct rusage ru;
  getrusage(RUSAGE_THREAD, &ru);
  return ru.ru_nvcsw + ru.ru_nivcsw;
}

void *__libc_malloc(size_t);
void __libc_free(void *);
void *__libc_calloc(size_t, size_t);
void *__libc_realloc(void *, size_t);
void *__libc_memalign(size_t, size_t);

void *malloc(size_t n) {
  if (n == 777) {
    struct timespec ts = {0, 2000000};
    long before = switches();
    do
      nanosleep(&ts, NULL);
    while (switches() == before);
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
