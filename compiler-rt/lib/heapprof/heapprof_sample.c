/*===- heapprof_sample.c - sampled mode (sample_bytes=N) ----------------===
 *
 * Part of heapprof.  See heapprof_sample.h for the scheme.  A sampled
 * object, in memory glibc handed out:
 *
 *   | ... alignment pad ... | next | prev | base | size | chunk header (32) | pad | mark |
 *   ^ base (glibc's)        ^ obj (80 bytes, 16-aligned)                             ^ q (user)
 *
 *   mark = ((q ^ secret) & ~15) | 8 | live
 *
 * A glibc pointer's word q[-1] is its chunk's size field: bit 3 clear.  A
 * mark has bit 3 set and names its address under a per-process secret, so
 * free(q) reads one word it would read anyway (glibc's free reads it too)
 * and knows: bit 3 clear -> glibc's; a mark of q, live -> sampled; a mark
 * of q, freed -> double free; anything else with bit 3 -> not a pointer any
 * allocator handed out (reported as an invalid free).  A double free of an
 * unsampled object is glibc's to catch, as it is without heapprof.
 *
 * A sampled block ends a granule (SOBJ_TAIL) or more past the object's
 * last byte: the next glibc chunk never shares the object's last 64-byte
 * granule, whose counter would otherwise add that unsampled neighbour's
 * accesses to the sampled object (and the weight multiply them: 48-byte
 * objects read once each came out at 1.5 accesses each).  Its first
 * granule starts after the prefix's first 16 bytes, inside the block.
 *
 * The live sampled objects are in one list (for dumps) under one lock:
 * with sample_bytes=512 KiB a sampled call is one in thousands.
 *===----------------------------------------------------------------------===*/
#include "heapprof_internal.h"
#include "heapprof_ext_sections.h"

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <unistd.h>

/* The runtime defines __libc_memalign itself (an interceptor): glibc's
 * memalign is looked up in libc.so.6 at init. */
static void *(*libc_memalign)(size_t, size_t);

u64 hp_sample_bytes;

typedef struct sobj {
  struct sobj *next, *prev; /* the live list, under list_lock */
  uptr base;                /* what glibc returned */
  u64 size;                 /* requested */
  hp_chunk_header_t h;      /* as heapprof's own chunks: dumps fold it */
  u64 pad;
  u64 mark; /* at q - 8 */
} sobj_t;
#define SOBJ_SIZE 80u
_Static_assert(sizeof(sobj_t) == SOBJ_SIZE, "sampled-object prefix is 80 bytes");
_Static_assert(SOBJ_SIZE % 16 == 0, "keeps glibc's 16-byte alignment");

#define SOBJ_TAIL HP_GRANULE_SIZE

#define MARK_BIT HP_SAMPLE_MARK_BIT
#define MARK_LIVE 1u

static u64 secret;            /* set once at init */
static hp_spinlock_t list_lock;
static sobj_t *live_list;     /* under list_lock */
static u64 seed_base;         /* sample_seed, or time and pid */
static u64 thread_seq;        /* atomic: one PRNG stream per thread */

/* Per thread: bytes left before the next sample (hp_sample_left,
 * heapprof_sample.h; 0: take the slow path), the PRNG, and whether both
 * were set up. */
HP_TLS u64 hp_sample_left;
static HP_TLS u64 rng;
static HP_TLS bool seeded;

static HP_ALWAYS_INLINE u64 mark_of(uptr q, bool live) {
  return (((u64)q ^ secret) & ~(u64)15) | MARK_BIT | (live ? MARK_LIVE : 0);
}
static HP_ALWAYS_INLINE sobj_t *obj_of(uptr q) {
  return (sobj_t *)(q - SOBJ_SIZE);
}

/* ----------------------------------------------------------------- math */

/* splitmix64's finalizer: distinct seeds give unrelated streams. */
static u64 mix(u64 z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  return z ? z : 1;
}

static u64 next_rand(void) {
  /* xorshift64*: the PRNG state never reaches 0 (seeded non-zero). */
  u64 x = rng;
  x ^= x >> 12;
  x ^= x << 25;
  x ^= x >> 27;
  rng = x;
  return x * 0x2545F4914F6CDD1Dull;
}

/* A uniform double in (0, 1). */
static double next_unit(void) {
  return ((double)(next_rand() >> 11) + 0.5) * (1.0 / 9007199254740992.0);
}

/* -ln(u) without libm: u = m * 2^e with m in [sqrt(1/2), sqrt(2)), and
 * ln(m) = 2 atanh(t), t = (m-1)/(m+1), |t| <= 0.1716: the series to t^19
 * leaves a relative error under 1e-16 (the test checks it against known
 * values). */
double hp_sample_neg_log(double u) {
  union {
    double d;
    u64 b;
  } v = {u};
  int e = (int)((v.b >> 52) & 0x7ff) - 1023;
  v.b = (v.b & ((1ull << 52) - 1)) | (1023ull << 52); /* m in [1, 2) */
  double m = v.d;
  if (m > 1.4142135623730951) {
    m *= 0.5;
    e++;
  }
  double t = (m - 1) / (m + 1), t2 = t * t, term = t, sum = 0;
  for (int k = 1; k <= 19; k += 2) {
    sum += term / k;
    term *= t2;
  }
  return -(2 * sum + e * 0.6931471805599453);
}

/* e^(-x), x >= 0: halve x until below 1/2, Taylor series, square back. */
static double exp_neg(double x) {
  int k = 0;
  while (x > 0.5) {
    x *= 0.5;
    k++;
  }
  double term = 1, sum = 1;
  for (int i = 1; i <= 16; i++) {
    term *= -x / i;
    sum += term;
  }
  while (k--)
    sum *= sum;
  return sum;
}

/* p(s) = 1 - e^(-s/N); for small s/N the series of 1 - e^(-x) directly
 * (no cancellation). */
double hp_sample_probability(u64 size, u64 mean) {
  double x = (double)(size ? size : 1) / (double)mean;
  if (x > 40)
    return 1;
  if (x >= 0.5)
    return 1 - exp_neg(x);
  double term = x, sum = 0;
  for (int i = 1; i <= 20; i++) {
    sum += term;
    term *= -x / (i + 1);
  }
  return sum;
}

/* Bytes to the next sample: exponential with mean sample_bytes, >= 1. */
static u64 draw_interval(void) {
  double d = hp_sample_neg_log(next_unit()) * (double)hp_sample_bytes;
  if (d > 4.0e18)
    d = 4.0e18;
  return (u64)d + 1;
}

/* -------------------------------------------------------- the countdown */

static bool sample_slow(uptr size);

/* The decision for one allocation of size bytes: the fast path is
 * hp_sample_skip's compare and subtraction. */
static HP_ALWAYS_INLINE bool take(uptr size) {
  if (HP_LIKELY(hp_sample_skip(size)))
    return false;
  return sample_slow(size);
}

bool hp_sample_take_slow(uptr size) { return sample_slow(size); }

static bool sample_slow(uptr size) {
  /* Before init and inside the runtime's own start (dlsym, the depot not
   * up yet), nothing is sampled; nor what the runtime allocates for itself
   * (heapprof_ownalloc.h). */
  if (!__atomic_load_n(&hp_rtl.inited, __ATOMIC_ACQUIRE) ||
      !hp_flags.profiling || hp_own_here())
    return false;
  u64 s = hp_sample_cost(size);
  if (HP_UNLIKELY(!seeded)) {
    u64 n = __atomic_add_fetch(&thread_seq, 1, __ATOMIC_RELAXED);
    rng = mix(seed_base + n * 0x9E3779B97F4A7C15ull);
    seeded = true;
    hp_sample_left = draw_interval();
    if (s < hp_sample_left) {
      hp_sample_left -= s;
      return false;
    }
  }
  /* Sampled; the next point is an exponential draw away from here (the
   * process is memoryless, so p(s) holds for every allocation). */
  hp_sample_left = draw_interval();
  return true;
}

/* ------------------------------------------------------ sampled objects */

static void list_add(sobj_t *o) {
  hp_spin_lock(&list_lock);
  o->prev = NULL;
  o->next = live_list;
  if (live_list)
    live_list->prev = o;
  live_list = o;
  hp_spin_unlock(&list_lock);
}

static void list_remove(sobj_t *o) {
  hp_spin_lock(&list_lock);
  if (o->prev)
    o->prev->next = o->next;
  else
    live_list = o->next;
  if (o->next)
    o->next->prev = o->prev;
  hp_spin_unlock(&list_lock);
}

static void *init_sampled(uptr base, uptr off, uptr size, u8 kind,
                          uptr fp);

/* A sampled allocation: glibc memory with the prefix in front, recorded
 * like one of heapprof's chunks.  align: 0 or a power of two. */
static void *alloc_sampled(uptr size, uptr align, u8 kind, uptr fp,
                           bool zero) {
  uptr off = SOBJ_SIZE;
  if (align > 16)
    off = HP_ROUND_UP(SOBJ_SIZE, align);
  uptr total;
  if (__builtin_add_overflow(size, off + SOBJ_TAIL, &total)) {
    errno = ENOMEM;
    return NULL;
  }
  void *base = align > 16 ? libc_memalign(align, total)
               : zero     ? __libc_calloc(1, total)
                          : __libc_malloc(total);
  if (!base)
    return NULL;
  if (zero && align > 16)
    hp_memset((void *)((uptr)base + off), 0, size);
  return init_sampled((uptr)base, off, size, kind, fp);
}

/* Makes the glibc block at base, its user bytes at base + off, a live
 * sampled object of size bytes. */
static void *init_sampled(uptr base, uptr off, uptr size, u8 kind,
                          uptr fp) {
  int saved = errno;
  uptr q = base + off;
  sobj_t *o = obj_of(q);
  o->base = base;
  o->size = size;
  u32 cpu = hp_cpu_id();
  hp_thread_t *t = hp_thread_acquire();
  hp_chunk_header_t *h = &o->h;
  hp_memset(h, 0, sizeof(*h));
  h->alloc_kind = kind;
  h->flags = hp_sample_draw_weight(size);
  h->requested_size = size >= HP_SIZE_IN_LARGE ? HP_SIZE_IN_LARGE : (u32)size;
  h->timestamp_ms = hp_now_ms();
  h->cpu_id = cpu;
  h->alloc_context_id =
      hp_stack_id(fp, t->stack_lo, t->stack_top,
                  (u32)hp_flags.malloc_context_size, hp_flags.fold_recursion);
  h->fork_gen = hp_fork_gen;
  t->stats.mallocs++;
  t->stats.malloced_bytes += size;
  hp_thread_release(t);
  /* The memory's counters may hold an unsampled object's accesses: this
   * object starts from zero. */
  hp_shadow_clear(q, q + (size ? size : 1));
  __atomic_store_n(&h->state, (u8)HP_CHUNK_ALLOCATED, __ATOMIC_RELEASE);
  o->mark = mark_of(q, true);
  list_add(o);
  errno = saved;
  return (void *)q;
}

static const char *free_name(u8 k) {
  return k == HP_ALLOC_NEW ? "operator delete"
         : k == HP_ALLOC_NEW_ARRAY ? "operator delete []" : "free";
}
static const char *alloc_name(u8 k) {
  return k == HP_ALLOC_NEW ? "operator new"
         : k == HP_ALLOC_NEW_ARRAY ? "operator new []" : "malloc";
}

/* Where a pointer with bit 3 set in its word before stands. */
typedef enum { OBJ_LIVE, OBJ_FREED, OBJ_NOT_OURS } obj_state_t;
static obj_state_t classify(uptr q, u64 w) {
  if ((w & ~(u64)MARK_LIVE) != (mark_of(q, false)))
    return OBJ_NOT_OURS;
  return w & MARK_LIVE ? OBJ_LIVE : OBJ_FREED;
}

/* A pointer free/realloc cannot take: reported as the default mode reports
 * them (with halt_on_error=0 the caller then leaves it alone). */
static void report_bad(uptr q, obj_state_t st, uptr fp, const char *op) {
  hp_thread_t *t = hp_thread_acquire();
  t->stats.invalid_frees++;
  hp_thread_release(t);
  if (st == OBJ_FREED)
    hp_report_double_free(q, fp, op, NULL, 0);
  else
    hp_report_invalid_free(q, fp, op, 0);
}

/* The event of sampled object o at q ending now (its counters scanned). */
static void sampled_event(const sobj_t *o, uptr q, hp_chunk_event_t *e) {
  hp_shadow_scan_t s;
  if (o->h.flags & HP_CHUNK_REPORTED) /* since the dump's baselines */
    hp_shadow_scan_folded(q, o->size, &s);
  else
    hp_shadow_scan(q, o->size, &s);
  hp_memset(e, 0, sizeof(*e));
  e->stack_id = o->h.alloc_context_id;
  e->size = o->size;
  e->accesses = s.accesses;
  e->granules = s.granules;
  e->touched_granules = s.touched_granules;
  e->pages = s.pages;
  e->touched_pages = s.touched_pages;
  e->alloc_ts = hp_lifetime_start(o->h.timestamp_ms, hp_chunk_inherited(&o->h));
  e->dealloc_ts = hp_end_ms(hp_now_ms());
  e->alloc_cpu = o->h.cpu_id;
  e->dealloc_cpu = hp_cpu_id();
  e->continuation = hp_event_continuation(hp_chunk_inherited(&o->h),
                                          o->h.flags & HP_CHUNK_REPORTED);
}

void hp_sample_record_event(const hp_chunk_event_t *e, u8 flags) {
  hp_hib_t hib;
  hp_hib_from_event(&hib, e);
  hp_sample_weigh(&hib, e->size, flags);
  hp_hib_table_insert(&hp_hib_table, &hib);
  hp_spin_lock(&hp_hib_table.bins_lock);
  hp_size_bins_add_event(&hp_hib_table.bins, e);
  hp_spin_unlock(&hp_hib_table.bins_lock);
}

/* A sampled object's end: the thread's counts and its weighted record
 * (flags: the object's). */
static void record_sampled_free(const hp_chunk_event_t *e, u8 flags) {
  hp_thread_t *t = hp_thread_acquire();
  t->stats.frees++;
  t->stats.freed_bytes += e->size;
  hp_thread_release(t);
  if (!(flags & HP_CHUNK_LAST)) /* else the last profile has it live */
    hp_sample_record_event(e, flags);
}

/* Takes a live sampled object out of the profile: its weighted record goes
 * to the HIB table, its memory back to glibc. */
static void free_sampled(uptr q, u8 kind, uptr fp) {
  sobj_t *o = obj_of(q);
  int saved = errno;
  u8 alloc_kind = o->h.alloc_kind;
  if (HP_UNLIKELY(alloc_kind != kind && hp_flags.check_dealloc_mismatch))
    hp_report_dealloc_mismatch(q, fp, alloc_name(alloc_kind), free_name(kind));
  /* Until its record is in the table, the last dump waits for it
   * (hp_thread_flush_hibs_settled): the list's lock orders the store
   * before a dump's walk. */
  hp_thread_t *own = hp_thread_own();
  if (own)
    __atomic_store_n(&own->hibs.merging, 1, __ATOMIC_RELAXED);
  list_remove(o); /* after this, no dump sees it */
  o->mark = mark_of(q, false);
  hp_chunk_event_t e;
  sampled_event(o, q, &e);
  if (o->h.flags & HP_CHUNK_REPORTED)
    hp_shadow_unfold(q, o->size, NULL);
  u8 flags = o->h.flags;
  o->h.state = HP_CHUNK_AVAILABLE;
  __libc_free((void *)o->base);
  record_sampled_free(&e, flags);
  if (own)
    __atomic_store_n(&own->hibs.merging, 0, __ATOMIC_RELEASE);
  errno = saved;
}

/* realloc of a sampled object (its prefix at the start of glibc's block)
 * whose new size is sampled too: glibc resizes the block, prefix and all
 * -- in place, or by mremap for a large one, with no copy of heapprof's
 * -- the old object's record goes to the table as at a free, and the
 * block becomes a new sampled object.  Before, the new object was a new
 * block and the bytes were copied: a growing buffer of a MiB or more is
 * sampled at nearly every realloc (p = 1 - e^(-s/N)), and Python's lists
 * under `heapprof run` with N = 512 KiB took 1.23x the plain program's
 * CPU time and 21 MB more (docs/performance.md, round 12).  NULL, p unchanged
 * and live, when glibc fails. */
static void *realloc_sampled(uptr q, uptr size, uptr fp) {
  sobj_t *o = obj_of(q);
  uptr total;
  if (__builtin_add_overflow(size, (uptr)(SOBJ_SIZE + SOBJ_TAIL), &total)) {
    errno = ENOMEM;
    return NULL;
  }
  u8 alloc_kind = o->h.alloc_kind;
  if (HP_UNLIKELY(alloc_kind != HP_ALLOC_MALLOC &&
                  hp_flags.check_dealloc_mismatch))
    hp_report_dealloc_mismatch(q, fp, alloc_name(alloc_kind),
                               free_name(HP_ALLOC_MALLOC));
  /* Out of the list first: a dump's fold of it is over, and none begins. */
  hp_thread_t *own = hp_thread_own(); /* as free_sampled's */
  if (own)
    __atomic_store_n(&own->hibs.merging, 1, __ATOMIC_RELAXED);
  list_remove(o);
  hp_chunk_event_t e;
  sampled_event(o, q, &e); /* before the bytes can move */
  u8 o_flags = o->h.flags;
  uptr old_size = o->size; /* o moves with the bytes */
  o->mark = mark_of(q, false);
  void *base = __libc_realloc((void *)o->base, total);
  if (!base) {
    o->mark = mark_of(q, true);
    list_add(o);
    if (own)
      __atomic_store_n(&own->hibs.merging, 0, __ATOMIC_RELEASE);
    return NULL;
  }
  int saved = errno;
  if (o_flags & HP_CHUNK_REPORTED)
    hp_shadow_unfold(q, old_size, NULL); /* the old object's baselines */
  record_sampled_free(&e, o_flags);
  if (own)
    __atomic_store_n(&own->hibs.merging, 0, __ATOMIC_RELEASE);
  hp_thread_t *t = hp_thread_acquire();
  t->stats.reallocs++;
  hp_thread_release(t);
  errno = saved;
  return init_sampled((uptr)base, SOBJ_SIZE, size, HP_ALLOC_MALLOC, fp);
}

/* glibc's usable size of one of its own pointers (the runtime defines
 * malloc_usable_size: glibc's is looked up at init). */
static size_t (*libc_usable)(void *);
static uptr glibc_usable(void *p) { return libc_usable(p); }

/* --------------------------------------------------------- entry points */

static HP_ALWAYS_INLINE void *unsampled(uptr size, uptr align, bool zero) {
  if (align > 16)
    return libc_memalign(align, size);
  return zero ? __libc_calloc(1, size) : __libc_malloc(size);
}

/* take()'s slow half, out of line so that the fast path saves no
 * registers (as malloc's, heapprof_interceptors.c). */
static HP_NOINLINE void *allocate_slow(uptr size, uptr align, u8 kind,
                                       uptr fp, bool zero) {
  if (sample_slow(size))
    return alloc_sampled(size, align, kind, fp, zero);
  return unsampled(size, align, zero);
}

void *hp_sample_allocate(uptr size, uptr align, u8 kind, uptr fp, bool zero) {
  if (HP_LIKELY(hp_sample_skip(size)))
    return unsampled(size, align, zero);
  return allocate_slow(size, align, kind, fp, zero);
}

/* malloc's countdown ran out (heapprof_interceptors.c's malloc): take()'s
 * slow half. */
void *hp_sample_malloc_slow(uptr size, uptr fp) {
  if (sample_slow(size))
    return alloc_sampled(size, 0, HP_ALLOC_MALLOC, fp, false);
  return __libc_malloc(size);
}

static HP_NOINLINE void *calloc_slow(uptr n, uptr size, uptr total,
                                     uptr fp) {
  if (sample_slow(total))
    return alloc_sampled(total, 0, HP_ALLOC_MALLOC, fp, true);
  return __libc_calloc(n, size);
}

void *hp_sample_calloc(uptr n, uptr size, uptr fp) {
  uptr total;
  if (__builtin_mul_overflow(n, size, &total)) {
    errno = ENOMEM;
    return NULL;
  }
  if (HP_LIKELY(hp_sample_skip(total)))
    return __libc_calloc(n, size);
  return calloc_slow(n, size, total, fp);
}

void hp_sample_free(void *p, u8 kind, uptr fp) {
  if (!p)
    return;
  u64 w = ((const u64 *)p)[-1];
  if (HP_LIKELY(!(w & MARK_BIT))) {
    __libc_free(p);
    return;
  }
  obj_state_t st = classify((uptr)p, w);
  if (HP_UNLIKELY(st != OBJ_LIVE)) {
    report_bad((uptr)p, st, fp, free_name(kind));
    return;
  }
  free_sampled((uptr)p, kind, fp);
}

/* realloc is a free and an allocation of the new size: the new size gets
 * its own sampling decision, so p(new size) holds for the new object. */
void *hp_sample_realloc(void *p, uptr size, uptr fp) {
  if (!p)
    return hp_sample_allocate(size, 0, HP_ALLOC_MALLOC, fp, false);
  u64 w = ((const u64 *)p)[-1];
  uptr old;
  if (HP_LIKELY(!(w & MARK_BIT))) {
    /* glibc's realloc(p, 0) frees p and returns NULL. */
    if (HP_LIKELY(!size || !take(size)))
      return __libc_realloc(p, size);
    old = glibc_usable(p);
  } else {
    obj_state_t st = classify((uptr)p, w);
    if (HP_UNLIKELY(st != OBJ_LIVE)) {
      report_bad((uptr)p, st, fp, "realloc");
      return NULL;
    }
    if (!size) {
      free_sampled((uptr)p, HP_ALLOC_MALLOC, fp);
      return NULL;
    }
    old = obj_of((uptr)p)->size;
    if (!take(size)) {
      void *n = __libc_malloc(size);
      if (!n)
        return NULL;
      hp_memcpy(n, p, HP_MIN(old, size));
      free_sampled((uptr)p, HP_ALLOC_MALLOC, fp);
      return n;
    }
    if (obj_of((uptr)p)->base + SOBJ_SIZE == (uptr)p)
      return realloc_sampled((uptr)p, size, fp);
  }
  void *n = alloc_sampled(size, 0, HP_ALLOC_MALLOC, fp, false);
  if (!n)
    return NULL; /* p stays as it was */
  hp_memcpy(n, p, HP_MIN(old, size));
  hp_sample_free(p, HP_ALLOC_MALLOC, fp);
  hp_thread_t *t = hp_thread_acquire();
  t->stats.reallocs++;
  hp_thread_release(t);
  return n;
}

/* glibc's memalign rules: EINVAL above 2^63, other alignments rounded up
 * to a power of two. */
void *hp_sample_memalign(uptr align, uptr size, uptr fp) {
  if (HP_LIKELY(!take(size)))
    return libc_memalign(align, size);
  if (!hp_libc_memalign_round(&align)) {
    errno = EINVAL;
    return NULL;
  }
  return alloc_sampled(size, align, HP_ALLOC_MALLOC, fp, false);
}

/* glibc's aligned_alloc: memalign's, but from 2.38 on a non-power-of-two
 * alignment fails. */
void *hp_sample_aligned_alloc(uptr align, uptr size, uptr fp) {
  if (!hp_is_pow2(align) && hp_libc_aligned_alloc_strict()) {
    errno = EINVAL;
    return NULL;
  }
  return hp_sample_memalign(align, size, fp);
}

int hp_sample_posix_memalign(void **out, uptr align, uptr size, uptr fp) {
  if (!hp_is_pow2(align) || align % sizeof(void *))
    return EINVAL;
  /* errno as glibc's: untouched on success, ENOMEM on failure. */
  int saved = errno;
  void *p = hp_sample_memalign(align, size, fp);
  if (!p) {
    int rc = errno == EINVAL ? EINVAL : ENOMEM;
    errno = ENOMEM;
    return rc;
  }
  errno = saved;
  *out = p;
  return 0;
}

void *hp_sample_valloc(uptr size, uptr fp) {
  return hp_sample_memalign(HP_PAGE_SIZE, size, fp);
}

void *hp_sample_pvalloc(uptr size, uptr fp) {
  uptr rounded = size ? HP_ROUND_UP(size, HP_PAGE_SIZE) : HP_PAGE_SIZE;
  if (rounded < size) {
    errno = ENOMEM;
    return NULL;
  }
  return hp_sample_memalign(HP_PAGE_SIZE, rounded, fp);
}

uptr hp_sample_usable_size(const void *p) {
  if (!p)
    return 0;
  u64 w = ((const u64 *)p)[-1];
  if (!(w & MARK_BIT))
    return glibc_usable((void *)p);
  if (classify((uptr)p, w) != OBJ_LIVE)
    return 0;
  /* A sampled object's requested size: its realloc copies that much (an
   * unsampled one is glibc's, and glibc's realloc keeps its slack). */
  return obj_of((uptr)p)->size;
}

/* ---------------------------------------------------------------- dumps */

void hp_sample_for_each_live(hp_chunk_fn fn, void *arg) {
  hp_spin_lock(&list_lock);
  for (sobj_t *o = live_list; o; o = o->next)
    fn(&o->h, (uptr)o + SOBJ_SIZE, o->size, arg);
  hp_spin_unlock(&list_lock);
}

/* The sums of a record, each an estimate once weighted.  Per-object ranges
 * (min/max), timestamps, cpus and the allocator's cycles (an average over
 * the timed calls) stay as observed. */
#define HP_SAMPLE_MIB_SUMS(X)                                                \
  X(total_access_count) X(total_size) X(total_lifetime)                     \
  X(total_access_density) X(total_lifetime_access_density)
#define HP_SAMPLE_EXT_SUMS(X)                                                \
  X(granules) X(touched_granules) X(pages) X(touched_pages)                 \
  X(continuations) X(live_at_dump) X(live_bytes) X(bytes_small)             \
  X(bytes_medium) X(bytes_large) X(bytes_xlarge) X(live_bytes_small)        \
  X(live_bytes_medium) X(live_bytes_large) X(live_bytes_xlarge)             \
  X(live_lines) X(live_touched_lines) X(live_line_bytes) X(live_pages)      \
  X(live_touched_pages) X(live_page_bytes)

static u64 mul_sat(u64 v, u64 w) {
  u64 r;
  return __builtin_mul_overflow(v, w, &r) ? UINT64_MAX : r;
}

/* An object's weight w = 1/p(size), below 2^64. */
static double weight_of(u64 size) {
  double w = 1 / hp_sample_probability(size, hp_sample_bytes);
  return w > 1.8e19 ? 1.8e19 : w;
}

u8 hp_sample_draw_weight(u64 size) {
  if (HP_UNLIKELY(!seeded)) {
    rng = mix(seed_base ^ 0x5DEECE66Dull);
    seeded = true;
  }
  double w = weight_of(size);
  return next_unit() < w - (double)(u64)w ? HP_CHUNK_WEIGHT_UP : 0;
}

/* One integer weight W per object, floor(w) or ceil(w) as drawn when it
 * was sampled, with the probabilities that make E[W] = w = 1/p(size),
 * multiplies every sum: each sum's expectation is exact, and ratios
 * within the event (bytes per object, accesses per object) stay exact
 * too.  The draw used to be made again at every event: one object could
 * count 1 allocation and 2 live objects across two dumps. */
void hp_sample_weigh(hp_hib_t *h, u64 size, u8 flags) {
  u64 W = (u64)weight_of(size) + !!(flags & HP_CHUNK_WEIGHT_UP);
  u64 c = mul_sat(h->mib.alloc_count, W);
  h->mib.alloc_count = c > UINT32_MAX ? UINT32_MAX : (u32)c;
  c = mul_sat(h->mib.num_migrated_cpu, W);
  h->mib.num_migrated_cpu = c > UINT32_MAX ? UINT32_MAX : (u32)c;
#define X(f) h->mib.f = mul_sat(h->mib.f, W);
  HP_SAMPLE_MIB_SUMS(X)
#undef X
#define X(f) h->ext.f = mul_sat(h->ext.f, W);
  HP_SAMPLE_EXT_SUMS(X)
#undef X
}

void hp_sample_write_section(hp_buf_t *b, const hp_profile_info_t *info) {
  (void)info;
  if (hp_sample_bytes)
    hp_buf_append(b, &hp_sample_bytes, 8);
}

/* ----------------------------------------------------------------- init */

/* fork(): the child gets the list in a state no other thread is changing. */
static void fork_lock(void) { hp_spin_lock(&list_lock); }
static void fork_unlock(void) { hp_spin_unlock(&list_lock); }

/* A fork child's own streams.  It inherits the forking thread's PRNG and
 * countdown: without a new seed every child of a process (a prefork
 * server's workers) would sample the same allocations, and a merge of
 * their profiles would add up one estimate many times instead of
 * independent ones.  Salted with the parent's fork count (deterministic
 * under sample_seed), and with the clock and pid otherwise. */
static u64 forks;
static void count_fork(void) { __atomic_add_fetch(&forks, 1, __ATOMIC_RELAXED); }
static void reseed_child(void) {
  u64 salt = mix(forks * 0x9E3779B97F4A7C15ull ^
                 (hp_flags.sample_seed
                      ? 0
                      : hp_rdtsc() ^ ((u64)getpid() << 32)));
  seed_base = mix(seed_base ^ salt);
  if (seeded) {
    rng = mix(rng ^ salt);
    hp_sample_left = draw_interval();
  }
}

void hp_sample_setup(void) {
  hp_sample_bytes = (u64)hp_flags.sample_bytes;
  hp_atfork(count_fork, NULL, reseed_child);
  seed_base = hp_flags.sample_seed
                  ? (u64)hp_flags.sample_seed
                  : hp_rdtsc() ^ ((u64)getpid() << 32);
  /* The secret only has to differ from what a program writes by chance. */
  secret = (seed_base * 0x9E3779B97F4A7C15ull) ^ 0x6865617070726f66ull;
  /* What describes the whole heap, not contexts, would describe only the
   * sampled objects: off (docs/user-guide.md "Sampled mode").  The leak
   * check too: it scans only the objects it knows, so a sampled object
   * that only unsampled ones point to read as unreachable (on another
   * allocator, where the side table is the live set: 4 reachable 1 MiB
   * objects in an unsampled 32-byte box were 4 MiB of leaks). */
  hp_flags.peak = false;
  hp_flags.heap_utilization = false;
  hp_flags.false_sharing = false;
  hp_flags.detect_leaks = false;
}

void hp_sample_init(void) {
  hp_sample_setup();
  /* On before dlopen and dlsym: what they allocate goes to glibc. */
  __atomic_store_n(&hp_foreign_state, HP_FOREIGN_SAMPLED, __ATOMIC_RELEASE);
  libc_memalign = (void *(*)(size_t, size_t))hp_glibc_sym("memalign");
  libc_usable = (size_t(*)(void *))hp_glibc_sym("malloc_usable_size");
  if (!libc_memalign || !libc_usable)
    hp_report_bad_option("sample_bytes: sampled mode runs on glibc's "
                         "allocator, and glibc's memalign or "
                         "malloc_usable_size was not found");
  hp_atfork(fork_lock, fork_unlock, fork_unlock);
  if (hp_flags.verbosity)
    hp_printf("HeapProf: sampled mode: one sample per %llu bytes on average "
              "(glibc's allocator; estimated profiles)\n",
              (unsigned long long)hp_sample_bytes);
}
