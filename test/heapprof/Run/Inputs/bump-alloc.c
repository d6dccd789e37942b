/* A minimal allocator library for heapprof run --allocator=PATH: malloc,
 * free, calloc, realloc and posix_memalign, nothing else (no
 * malloc_usable_size, memalign, aligned_alloc, valloc, pvalloc), over a
 * bump arena of its own.  Each block has a 16-byte header: its size and a
 * magic word where glibc keeps a chunk's size (0x4242: glibc would read a
 * 16,944-byte mmapped chunk).  free of a block it did not hand out says so
 * and aborts; bump_owns(p) tells the program whose a block is. */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#define ARENA (64u << 20)
static _Alignas(4096) char arena[ARENA];
static size_t used;

int bump_owns(const void *p) {
  return (const char *)p >= arena && (const char *)p < arena + ARENA;
}

static void *take(size_t align, size_t n) {
  if (align < 16)
    align = 16;
  size_t old = __atomic_load_n(&used, __ATOMIC_RELAXED), at;
  do {
    at = (old + 16 + align - 1) & ~(align - 1);
    if (n > ARENA || at + n > ARENA)
      return NULL;
  } while (!__atomic_compare_exchange_n(&used, &old, at + n, 1,
                                        __ATOMIC_RELAXED, __ATOMIC_RELAXED));
  size_t *h = (size_t *)(arena + at) - 2;
  h[0] = n;
  h[1] = 0x4242;
  return arena + at;
}

void *malloc(size_t n) {
  void *p = take(16, n);
  if (!p)
    errno = ENOMEM;
  return p;
}

void free(void *p) {
  if (p && !bump_owns(p)) {
    static const char m[] = "bump-alloc: free of a block it did not hand out\n";
    write(2, m, sizeof(m) - 1);
    _exit(70);
  }
}

void *calloc(size_t a, size_t b) {
  size_t n;
  if (__builtin_mul_overflow(a, b, &n)) {
    errno = ENOMEM;
    return NULL;
  }
  return malloc(n); /* the arena is never reused: still zero */
}

void *realloc(void *p, size_t n) {
  if (!p)
    return malloc(n);
  free(p);
  void *q = malloc(n);
  if (q) {
    size_t old = ((size_t *)p)[-2];
    memcpy(q, p, old < n ? old : n);
  }
  return q;
}

int posix_memalign(void **out, size_t align, size_t n) {
  if (align < sizeof(void *) || (align & (align - 1)))
    return EINVAL;
  void *p = take(align, n);
  if (!p)
    return ENOMEM;
  *out = p;
  return 0;
}
