/*===- heapprof_shadow.h - access-count shadow memory -------------------===
 *
 * Part of heapprof.  One u64 counter per 64-byte granule of the address
 * space, at a base chosen at init:
 *
 *     user address a:   | granule (a & ~63) ............ 64 bytes |
 *                                    |
 *     shadow:           counter at ((a & ~63) >> 3) + base   (8 bytes)
 *
 * 2^47 bytes of user space need 2^44 bytes of shadow, reserved MAP_NORESERVE
 * so only pages holding touched counters cost memory.  Instrumented code
 * increments the counter of the granule of an access's first byte.
 *===----------------------------------------------------------------------===*/
#ifndef HEAPPROF_SHADOW_H
#define HEAPPROF_SHADOW_H

#define HP_GRANULE_SIZE 64u
#define HP_SHADOW_SCALE 3u
#define HP_USER_SPACE_END (1ull << 47)
#define HP_SHADOW_SIZE (HP_USER_SPACE_END >> HP_SHADOW_SCALE)
/* The range rule: intercepted libc ranges and mem intrinsics count one
 * access per 8-byte word they touch. */
#define HP_RANGE_WORD 8u

static HP_ALWAYS_INLINE u64 *hp_shadow_counter(uptr a) {
  return (u64 *)(((a & ~(uptr)(HP_GRANULE_SIZE - 1)) >> HP_SHADOW_SCALE) +
                 __heapprof_shadow_memory_dynamic_address);
}

void hp_shadow_init(void);

/* In a fork child: every counter back to 0.  The parent counts the
 * accesses made before the fork (in its checkpoints, frees and exit
 * profile); the child's profile holds its own, its inherited objects'
 * as continuations do after a checkpoint.  One madvise(MADV_DONTNEED) of
 * the shadow, which is private: the parent's counters stay. */
void hp_shadow_fork_child(void);

/* Whether code that writes counters may have run.  The static runtime's
 * interceptors count libc's ranges for every caller, so there it is always
 * true (a constant: no test on any path).  The preloaded runtime of
 * `heapprof run` (libheapprof_rt.so) exports no string functions: its
 * counters are written only by an instrumented module loaded into the
 * program, whose constructor calls __heapprof_init before any of its code
 * runs, and by the __heapprof_record_access family; each of those sets
 * it (hp_shadow_mark_in_use).  Until then every counter is 0, and every
 * read and write of counters is left out -- an allocation's clear, a
 * free's scan and clear, a dump's heap-utilization reads (every shadow page
 * is a hole) -- since they would read and write counters nobody could have
 * written (on larson under heapprof run about 12% of the time, their
 * stores stalling the next locked instruction; docs/design.md). */
#ifdef HEAPPROF_SHARED_RUNTIME
extern bool hp_shadow_in_use;
static HP_ALWAYS_INLINE void hp_shadow_mark_in_use(void) {
  if (HP_UNLIKELY(!__atomic_load_n(&hp_shadow_in_use, __ATOMIC_RELAXED)))
    __atomic_store_n(&hp_shadow_in_use, true, __ATOMIC_RELAXED);
}
#define HP_SHADOW_IN_USE() __atomic_load_n(&hp_shadow_in_use, __ATOMIC_RELAXED)
#else
static HP_ALWAYS_INLINE void hp_shadow_mark_in_use(void) {}
#define HP_SHADOW_IN_USE() true
#endif

/* Zeroes the counters of every granule overlapping [beg, end).  Inline
 * for a chunk of one or two granules (most small blocks: every malloc asks),
 * else hp_shadow_clear_slow. */
void hp_shadow_clear_slow(uptr beg, uptr end);
static HP_ALWAYS_INLINE void hp_shadow_clear(uptr beg, uptr end) {
  if (!HP_SHADOW_IN_USE())
    return;
  if (HP_LIKELY(end > beg && end <= HP_USER_SPACE_END)) {
    u64 *s = hp_shadow_counter(beg), *e = hp_shadow_counter(end - 1);
    if (HP_LIKELY(e - s <= 1)) {
      *e = 0;
      *s = 0;
      return;
    }
  }
  hp_shadow_clear_slow(beg, end);
}

/* Shadow pages known to hold only zeros, found without reading them.
 * Reading a page of counters nobody wrote costs a page fault, and on
 * kernels without a shared zero page (this project's VMs) a real page: a
 * scan of a 512 MiB chunk of which the program touched 50 MiB used to
 * fault in all 64 MiB of its counters.  mincore() says which shadow pages
 * are resident; without swap (sysinfo's totalswap is 0: no page of the
 * process is swapped out now) a page that is not resident was never
 * written, or was given back by MADV_DONTNEED, and reads as zeros.  With
 * swap, or when a call fails, nothing is known and every page is read.  A
 * cursor for one scan: mincore is asked for HP_SHADOW_HOLES_PAGES shadow
 * pages (16 MiB of heap) at a time.  Worth it for ranges whose counters
 * span HP_SHADOW_HOLES_MIN pages or more. */
#define HP_SHADOW_HOLES_PAGES HP_RESIDENT_PAGES
#define HP_SHADOW_HOLES_MIN 4u
typedef hp_resident_t hp_shadow_holes_t;
static HP_ALWAYS_INLINE void hp_shadow_holes_init(hp_shadow_holes_t *h) {
  hp_resident_init(h);
}
/* Whether the counters of [beg, end) span enough shadow pages for holes. */
static HP_ALWAYS_INLINE bool hp_shadow_holes_worth(uptr beg, uptr end) {
  if (!HP_SHADOW_IN_USE())
    return true; /* every page is a hole: nothing is read */
  return end > beg && end - beg >= (uptr)HP_SHADOW_HOLES_MIN * HP_PAGE_SIZE
                                       << HP_SHADOW_SCALE;
}
/* True when the counters on the shadow page of user address a (those of
 * the 32 KiB of heap around it) are known to be 0: all of them while no
 * counter can have been written (hp_shadow_in_use). */
bool hp_shadow_holes_zero(hp_shadow_holes_t *h, uptr a);

/* What a chunk's counters say at free or dump time. */
typedef struct hp_shadow_scan {
  u64 accesses;         /* sum of counters */
  u64 granules;         /* granules overlapping the range */
  u64 touched_granules; /* of those, with a non-zero counter */
  u64 pages;            /* 4 KiB pages overlapping the range */
  u64 touched_pages;    /* of those, with a touched granule */
} hp_shadow_scan_t;
/* Scans the granules overlapping [beg, beg + size) (size 0 counts as 1).
 * Inline for one or two granules in one page (every free asks), else
 * hp_shadow_scan_slow. */
void hp_shadow_scan_slow(uptr beg, uptr size, hp_shadow_scan_t *out);
/* The scan of a range whose counters are all 0, without reading them. */
static HP_ALWAYS_INLINE void hp_shadow_scan_unwritten(uptr beg, uptr size,
                                                      hp_shadow_scan_t *out) {
  uptr end = beg + (size ? size : 1);
  bool ok = end <= HP_USER_SPACE_END && end > beg;
  out->accesses = out->touched_granules = out->touched_pages = 0;
  out->granules = ok ? (HP_ROUND_UP(end, HP_GRANULE_SIZE) -
                        HP_ROUND_DOWN(beg, HP_GRANULE_SIZE)) / HP_GRANULE_SIZE
                     : 0;
  out->pages = ok ? (HP_ROUND_DOWN(end - 1, HP_PAGE_SIZE) -
                     HP_ROUND_DOWN(beg, HP_PAGE_SIZE)) / HP_PAGE_SIZE + 1
                  : 0;
}
static HP_ALWAYS_INLINE void hp_shadow_scan(uptr beg, uptr size,
                                            hp_shadow_scan_t *out) {
  if (!HP_SHADOW_IN_USE()) {
    hp_shadow_scan_unwritten(beg, size, out);
    return;
  }
  uptr last = beg + (size ? size : 1) - 1;
  uptr g0 = beg / HP_GRANULE_SIZE, g1 = last / HP_GRANULE_SIZE;
  if (HP_LIKELY(last < HP_USER_SPACE_END && last >= beg && g1 - g0 <= 1 &&
                beg / HP_PAGE_SIZE == last / HP_PAGE_SIZE)) {
    const u64 *c = hp_shadow_counter(beg), *d = hp_shadow_counter(last);
    u64 a = *c, b = c == d ? 0 : *d;
    out->accesses = a + b;
    out->granules = 1 + (c != d);
    out->touched_granules = (a != 0) + (b != 0);
    out->pages = 1;
    out->touched_pages = (a | b) != 0;
    return;
  }
  hp_shadow_scan_slow(beg, size, out);
}

/* Checkpoints: the baseline shadow.  A dump folds a live chunk (reports
 * what it did so far) without writing its counters: a thread of the
 * program may be incrementing one at that moment (a load, an add and a
 * store, not atomic), and a zero written between its load and its store
 * would be overwritten with the old count plus one, which the next dump
 * would count again.  The fold copies each counter into its baseline
 * instead, a second shadow of the same layout at counter +
 * hp_shadow_baseline_delta, and reports the counter less its baseline.
 * Only the granules of live chunks a dump has folded (REPORTED) have
 * baselines other than 0; the free of such a chunk reports its counters
 * less their baselines and puts those back to 0.  Reserved (MAP_NORESERVE)
 * by the first fold; a page of it costs memory only where a fold found a
 * counter that was not 0.  A counter below its baseline (two threads'
 * increments racing, one lost) counts no access. */
extern uptr hp_shadow_baseline_delta; /* 0 until the first fold */
/* Reserves the baseline shadow, once; a dump calls it before its folds.
 * The _try form says whether it is there, where the other dies without
 * it: a checkpoint asks first, and is not written without it (a program
 * that lowered its address-space limit below what it has mapped). */
void hp_shadow_baseline_init(void);
bool hp_shadow_baseline_try_init(void);
/* A fold: the accesses of [beg, beg + size) since their baselines, the
 * baselines then set to the counters read.  Its touched granules are the
 * ones first touched since the chunk's allocation (counter not 0, baseline
 * 0), and its touched pages the ones whose first touched granules those
 * are, so that a series of folds counts each once; its granules and pages
 * are all the range's (hp_hib_add_continuation_lines).  On another allocator
 * two objects can share a granule: the one folded second finds the
 * baseline the first one set, and does not count the same accesses again. */
void hp_shadow_fold(uptr beg, uptr size, hp_shadow_scan_t *out);
/* The free of a folded chunk: its accesses since the baselines, which go
 * back to 0 (out may be NULL: only that). */
void hp_shadow_unfold(uptr beg, uptr size, hp_shadow_scan_t *out);
/* The same scan, the baselines left as they are (none reserved yet: as
 * hp_shadow_scan).  The last profile's folds, which no dump follows. */
void hp_shadow_scan_folded(uptr beg, uptr size, hp_shadow_scan_t *out);
/* The accesses since their baselines of n (at most 64) consecutive
 * counters c[0..n) on one shadow page, as a mask (bit i: c[i]) narrowed
 * from `nonzero` (the bits of those that are not 0): a dump's
 * heap-utilization reads, which see what its folds will count.  The
 * baselines are read only where they can be other than 0: where mincore
 * (bh, a cursor over the baseline shadow) shows their page was written. */
u64 hp_shadow_moved_mask(const u64 *c, u32 n, u64 nonzero,
                         hp_shadow_holes_t *bh);

/* The range rule's counts for [p, last], a range of at most 64 bytes in
 * user space (the caller checks): its words fall in p's granule, or in it
 * and the next one (to its end, and from its start). */
static HP_ALWAYS_INLINE void hp_shadow_record_short_at(uptr base, uptr p,
                                                       uptr last) {
  const uptr per_granule = HP_GRANULE_SIZE / HP_RANGE_WORD;
  uptr w0 = p / HP_RANGE_WORD, w1 = last / HP_RANGE_WORD;
  /* w rounded down to a multiple of 8 is its granule's counter offset. */
  u64 *c0 = (u64 *)(base + (w0 & ~(per_granule - 1)));
  if (HP_LIKELY((p ^ last) < HP_GRANULE_SIZE)) {
    *c0 += w1 - w0 + 1;
    return;
  }
  *c0 += per_granule - w0 % per_granule;
  *(u64 *)(base + (w1 & ~(per_granule - 1))) += w1 % per_granule + 1;
}
static HP_ALWAYS_INLINE void hp_shadow_record_short(uptr p, uptr last) {
  hp_shadow_record_short_at(__heapprof_shadow_memory_dynamic_address, p,
                            last);
}

/* True when [p, p + n) is 1 to 64 bytes in user space: a range
 * hp_shadow_record_short takes.  (A range that wraps around starts above
 * user space.) */
static HP_ALWAYS_INLINE bool hp_shadow_short_range(uptr p, uptr n) {
  return n - 1 < HP_GRANULE_SIZE && ((p | (p + n - 1)) < HP_USER_SPACE_END);
}

/* Adds the range rule's counts for [p, p + n).  Inline for up to 64 bytes
 * (most of the copies and compares the interceptors see), else
 * hp_shadow_record_range_slow. */
void hp_shadow_record_range_slow(uptr p, uptr n);
static HP_ALWAYS_INLINE void hp_shadow_record_range(uptr p, uptr n) {
  uptr base = __heapprof_shadow_memory_dynamic_address;
  /* Two tests, each its own branch (as one condition the compiler
   * computes both into flags first). */
  if (HP_LIKELY(n - 1 < HP_GRANULE_SIZE)) {
    if (HP_LIKELY(((p | (p + n - 1)) < HP_USER_SPACE_END) && base)) {
      hp_shadow_record_short_at(base, p, p + n - 1);
      return;
    }
  }
  hp_shadow_record_range_slow(p, n);
}

#endif
