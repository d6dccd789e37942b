/*===- heapprof_interceptors.c - libc replacements ----------------------===
 *
 * Part of heapprof.  The runtime is linked into the executable (whole
 * archive, exported through a dynamic list), so these definitions replace
 * libc's for the program and for every shared library.
 *
 * Allocation functions go to heapprof's allocator with C and POSIX
 * semantics (errno, NULL, alignment rules as glibc 2.36 has them).
 *
 * String and memory functions count the ranges they touch with the range
 * rule (one access per 8-byte word, see heapprof_shadow.h), then do the
 * work with libc's own implementation, found with dlsym(RTLD_NEXT) once the
 * runtime is up (the runtime's simple versions serve until then).
 *===----------------------------------------------------------------------===*/
#include "heapprof_internal.h"

#include <dlfcn.h>
#include <errno.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#include <stdint.h>

static void count(const void *p, uptr n) {
  if (n)
    hp_shadow_record_range((uptr)p, n);
}

/* --------------------------------------------------------- allocation */

/* allocator=system|PATH (heapprof_foreign.c): malloc, free and realloc
 * reach it through hp_allocate/hp_deallocate/hp_reallocate (one test per
 * call); the others test here, keeping the wrapped allocator's own
 * argument checks and errno. */

/* Sampled mode (heapprof_sample.h): malloc, free, calloc and realloc
 * hand over here, before hp_allocate and the foreign hook, which would cost
 * an unsampled call two more calls (measured: docs/design.md).
 *
 * malloc, free, calloc and realloc have no frame of their own: this file is
 * compiled with -momit-leaf-frame-pointer, and they end in tail calls only
 * (musttail, since the runtime is built with -fno-optimize-sibling-calls so
 * that no other function loses the frame its callee is handed).  An
 * unsampled call is then the mode's test, the countdown (or the mark's
 * test) and a jump to glibc's function, where a frame of their own and a
 * call cost 8 more instructions each (docs/performance.md, "Sampled
 * mode").  Everything else jumps to a function below that makes the frame:
 * a jumped-to function's frame stands where its caller's would have stood,
 * with the caller's return address and the caller's caller's rbp, so
 * HP_ENTRY_FP() there is what it was in the entry point. */
static HP_NOINLINE void *malloc_framed(size_t size) {
  return hp_allocate(size, 0, HP_ALLOC_MALLOC, HP_ENTRY_FP(), false);
}
static HP_NOINLINE void *malloc_sampled(size_t size) {
  return hp_sample_malloc_slow(size, HP_ENTRY_FP());
}
static HP_NOINLINE void *malloc_foreign(size_t size) {
  return hp_foreign_malloc(size, HP_ENTRY_FP());
}
HP_INTERFACE void *malloc(size_t size) {
  if (HP_ANOTHER_ALLOCATOR()) {
    if (HP_SAMPLED_MODE()) {
      if (HP_LIKELY(hp_sample_skip(size)))
        HP_MUSTTAIL return __libc_malloc(size);
      HP_MUSTTAIL return malloc_sampled(size);
    }
    HP_MUSTTAIL return malloc_foreign(size);
  }
  HP_MUSTTAIL return malloc_framed(size);
}

static HP_NOINLINE void free_framed(void *p) {
  hp_deallocate(p, HP_ALLOC_MALLOC, HP_ENTRY_FP());
}
static HP_NOINLINE void free_sampled(void *p) {
  hp_sample_free(p, HP_ALLOC_MALLOC, HP_ENTRY_FP());
}
static HP_NOINLINE void free_foreign(void *p) {
  hp_foreign_free(p, HP_ALLOC_MALLOC, HP_ENTRY_FP());
}
HP_INTERFACE void free(void *p) {
  if (HP_ANOTHER_ALLOCATOR()) {
    if (HP_SAMPLED_MODE()) {
      if (HP_LIKELY(p && hp_sample_unmarked(p)))
        HP_MUSTTAIL return __libc_free(p);
      HP_MUSTTAIL return free_sampled(p);
    }
    HP_MUSTTAIL return free_foreign(p);
  }
  HP_MUSTTAIL return free_framed(p);
}

HP_INTERFACE void cfree(void *p) {
  hp_deallocate(p, HP_ALLOC_MALLOC, HP_ENTRY_FP());
}

static HP_NOINLINE void *calloc_framed(size_t n, size_t size) {
  if (HP_FOREIGN_HOOK())
    return hp_foreign_calloc(n, size, HP_ENTRY_FP());
  size_t total;
  if (__builtin_mul_overflow(n, size, &total))
    return hp_allocation_overflow(n, size, HP_ENTRY_FP(), "calloc-overflow");
  return hp_allocate(total, 0, HP_ALLOC_MALLOC, HP_ENTRY_FP(), true);
}
static HP_NOINLINE void *calloc_sampled(size_t n, size_t size) {
  return hp_sample_calloc(n, size, HP_ENTRY_FP()); /* decides again */
}
/* Frameless, as malloc is; an overflowing product goes to the slow path,
 * which fails it with ENOMEM. */
HP_INTERFACE void *calloc(size_t n, size_t size) {
  if (HP_SAMPLED_MODE()) {
    size_t total;
    if (HP_LIKELY(!__builtin_mul_overflow(n, size, &total) &&
                  hp_sample_skip(total)))
      HP_MUSTTAIL return __libc_calloc(n, size);
    HP_MUSTTAIL return calloc_sampled(n, size);
  }
  HP_MUSTTAIL return calloc_framed(n, size);
}

static HP_NOINLINE void *realloc_framed(void *p, size_t size) {
  return hp_reallocate(p, size, HP_ENTRY_FP());
}
static HP_NOINLINE void *realloc_sampled(void *p, size_t size) {
  return hp_sample_realloc(p, size, HP_ENTRY_FP()); /* decides again */
}
HP_INTERFACE void *realloc(void *p, size_t size) {
  if (HP_SAMPLED_MODE()) {
    if (HP_LIKELY(p && size && hp_sample_unmarked(p) && hp_sample_skip(size)))
      HP_MUSTTAIL return __libc_realloc(p, size);
    HP_MUSTTAIL return realloc_sampled(p, size);
  }
  HP_MUSTTAIL return realloc_framed(p, size);
}

HP_INTERFACE void *reallocarray(void *p, size_t n, size_t size) {
  if (HP_FOREIGN_HOOK())
    return hp_foreign_reallocarray(p, n, size, HP_ENTRY_FP());
  size_t total;
  if (__builtin_mul_overflow(n, size, &total))
    return hp_allocation_overflow(n, size, HP_ENTRY_FP(),
                                  "reallocarray-overflow");
  return hp_reallocate(p, total, HP_ENTRY_FP());
}

/* glibc's memalign, also its __libc_memalign: EINVAL above 2^63 (no power
 * of two to round up to); any other alignment is rounded up to a power of
 * two. A valid alignment too big for any mapping (above 2^40) still reaches
 * hp_allocate, which fails it with ENOMEM as glibc does: EINVAL is only for
 * alignments the function's contract rejects. */
static void *memalign_rounded(size_t align, size_t size, uptr fp) {
  if (!hp_libc_memalign_round(&align)) {
    errno = EINVAL;
    return NULL;
  }
  return hp_allocate(size, align, HP_ALLOC_MALLOC, fp, false);
}

HP_INTERFACE void *memalign(size_t align, size_t size) {
  if (HP_FOREIGN_HOOK())
    return hp_foreign_memalign(align, size, HP_ENTRY_FP());
  return memalign_rounded(align, size, HP_ENTRY_FP());
}

HP_INTERFACE void *__libc_memalign(size_t align, size_t size) {
  if (HP_FOREIGN_HOOK())
    return hp_foreign_memalign(align, size, HP_ENTRY_FP());
  return memalign_rounded(align, size, HP_ENTRY_FP());
}

HP_INTERFACE int posix_memalign(void **out, size_t align, size_t size) {
  if (HP_FOREIGN_HOOK())
    return hp_foreign_posix_memalign(out, align, size, HP_ENTRY_FP());
  if (!hp_is_pow2(align) || align % sizeof(void *))
    return EINVAL;
  /* errno as glibc's: untouched on success, ENOMEM on failure (which
   * hp_allocate sets). */
  int saved = errno;
  void *p = hp_allocate(size, align, HP_ALLOC_MALLOC, HP_ENTRY_FP(), false);
  if (!p)
    return ENOMEM;
  errno = saved;
  *out = p;
  return 0;
}

HP_INTERFACE void *aligned_alloc(size_t align, size_t size) {
  if (HP_FOREIGN_HOOK())
    return hp_foreign_aligned_alloc(align, size, HP_ENTRY_FP());
  /* As the glibc the program runs on: a non-power-of-two alignment fails
   * from 2.38 on and is rounded up before. */
  if (!hp_is_pow2(align)) {
    if (hp_libc_aligned_alloc_strict()) {
      errno = EINVAL;
      return NULL;
    }
    return memalign_rounded(align, size, HP_ENTRY_FP());
  }
  return hp_allocate(size, align, HP_ALLOC_MALLOC, HP_ENTRY_FP(), false);
}

HP_INTERFACE void *valloc(size_t size) {
  if (HP_FOREIGN_HOOK())
    return hp_foreign_valloc(size, HP_ENTRY_FP());
  return hp_allocate(size, HP_PAGE_SIZE, HP_ALLOC_MALLOC, HP_ENTRY_FP(), false);
}

HP_INTERFACE void *pvalloc(size_t size) {
  if (HP_FOREIGN_HOOK())
    return hp_foreign_pvalloc(size, HP_ENTRY_FP());
  size_t rounded = size ? HP_ROUND_UP(size, HP_PAGE_SIZE) : HP_PAGE_SIZE;
  if (rounded < size)
    return hp_allocation_failed(size, HP_ENTRY_FP(), "pvalloc-overflow",
                                HP_ALLOC_MALLOC);
  return hp_allocate(rounded, HP_PAGE_SIZE, HP_ALLOC_MALLOC, HP_ENTRY_FP(),
                     false);
}

HP_INTERFACE size_t malloc_usable_size(void *p) { return hp_usable_size(p); }

/* ------------------------------------------------------ memory, strings */

typedef void *(*memcpy_fn)(void *, const void *, size_t);
typedef void *(*memset_fn)(void *, int, size_t);
typedef size_t (*strlen_fn)(const char *);
typedef size_t (*strnlen_fn)(const char *, size_t);
typedef int (*memcmp_fn)(const void *, const void *, size_t);
typedef void *(*memchr_fn)(const void *, int, size_t);

/* Sampled mode counts no ranges (docs/user-guide.md "Sampled mode"): the
 * functions go straight to libc's.  These are the ones the runtime has no
 * libc pointer for otherwise; resolved only in sampled mode. */
#define HP_SAMPLED_PASS_FUNCS(X)                                             \
  X(char *, strcpy, (char *, const char *), (d, s))                          \
  X(char *, stpcpy, (char *, const char *), (d, s))                          \
  X(char *, strncpy, (char *, const char *, size_t), (d, s, n))              \
  X(char *, strcat, (char *, const char *), (d, s))                          \
  X(char *, strncat, (char *, const char *, size_t), (d, s, n))              \
  X(int, strcmp, (const char *, const char *), (a, b))                       \
  X(int, strncmp, (const char *, const char *, size_t), (a, b, n))           \
  X(char *, strchr, (const char *, int), (s, c))                             \
  X(char *, strrchr, (const char *, int), (s, c))                            \
  X(int, bcmp, (const void *, const void *, size_t), (a, b, n))
#define X(ret, name, params, args) static ret(*sampled_##name) params;
HP_SAMPLED_PASS_FUNCS(X)
#undef X
/* In sampled mode, once resolved: the libc function fn, called with args,
 * as a tail call (fn has the entry point's type), so an unsampled program
 * pays a test and a jump, not a frame (the runtime is built without
 * sibling calls, for the allocation entry points' stacks). */
#define SAMPLED_PASS(fn, args)                                               \
  do {                                                                       \
    if (HP_UNLIKELY(hp_sample_bytes) && fn)                                  \
      __attribute__((musttail)) return fn args;                              \
  } while (0)

/* Set once by hp_interceptors_resolve (after init); NULL before. */
static memcpy_fn real_memcpy, real_memmove;
static memset_fn real_memset;
static strlen_fn real_strlen;
static strnlen_fn real_strnlen;
static memcmp_fn real_memcmp;
static memchr_fn real_memchr;
/* libc's memcpy, memmove and memset again, set only when ranges are
 * counted (not in sampled mode): what the short-copy fast paths below
 * jump to.  NULL (the slow path) until then. */
static memcpy_fn fast_memcpy, fast_memmove;
static memset_fn fast_memset;

void hp_interceptors_resolve(void) {
  real_memcpy = (memcpy_fn)dlsym(RTLD_NEXT, "memcpy");
  real_memmove = (memcpy_fn)dlsym(RTLD_NEXT, "memmove");
  real_memset = (memset_fn)dlsym(RTLD_NEXT, "memset");
  real_strlen = (strlen_fn)dlsym(RTLD_NEXT, "strlen");
  real_strnlen = (strnlen_fn)dlsym(RTLD_NEXT, "strnlen");
  real_memcmp = (memcmp_fn)dlsym(RTLD_NEXT, "memcmp");
  real_memchr = (memchr_fn)dlsym(RTLD_NEXT, "memchr");
  if (hp_sample_bytes) {
#define X(ret, name, params, args) sampled_##name = (ret(*) params)dlsym(RTLD_NEXT, #name);
    HP_SAMPLED_PASS_FUNCS(X)
#undef X
  } else {
    /* The shadow is mapped (init maps it before this runs). */
    fast_memcpy = real_memcpy;
    fast_memmove = real_memmove;
    fast_memset = real_memset;
  }
}

static HP_ALWAYS_INLINE void do_memcpy(void *d, const void *s, size_t n) {
  if (HP_LIKELY(real_memcpy))
    real_memcpy(d, s, n);
  else
    hp_memcpy(d, s, n);
}

static HP_ALWAYS_INLINE void do_memmove(void *d, const void *s, size_t n) {
  if (HP_LIKELY(real_memmove))
    real_memmove(d, s, n);
  else
    hp_memmove(d, s, n);
}

static HP_ALWAYS_INLINE void do_memset(void *d, int c, size_t n) {
  if (HP_LIKELY(real_memset))
    real_memset(d, c, n);
  else
    hp_memset(d, c, n);
}

static HP_ALWAYS_INLINE size_t do_strlen(const char *s) {
  return HP_LIKELY(real_strlen) ? real_strlen(s) : hp_strlen(s);
}

static HP_ALWAYS_INLINE size_t do_strnlen(const char *s, size_t n) {
  return HP_LIKELY(real_strnlen) ? real_strnlen(s, n) : hp_strnlen(s, n);
}

/* The bodies shared by libc's names and the ABI entry points the pass
 * calls instead of the memory intrinsics. */
static HP_ALWAYS_INLINE void *counted_memcpy(void *d, const void *s, size_t n) {
  count(s, n);
  count(d, n);
  do_memcpy(d, s, n);
  return d;
}

static HP_ALWAYS_INLINE void *counted_memmove(void *d, const void *s,
                                              size_t n) {
  count(s, n);
  count(d, n);
  do_memmove(d, s, n);
  return d;
}

static HP_ALWAYS_INLINE void *counted_memset(void *d, int c, size_t n) {
  count(d, n);
  do_memset(d, c, n);
  return d;
}

/* The fast paths: a copy or fill of 1 to 64 bytes in user space (most of
 * a program's calls), once libc's functions are known and ranges counted.
 * The counts go in inline (hp_shadow_record_short) and libc's function is
 * then a tail call: no frame of ours under it and no register saved.  The
 * rest (long ranges, before init) takes the *_rest functions, themselves a
 * tail call.  The fast and the slow path count alike. */
static HP_ALWAYS_INLINE bool two_short(const void *d, const void *s,
                                       size_t n) {
  uptr a = (uptr)d, b = (uptr)s;
  return n - 1 < HP_GRANULE_SIZE &&
         ((a | b | (a + n - 1) | (b + n - 1)) < HP_USER_SPACE_END);
}

/* Both ranges of a short copy: the shadow's base read once (a counter
 * store could alias it otherwise). */
static HP_ALWAYS_INLINE void record_two(const void *d, const void *s,
                                        size_t n) {
  uptr base = __heapprof_shadow_memory_dynamic_address;
  hp_shadow_record_short_at(base, (uptr)s, (uptr)s + n - 1);
  hp_shadow_record_short_at(base, (uptr)d, (uptr)d + n - 1);
}

/* In a copy's entry point: the fast path, when fn (fast_memcpy or
 * fast_memmove) is set and both ranges are short. */
#define SHORT_COPY(fn, d, s, n)                                              \
  do {                                                                       \
    if (HP_LIKELY(fn && two_short(d, s, n))) {                               \
      record_two(d, s, n);                                                   \
      __attribute__((musttail)) return fn(d, s, n);                          \
    }                                                                        \
  } while (0)

/* The same for a fill (fast_memset). */
#define SHORT_FILL(fn, d, c, n)                                              \
  do {                                                                       \
    if (HP_LIKELY(fn && hp_shadow_short_range((uptr)d, n))) {                \
      hp_shadow_record_short((uptr)d, (uptr)d + n - 1);                      \
      __attribute__((musttail)) return fn(d, c, n);                          \
    }                                                                        \
  } while (0)

/* Everything the fast paths leave, counted: the entry points have passed
 * sampled mode to libc already (libc's names; the pass's entry points
 * count in sampled mode too, as only sampled objects' counters are
 * read). */
static HP_NOINLINE void *memcpy_rest(void *d, const void *s, size_t n) {
  return counted_memcpy(d, s, n);
}

static HP_NOINLINE void *memmove_rest(void *d, const void *s, size_t n) {
  return counted_memmove(d, s, n);
}

static HP_NOINLINE void *memset_rest(void *d, int c, size_t n) {
  return counted_memset(d, c, n);
}

/* The string functions are weak (as ASan's interceptors are), so that a
 * program's own definition wins, as it does over libc's without heapprof:
 * a program with its own strlen or strdup (portability code) failed to
 * link with "multiple definition of 'strlen'", and so did a libFuzzer
 * target, whose interceptors (linked whole by -fsanitize=fuzzer) define
 * memcmp, bcmp, strcmp and strncmp to see what it compares.  Their
 * definition serves then, and what it reads is counted only if it is
 * instrumented (docs/compiler.md).  memcpy, memmove and memset stay strong:
 * the runtime's own struct copies call them, before the shadow exists
 * too, and an instrumented definition would write the shadow there.  At
 * run time a weak definition interposes on libc's like a strong one. */
#define HP_YIELDS __attribute__((weak))

/* Sampled mode (fast_* unset) goes to libc's from here, without a frame. */
HP_INTERFACE void *memcpy(void *d, const void *s, size_t n) {
  SHORT_COPY(fast_memcpy, d, s, n);
  SAMPLED_PASS(real_memcpy, (d, s, n));
  __attribute__((musttail)) return memcpy_rest(d, s, n);
}

HP_INTERFACE void *memmove(void *d, const void *s, size_t n) {
  SHORT_COPY(fast_memmove, d, s, n);
  SAMPLED_PASS(real_memmove, (d, s, n));
  __attribute__((musttail)) return memmove_rest(d, s, n);
}

HP_INTERFACE void *memset(void *d, int c, size_t n) {
  SHORT_FILL(fast_memset, d, c, n);
  SAMPLED_PASS(real_memset, (d, c, n));
  __attribute__((musttail)) return memset_rest(d, c, n);
}

HP_INTERFACE HP_YIELDS void bzero(void *d, size_t n) {
  if (HP_UNLIKELY(hp_sample_bytes) && real_memset) {
    real_memset(d, 0, n);
    return;
  }
  counted_memset(d, 0, n);
}

HP_INTERFACE void *__heapprof_memcpy(void *d, const void *s, size_t n) {
  SHORT_COPY(fast_memcpy, d, s, n);
  __attribute__((musttail)) return memcpy_rest(d, s, n);
}

HP_INTERFACE void *__heapprof_memmove(void *d, const void *s, size_t n) {
  SHORT_COPY(fast_memmove, d, s, n);
  __attribute__((musttail)) return memmove_rest(d, s, n);
}

HP_INTERFACE void *__heapprof_memset(void *d, int c, size_t n) {
  SHORT_FILL(fast_memset, d, c, n);
  __attribute__((musttail)) return memset_rest(d, c, n);
}

/* The index of the first byte at which the n bytes at x and y differ, or
 * n.  Sixteen bytes a compare (SSE2, which every x86-64 has); the last
 * step re-reads bytes already found equal rather than go byte by byte,
 * and never reads past either range. */
static HP_ALWAYS_INLINE size_t first_difference(const u8 *x, const u8 *y,
                                                size_t n) {
#if defined(__SSE2__)
  size_t i = 0;
  if (n >= 16) {
    for (;; i += 16) {
      if (i + 16 > n)
        i = n - 16; /* the last, overlapping, step */
      __m128i a = _mm_loadu_si128((const __m128i *)(x + i));
      __m128i b = _mm_loadu_si128((const __m128i *)(y + i));
      unsigned m = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(a, b)) ^ 0xffffu;
      if (m)
        return i + (size_t)__builtin_ctz(m);
      if (i + 16 == n)
        return n;
    }
  }
  if (n >= 8) {
    /* Two eight-byte words, the second overlapping the first: in the first
     * words that differ, the lowest set bit of their xor is in the
     * lower-addressed differing byte (x86-64 is little-endian). */
    u64 wx, wy;
    __builtin_memcpy(&wx, x, 8);
    __builtin_memcpy(&wy, y, 8);
    if (wx != wy)
      return (size_t)__builtin_ctzll(wx ^ wy) / 8;
    __builtin_memcpy(&wx, x + n - 8, 8);
    __builtin_memcpy(&wy, y + n - 8, 8);
    return wx != wy ? n - 8 + (size_t)__builtin_ctzll(wx ^ wy) / 8 : n;
  }
  for (; i < n; i++)
    if (x[i] != y[i])
      return i;
  return n;
#else
  size_t i = 0;
  while (i < n && x[i] == y[i])
    i++;
  return i;
#endif
}

/* memcmp/bcmp: the bytes compared, up to and including the first
 * difference; *r the result, as memcmp has it. */
static HP_ALWAYS_INLINE size_t compared(const void *a, const void *b, size_t n,
                                        int *r) {
  const u8 *x = a, *y = b;
  /* A long compare asks libc's first: equal is then the whole answer.
   * Below 256 bytes the search alone is cheaper (a B-tree's keys mostly
   * differ early: asking libc first was two searches). */
  if (n >= 256 && real_memcmp) {
    *r = real_memcmp(a, b, n);
    if (!*r)
      return n;
  }
  size_t i = first_difference(x, y, n);
  if (i == n) {
    *r = 0;
    return n;
  }
  *r = x[i] < y[i] ? -1 : 1; /* as unsigned char, as memcmp compares */
  return i + 1;
}

/* Both operands' k bytes: inline when both are short (as for a copy). */
static HP_ALWAYS_INLINE void count_two(const void *a, const void *b,
                                       size_t k) {
  if (HP_LIKELY(fast_memcpy && two_short(a, b, k))) {
    record_two(a, b, k);
    return;
  }
  count(a, k);
  count(b, k);
}

HP_INTERFACE HP_YIELDS int memcmp(const void *a, const void *b, size_t n) {
  SAMPLED_PASS(real_memcmp, (a, b, n));
  int r;
  size_t k = compared(a, b, n, &r);
  count_two(a, b, k);
  return r;
}

HP_INTERFACE HP_YIELDS int bcmp(const void *a, const void *b, size_t n) {
  SAMPLED_PASS(sampled_bcmp, (a, b, n));
  int r;
  size_t k = compared(a, b, n, &r);
  count_two(a, b, k);
  return r;
}

HP_INTERFACE HP_YIELDS void *memchr(const void *s, int c, size_t n) {
  SAMPLED_PASS(real_memchr, (s, c, n));
  void *r = real_memchr ? real_memchr(s, c, n) : NULL;
  if (!real_memchr) {
    const u8 *p = s;
    for (size_t i = 0; i < n; i++)
      if (p[i] == (u8)c) {
        r = (void *)(p + i);
        break;
      }
  }
  count(s, r ? (size_t)((const u8 *)r - (const u8 *)s) + 1 : n);
  return r;
}

HP_INTERFACE HP_YIELDS size_t strlen(const char *s) {
  SAMPLED_PASS(real_strlen, (s));
  size_t n = do_strlen(s);
  count(s, n + 1);
  return n;
}

HP_INTERFACE HP_YIELDS size_t strnlen(const char *s, size_t max) {
  SAMPLED_PASS(real_strnlen, (s, max));
  size_t n = do_strnlen(s, max);
  count(s, n < max ? n + 1 : max);
  return n;
}

HP_INTERFACE HP_YIELDS char *strcpy(char *d, const char *s) {
  SAMPLED_PASS(sampled_strcpy, (d, s));
  size_t n = do_strlen(s) + 1;
  count(s, n);
  count(d, n);
  do_memcpy(d, s, n);
  return d;
}

HP_INTERFACE HP_YIELDS char *stpcpy(char *d, const char *s) {
  SAMPLED_PASS(sampled_stpcpy, (d, s));
  size_t n = do_strlen(s);
  count(s, n + 1);
  count(d, n + 1);
  do_memcpy(d, s, n + 1);
  return d + n;
}

HP_INTERFACE HP_YIELDS char *strncpy(char *d, const char *s, size_t n) {
  SAMPLED_PASS(sampled_strncpy, (d, s, n));
  size_t len = do_strnlen(s, n);
  count(s, len < n ? len + 1 : n);
  count(d, n);
  do_memcpy(d, s, len);
  if (len < n)
    do_memset(d + len, 0, n - len);
  return d;
}

HP_INTERFACE HP_YIELDS char *strcat(char *d, const char *s) {
  SAMPLED_PASS(sampled_strcat, (d, s));
  size_t dl = do_strlen(d), sl = do_strlen(s);
  count(d, dl + sl + 1);
  count(s, sl + 1);
  do_memcpy(d + dl, s, sl + 1);
  return d;
}

HP_INTERFACE HP_YIELDS char *strncat(char *d, const char *s, size_t n) {
  SAMPLED_PASS(sampled_strncat, (d, s, n));
  size_t dl = do_strlen(d), sl = do_strnlen(s, n);
  count(d, dl + sl + 1);
  count(s, sl < n ? sl + 1 : n);
  do_memcpy(d + dl, s, sl);
  d[dl + sl] = 0;
  return d;
}

/* The index of the first byte at which the strings a and b differ, or of
 * a's NUL if they are equal.  Eight bytes a step while neither read can
 * leave its page (a string may end just before an unmapped one), else a
 * byte.  In a word of a, the lowest byte flagged by (w - 0x01..) & ~w &
 * 0x80.. is its first zero byte (a borrow only flags bytes above it); the
 * lowest set bit of the xor of the words is in their first differing
 * byte. */
static HP_ALWAYS_INLINE size_t str_stop(const u8 *a, const u8 *b) {
  const u64 ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
  size_t i = 0;
  for (;;) {
    if ((((uptr)(a + i) | (uptr)(b + i)) & (HP_PAGE_SIZE - 1)) <=
        HP_PAGE_SIZE - 8) {
      u64 wa, wb;
      __builtin_memcpy(&wa, a + i, 8);
      __builtin_memcpy(&wb, b + i, 8);
      u64 stop = ((wa - ones) & ~wa & highs) | (wa ^ wb);
      if (stop)
        return i + (size_t)__builtin_ctzll(stop) / 8;
      i += 8;
    } else {
      if (a[i] != b[i] || !a[i])
        return i;
      i++;
    }
  }
}

HP_INTERFACE HP_YIELDS int strcmp(const char *a, const char *b) {
  SAMPLED_PASS(sampled_strcmp, (a, b));
  size_t i = str_stop((const u8 *)a, (const u8 *)b);
  count_two(a, b, i + 1);
  return (u8)a[i] - (u8)b[i];
}

HP_INTERFACE HP_YIELDS int strncmp(const char *a, const char *b, size_t n) {
  SAMPLED_PASS(sampled_strncmp, (a, b, n));
  size_t i = 0;
  int r = 0;
  for (; i < n; i++) {
    if (a[i] != b[i] || !a[i]) {
      r = (u8)a[i] - (u8)b[i];
      i++;
      break;
    }
  }
  count(a, i);
  count(b, i);
  return r;
}

HP_INTERFACE HP_YIELDS char *strchr(const char *s, int c) {
  SAMPLED_PASS(sampled_strchr, (s, c));
  size_t i = 0;
  for (;; i++) {
    if (s[i] == (char)c) {
      count(s, i + 1);
      return (char *)s + i;
    }
    if (!s[i]) {
      count(s, i + 1);
      return NULL;
    }
  }
}

HP_INTERFACE HP_YIELDS char *strrchr(const char *s, int c) {
  SAMPLED_PASS(sampled_strrchr, (s, c));
  size_t n = do_strlen(s);
  count(s, n + 1);
  for (size_t i = n + 1; i-- > 0;)
    if (s[i] == (char)c)
      return (char *)s + i;
  return NULL;
}

/* The new string belongs to the caller of strdup: fp is that entry
 * point's frame. */
static HP_ALWAYS_INLINE char *counted_strdup(const char *s, uptr fp) {
  size_t n = do_strlen(s) + 1;
  char *d = hp_allocate(n, 0, HP_ALLOC_MALLOC, fp, false);
  if (!d)
    return NULL;
  count(s, n);
  count(d, n);
  do_memcpy(d, s, n);
  return d;
}

HP_INTERFACE HP_YIELDS char *strdup(const char *s) {
  return counted_strdup(s, HP_ENTRY_FP());
}

HP_INTERFACE HP_YIELDS char *__strdup(const char *s) {
  return counted_strdup(s, HP_ENTRY_FP());
}

HP_INTERFACE HP_YIELDS char *strndup(const char *s, size_t max) {
  size_t n = do_strnlen(s, max);
  char *d = hp_allocate(n + 1, 0, HP_ALLOC_MALLOC, HP_ENTRY_FP(), false);
  if (!d)
    return NULL;
  count(s, n < max ? n + 1 : max);
  count(d, n + 1);
  do_memcpy(d, s, n);
  d[n] = 0;
  return d;
}
