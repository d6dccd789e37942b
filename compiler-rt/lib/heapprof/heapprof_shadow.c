/*===- heapprof_shadow.c - access-count shadow memory -------------------===
 *
 * Part of heapprof.  See heapprof_shadow.h for the mapping.
 *===----------------------------------------------------------------------===*/
#include "heapprof_internal.h"

#include <sys/mman.h>

/* Written once by hp_shadow_init (init); read by instrumented code. */
HP_INTERFACE uintptr_t __heapprof_shadow_memory_dynamic_address;

#ifdef HEAPPROF_SHARED_RUNTIME
bool hp_shadow_in_use;
#endif

/* Written once by the first fold (under the dump lock), before any chunk
 * is REPORTED; read by dumps and by the frees of REPORTED chunks. */
uptr hp_shadow_baseline_delta;

/* Clearing more counters than this (bytes of shadow) gives the pages back
 * with MADV_DONTNEED instead of writing zeros. */
#define CLEAR_BY_MADVISE_BYTES (64u * 1024)

void hp_shadow_init(void) {
  if (__heapprof_shadow_memory_dynamic_address)
    return;
  void *p = hp_mmap_noreserve(HP_SHADOW_SIZE, "shadow memory");
  madvise(p, HP_SHADOW_SIZE, MADV_NOHUGEPAGE);
  __heapprof_shadow_memory_dynamic_address = (uptr)p;
}

void hp_shadow_fork_child(void) {
  if (HP_SHADOW_IN_USE() && __heapprof_shadow_memory_dynamic_address)
    madvise((void *)__heapprof_shadow_memory_dynamic_address, HP_SHADOW_SIZE,
            MADV_DONTNEED);
  /* Baselines of counters now 0 would hide the child's first accesses. */
  if (hp_shadow_baseline_delta)
    madvise((void *)(__heapprof_shadow_memory_dynamic_address +
                     hp_shadow_baseline_delta),
            HP_SHADOW_SIZE, MADV_DONTNEED);
}

void hp_shadow_clear_slow(uptr beg, uptr end) {
  if (end <= beg || end > HP_USER_SPACE_END)
    return;
  uptr s = (uptr)hp_shadow_counter(beg);
  uptr e = (uptr)hp_shadow_counter(end - 1) + sizeof(u64);
  if (e - s >= CLEAR_BY_MADVISE_BYTES) {
    uptr ps = HP_ROUND_UP(s, HP_PAGE_SIZE), pe = HP_ROUND_DOWN(e, HP_PAGE_SIZE);
    hp_memset((void *)s, 0, ps - s);
    madvise((void *)ps, pe - ps, MADV_DONTNEED);
    hp_memset((void *)pe, 0, e - pe);
    return;
  }
  if (e - s <= 4 * sizeof(u64)) { /* the common small chunk */
    for (u64 *c = (u64 *)s; c < (u64 *)e; c++)
      *c = 0;
    return;
  }
  /* rep stosb even for a few counters: stores of two counters at a time
   * took fewer instructions and were faster re-clearing the same counters
   * in a loop, but in larson (sizes 8..1000) this function had 7.1-7.6 %
   * of the samples with them against 6.1-6.4 % with rep stosb
   * (docs/performance.md, speed round 4). */
  hp_memset((void *)s, 0, e - s); /* rep stosb */
}


bool hp_shadow_holes_zero(hp_shadow_holes_t *h, uptr a) {
  if (!HP_SHADOW_IN_USE())
    return true;
  if (a >= HP_USER_SPACE_END)
    return false;
  /* The shadow is anonymous memory: a page nothing wrote reads as 0. */
  return hp_page_unwritten(
      h, HP_ROUND_DOWN((uptr)hp_shadow_counter(a), HP_PAGE_SIZE),
      __heapprof_shadow_memory_dynamic_address + HP_SHADOW_SIZE);
}

/* Whether any of n counters is set. */
static HP_ALWAYS_INLINE bool any_counter(const u64 *c, uptr n) {
  u64 any = 0;
  for (uptr i = 0; i < n; i++)
    any |= c[i];
  return any != 0;
}

void hp_shadow_scan_slow(uptr beg, uptr size, hp_shadow_scan_t *out) {
  hp_shadow_scan_t r = {0, 0, 0, 0, 0};
  if (!size)
    size = 1;
  if (beg + size > HP_USER_SPACE_END) {
    *out = r;
    return;
  }
  uptr g = HP_ROUND_DOWN(beg, HP_GRANULE_SIZE);
  uptr end = beg + size;
  uptr last = HP_ROUND_UP(end, HP_GRANULE_SIZE);
  /* The common chunk: up to 32 granules (2 KiB), so at most two pages.
   * One vector loop for the sum and the touched granules; only a chunk
   * over two pages looks again, for which of them has an access. */
  if (last - g <= 32 * HP_GRANULE_SIZE) {
    const u64 *c = hp_shadow_counter(g);
    uptr n = (last - g) / HP_GRANULE_SIZE;
    /* Granules on the first page when there are two, else 0. */
    uptr second = HP_ROUND_DOWN(last - 1, HP_PAGE_SIZE);
    uptr split = second > g ? (second - g) / HP_GRANULE_SIZE : 0;
    for (uptr i = 0; i < n; i++) {
      r.accesses += c[i];
      r.touched_granules += c[i] != 0;
    }
    r.granules = n;
    r.pages = 1 + (split != 0);
    r.touched_pages = !r.touched_granules ? 0
                      : split ? any_counter(c, split) +
                                    any_counter(c + split, n - split)
                              : 1;
    *out = r;
    return;
  }
  /* Page by page: a page's counters are read once, branch-free, and only a
   * page with accesses is looked at counter by counter.  Most of a large
   * chunk is usually untouched, and the pages of its counters that were
   * never written are not read at all (hp_shadow_holes_zero). */
  hp_shadow_holes_t holes;
  bool use_holes = hp_shadow_holes_worth(g, end);
  if (use_holes)
    hp_shadow_holes_init(&holes);
  while (g < end) {
    uptr page_end = HP_MIN(HP_ROUND_DOWN(g, HP_PAGE_SIZE) + HP_PAGE_SIZE,
                           HP_ROUND_UP(end, HP_GRANULE_SIZE));
    const u64 *c = hp_shadow_counter(g);
    uptr n = (page_end - g) / HP_GRANULE_SIZE;
    if (use_holes && hp_shadow_holes_zero(&holes, g)) {
      r.granules += n; /* counters known to be 0: not read */
      r.pages++;
      g = page_end;
      continue;
    }
    u64 any = 0, sum = 0;
    for (uptr i = 0; i < n; i++) {
      any |= c[i];
      sum += c[i];
    }
    r.granules += n;
    r.pages++;
    if (any) {
      r.accesses += sum;
      r.touched_pages++;
      for (uptr i = 0; i < n; i++)
        r.touched_granules += c[i] != 0;
    }
    g = page_end;
  }
  *out = r;
}

void hp_shadow_record_range_slow(uptr p, uptr n) {
  if (!n || !__heapprof_shadow_memory_dynamic_address ||
      p + n > HP_USER_SPACE_END || p + n < p)
    return;
  /* Words first..last; granule g holds words g * per_granule and on.  The
   * counters of consecutive granules are consecutive, so the granules
   * strictly inside the range, which get per_granule each, are one loop
   * the compiler vectorizes (a 4 KiB copy: 62 of its 64 or 65 granules). */
  const uptr per_granule = HP_GRANULE_SIZE / HP_RANGE_WORD;
  uptr first = p / HP_RANGE_WORD, last = (p + n - 1) / HP_RANGE_WORD;
  u64 *c = hp_shadow_counter(p), *e = hp_shadow_counter(p + n - 1);
  if (c == e) {
    *c += last - first + 1;
    return;
  }
  *c += per_granule - first % per_granule;
  *e += last % per_granule + 1;
  for (u64 *q = c + 1; q < e; q++)
    *q += per_granule;
}

/* One access at a time, each checked: walks of 64 bytes or more a step
 * (every access in a granule of its own), and walks the inline updates
 * could not have made (leaving user space, or wrapping around). */
static void record_strided_each(uptr base, intptr_t stride, u64 n, u64 each) {
  for (u64 k = 0; k < n; k++, base += (uptr)stride)
    if (base < HP_USER_SPACE_END)
      *hp_shadow_counter(base) += each;
}

/* The general walk, a granule at a time: from address a, the accesses up
 * to the end of a's granule (stride > 0) or down to its start (stride < 0)
 * are counted together.  For steps that do not divide 64 (12, 24, 40...). */
static void record_strided_granules(uptr a, bool up, u64 step, u64 n,
                                    u64 each) {
  while (n) {
    uptr off = a & (HP_GRANULE_SIZE - 1);
    u64 m = up ? (HP_GRANULE_SIZE - off + step - 1) / step : off / step + 1;
    if (m > n)
      m = n;
    *hp_shadow_counter(a) += m * each;
    n -= m;
    a = up ? a + m * step : a - m * step;
  }
}

/* Everything but the common short walk: a weight other than 1, a step
 * that does not divide the granule or is at least one, a walk leaving user
 * space or wrapping, a walk of many granules (a vector loop for their
 * counters).  preserve_all too, so that the fast path below, which calls
 * it, needs to save no register for the call. */
static __attribute__((noinline, preserve_all)) void
record_strided_slow(uptr base, intptr_t stride, u64 total, u64 each) {
  if (!total || !each || !__heapprof_shadow_memory_dynamic_address)
    return;
  u64 n = each == 1 ? total : total / each;
  bool up = stride > 0;
  u64 step = up ? (u64)stride : -(u64)stride;
  u64 span;
  if (step - 1 >= HP_GRANULE_SIZE - 1 ||
      __builtin_mul_overflow(n - 1, step, &span) || base >= HP_USER_SPACE_END) {
    record_strided_each(base, stride, n, each);
    return;
  }
  uptr last = up ? base + span : base - span;
  if (up ? last < base || last >= HP_USER_SPACE_END : last > base) {
    record_strided_each(base, stride, n, each);
    return;
  }
  record_strided_granules(base, up, step, n, each);
}

/* A long walk's counters, a vector loop for the middle ones. */
static __attribute__((noinline, preserve_all)) void
record_strided_granules_pow2(u64 *c0, u64 *c1, u64 in_lo, u64 per,
                             u64 total) {
  u64 middle = (u64)(c1 - c0) - 1;
  *c0 += in_lo;
  *c1 += total - in_lo - middle * per;
  for (u64 *c = c0 + 1; c < c1; c++)
    *c += per;
}

/* The walk's granules run from the first access's to the last's, in the
 * direction of the stride.  The common walk (a step of 1, 2, 4, 8, 16 or 32
 * bytes, up or down, inside user space, up to 18 granules) is done here
 * with few general-purpose registers and no vector one, since
 * preserve_all makes this function save every register it uses (and the
 * instrumented caller none): the first granule gets the accesses from the
 * first to its end (or start, going down), every granule in between
 * 64 / step, and the last the rest, each access counted `each` times (a
 * loop that loads and stores its element has weight 2); no division but
 * the one that finds a weighted walk's length.  Everything else goes to
 * record_strided_slow. */
__attribute__((preserve_all)) void
__heapprof_record_strided(uintptr_t base, intptr_t stride, uint64_t total,
                          uint64_t each) {
  u64 step = stride > 0 ? (u64)stride : -(u64)stride;
  /* Bit k set for k = 1, 2, 4, 8, 16, 32 (a test the compiler does not turn
   * into a population count, which x86-64 without POPCNT does slowly). */
  const u64 steps_dividing_granule = 0x100010116ull;
  if (HP_UNLIKELY(!each || step >= HP_GRANULE_SIZE ||
                  !((steps_dividing_granule >> step) & 1) ||
                  total - 1 >= HP_USER_SPACE_END ||
                  !__heapprof_shadow_memory_dynamic_address)) {
    record_strided_slow(base, stride, total, each);
    return;
  }
  /* The walk's n accesses, each counted `each` times (the pass's total is
   * their product; record_strided_slow's rounding, should it not be). */
  u64 n = total;
  if (HP_UNLIKELY(each != 1)) {
    n = total / each;
    if (!n)
      return;
    total = n * each;
  }
  /* n <= 2^47 and step < 64: no overflow. */
  uptr span = (n - 1) * step;
  uptr lo = stride > 0 ? base : base - span;
  if (HP_UNLIKELY(lo > base || lo >= HP_USER_SPACE_END ||
                  lo + span >= HP_USER_SPACE_END)) {
    record_strided_slow(base, stride, total, each);
    return;
  }
  u64 *c0 = hp_shadow_counter(lo), *c1 = hp_shadow_counter(lo + span);
  if (c0 == c1) {
    *c0 += total;
    return;
  }
  unsigned shift = (unsigned)__builtin_ctzll(step);
  /* Accesses in the lowest granule and in the highest: the walk's first
   * and last, whichever way it goes. */
  uptr lo_off = lo & (HP_GRANULE_SIZE - 1);
  u64 in_lo = (((HP_GRANULE_SIZE - 1 - lo_off) >> shift) + 1) * each;
  u64 per = (HP_GRANULE_SIZE >> shift) * each;
  u64 middle = (u64)(c1 - c0) - 1;
  if (middle > 16) {
    record_strided_granules_pow2(c0, c1, in_lo, per, total);
    return;
  }
  *c0 += in_lo;
  *c1 += total - in_lo - middle * per;
#pragma clang loop vectorize(disable) unroll(disable)
  for (u64 *c = c0 + 1; c < c1; c++)
    *c += per;
}

/* ------------------------------------------------------------ baselines */

bool hp_shadow_baseline_try_init(void) {
  if (hp_shadow_baseline_delta || !__heapprof_shadow_memory_dynamic_address)
    return true;
  /* Not after mlockall(MCL_FUTURE), which would lock all 16 TiB: it
   * reserves them first, and when it could not, there are none. */
  if (__atomic_load_n(&hp_mlock_future, __ATOMIC_RELAXED))
    return false;
  void *p = hp_mmap_noreserve_try(HP_SHADOW_SIZE);
  if (!p)
    return false;
  madvise(p, HP_SHADOW_SIZE, MADV_NOHUGEPAGE);
  __atomic_store_n(&hp_shadow_baseline_delta,
                   (uptr)p - __heapprof_shadow_memory_dynamic_address,
                   __ATOMIC_RELEASE);
  return true;
}

void hp_shadow_baseline_init(void) {
  if (!hp_shadow_baseline_try_init())
    hp_report_mmap_failure(HP_SHADOW_SIZE, "checkpoint baseline shadow");
}

enum { BASE_FOLD, BASE_END, BASE_READ };

/* The walk of hp_shadow_fold (BASE_FOLD), hp_shadow_unfold (BASE_END) and
 * hp_shadow_scan_folded (BASE_READ).  A counter that is 0 has a baseline
 * of 0 (a baseline is a copy of its counter, which only grows while its
 * chunk lives), so no baseline is read there, nor, for a large range, on
 * a page of counters mincore shows was never written: a baseline page is
 * read only where a fold writes it anyway. */
static void baseline_walk(uptr beg, uptr size, int mode,
                          hp_shadow_scan_t *out) {
  hp_shadow_scan_t r = {0, 0, 0, 0, 0};
  uptr end = beg + (size ? size : 1);
  uptr delta = hp_shadow_baseline_delta;
  if (end > HP_USER_SPACE_END || end < beg || !delta) {
    if (out)
      *out = r;
    return;
  }
  uptr g = HP_ROUND_DOWN(beg, HP_GRANULE_SIZE);
  uptr last = HP_ROUND_UP(end, HP_GRANULE_SIZE);
  hp_shadow_holes_t holes;
  bool use_holes = hp_shadow_holes_worth(g, end);
  if (use_holes)
    hp_shadow_holes_init(&holes);
  while (g < last) {
    uptr page_end = HP_MIN(HP_ROUND_DOWN(g, HP_PAGE_SIZE) + HP_PAGE_SIZE, last);
    uptr n = (page_end - g) / HP_GRANULE_SIZE;
    r.granules += n;
    r.pages++;
    if (use_holes && hp_shadow_holes_zero(&holes, g)) {
      g = page_end;
      continue;
    }
    u64 *c = hp_shadow_counter(g);
    u64 *b = (u64 *)((uptr)c + delta);
    u64 touched = 0, before = 0;
    for (uptr i = 0; i < n; i++) {
      /* Read once: the program may be incrementing it. */
      u64 v = __atomic_load_n(&c[i], __ATOMIC_RELAXED);
      if (!v)
        continue;
      u64 base = b[i];
      u64 d = v > base ? v - base : 0;
      r.accesses += d;
      touched += base == 0;
      before |= base;
      if (mode == BASE_END) {
        if (base)
          b[i] = 0;
      } else if (mode != BASE_READ && v != base) {
        b[i] = v;
      }
    }
    r.touched_granules += touched;
    r.touched_pages += touched && !before;
    g = page_end;
  }
  if (out)
    *out = r;
}

void hp_shadow_fold(uptr beg, uptr size, hp_shadow_scan_t *out) {
  if (!HP_SHADOW_IN_USE()) {
    hp_shadow_scan_unwritten(beg, size, out);
    return;
  }
  baseline_walk(beg, size, BASE_FOLD, out);
}

void hp_shadow_unfold(uptr beg, uptr size, hp_shadow_scan_t *out) {
  /* No baselines: only the last profile's folds ran (they move none). */
  if (!HP_SHADOW_IN_USE() || !hp_shadow_baseline_delta) {
    if (out)
      hp_shadow_scan(beg, size, out);
    return;
  }
  baseline_walk(beg, size, BASE_END, out);
}

void hp_shadow_scan_folded(uptr beg, uptr size, hp_shadow_scan_t *out) {
  if (!HP_SHADOW_IN_USE() || !hp_shadow_baseline_delta) {
    hp_shadow_scan(beg, size, out);
    return;
  }
  baseline_walk(beg, size, BASE_READ, out);
}

u64 hp_shadow_moved_mask(const u64 *c, u32 n, u64 nonzero,
                         hp_shadow_holes_t *bh) {
  uptr delta = hp_shadow_baseline_delta;
  if (!nonzero || !delta)
    return nonzero;
  uptr bp = HP_ROUND_DOWN((uptr)c + delta, HP_PAGE_SIZE);
  uptr bend = __heapprof_shadow_memory_dynamic_address + delta + HP_SHADOW_SIZE;
  if (hp_page_unwritten(bh, bp, bend))
    return nonzero;
  const u64 *b = (const u64 *)((uptr)c + delta);
  u64 m = nonzero;
  for (u32 i = 0; i < n; i++)
    if (m >> i & 1 && c[i] <= b[i])
      m &= ~(1ull << i);
  return m;
}
