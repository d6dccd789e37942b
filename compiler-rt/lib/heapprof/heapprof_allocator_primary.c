/*===- heapprof_allocator_primary.c - size-class allocator --------------===
 *
 * Part of heapprof.  One big MAP_NORESERVE reservation split into a region
 * per size class, twice: the second half holds the cold twins of the same
 * classes, for operator new calls the compiler hinted cold (hot/cold new,
 * docs/pgo.md), so long-lived rarely touched objects never share a page or
 * a cache line with the rest of the heap:
 *
 *   space_beg                                                        space_end
 *   | 0 (unused) | 1: 64 B | ... | 47 | 48 (unused) | 49: cold 64 B | ... | 95 |
 *   each region HP_REGION_SIZE bytes; blocks carved upward from its start
 *
 * so the region of any pointer is (p - space_beg) >> 35 and its block is a
 * multiplication away (by the class size's reciprocal, exact for every
 * offset in a region): free() validates a pointer without touching the
 * memory it points to.  A region id is a class id; cold ids are HP_COLD_CLASS(c).  Free blocks are kept as indices on a per-region stack that
 * lives in separate metadata, never inside the freed memory.  Each thread
 * caches up to HP_CACHE_MAX blocks per class, so malloc/free take no lock
 * until a cache runs empty or full; then half a cache moves at once.  Cold
 * regions have no thread cache: a cold object is by definition long-lived
 * and rarely allocated, so it takes the region's spinlock instead of
 * doubling every thread's cache array.
 *
 * release_freed_pages=1 (phkmalloc's H): each region then also keeps a
 * bitmap of the blocks on its free list (cached blocks count as in use: a
 * thread may hand them out without the lock).  When blocks worth more than
 * release_threshold_kb came back to a region since its last pass, the pass
 * looks at the pages touched by those blocks -- the entries above
 * release_mark on the free list -- and hands every page whose blocks are
 * all free back to the kernel with madvise(MADV_DONTNEED), with the shadow
 * pages that only count those pages.  The cost is linear in the bytes
 * freed; no free makes a system call, only the drain that crosses the
 * threshold.  A released page reads as zeros, headers included: a free of
 * such a block finds state 0 (see hp_primary_block_released).
 *===----------------------------------------------------------------------===*/
#include "heapprof_internal.h"

#include <sys/mman.h>

typedef struct region {
  hp_spinlock_t lock; /* protects free_idx, nfree, high, free_map, release_mark */
  u32 size;           /* block size, header included */
  uptr beg;
  uptr high;          /* bytes carved so far (atomic reads for validation) */
  u32 *free_idx;      /* stack of free block indices */
  u64 nfree;
  /* release_freed_pages only: */
  u64 *free_map;      /* bit per block: on the free list */
  u64 release_mark;   /* free_idx[release_mark..nfree) are new since the
                         last pass */
  bool released_any;  /* a pass released pages: headers may read as 0 */
  u64 recip;          /* ceil(2^64 / size): off / size = (off * recip) >> 64
                         for every off < HP_REGION_SIZE, since the error
                         off * (recip * size - 2^64) < 2^35 * 2^17 < 2^64 */
} region_t;

/* Set up once by hp_primary_init (init, single-threaded). */
static region_t regions[HP_NUM_REGIONS];
static uptr space_beg, space_end;
u32 hp_class_sizes[HP_NUM_REGIONS];
#define class_sizes hp_class_sizes
#define FRESH_BIT HP_FRESH_BIT

static u32 compute_class_size(u32 c) {
  if (c <= 15)
    return (c + 1) * 32;
  u32 k = c - 16;           /* 0.. */
  u32 l = 9 + k / 4;        /* power of two below */
  u32 step = 1u << (l - 2);
  return (1u << l) + (k % 4 + 1) * step;
}

void hp_primary_init(void) {
  if (space_beg)
    return;
  for (u32 c = 1; c < HP_NUM_CLASSES; c++)
    class_sizes[c] = class_sizes[HP_COLD_CLASS(c)] = compute_class_size(c);
  HP_CHECK(class_sizes[HP_NUM_CLASSES - 1] == HP_MAX_PRIMARY_BLOCK);
  uptr total = (uptr)HP_NUM_REGIONS * HP_REGION_SIZE;
  space_beg = (uptr)hp_sys_mmap_noreserve(total, "primary allocator space");
  space_end = space_beg + total;
  for (u32 c = 1; c < HP_NUM_REGIONS; c++) {
    if (c == HP_NUM_CLASSES)
      continue; /* cold twin of the unused class 0 */
    region_t *r = &regions[c];
    r->size = class_sizes[c];
    r->beg = space_beg + (uptr)c * HP_REGION_SIZE;
    r->recip = (u64)((((unsigned __int128)1 << 64) + r->size - 1) / r->size);
    r->free_idx = hp_sys_mmap_noreserve(
        (HP_REGION_SIZE / r->size + 1) * sizeof(u32), "primary free lists");
    /* Flags are parsed before the first allocation, so the map sees every
     * block's history. */
    if (hp_flags.release_freed_pages)
      r->free_map = hp_sys_mmap_noreserve(
          (HP_REGION_SIZE / r->size / 64 + 1) * sizeof(u64),
          "primary free-block maps");
  }
}

void hp_primary_init_caches(hp_cache_t *caches) {
  for (u32 c = 1; c < HP_NUM_CLASSES; c++) {
    u32 max = (256u * 1024) / class_sizes[c];
    caches[c].max = HP_MAX(2u, HP_MIN((u32)HP_CACHE_MAX, max));
    caches[c].count = 0;
  }
}

/* ---------------------------------------------------- page release */

static void map_set(region_t *r, u64 idx, bool on) {
  u64 bit = 1ull << (idx % 64);
  if (on)
    r->free_map[idx / 64] |= bit;
  else
    r->free_map[idx / 64] &= ~bit;
}

/* True when every block overlapping the page at pg is on the free list. */
static bool page_free(const region_t *r, uptr pg) {
  u64 first = (pg - r->beg) / r->size;
  u64 last = (pg + HP_PAGE_SIZE - 1 - r->beg) / r->size;
  if ((last + 1) * r->size > r->high)
    return false; /* the page reaches past the carved blocks */
  for (u64 i = first; i <= last; i++)
    if (!(r->free_map[i / 64] >> (i % 64) & 1))
      return false;
  return true;
}

/* madvise(MADV_DONTNEED) of [beg, end) (page-aligned) and of the shadow
 * pages that count only those bytes (32 KiB of memory per shadow page). */
static u64 release_range(uptr beg, uptr end) {
  if (end <= beg)
    return 0;
  hp_sys_madvise((void *)beg, end - beg, MADV_DONTNEED);
  if (hp_flags.profiling) {
    uptr span = (uptr)HP_PAGE_SIZE << HP_SHADOW_SCALE;
    uptr sb = HP_ROUND_UP(beg, span), se = HP_ROUND_DOWN(end, span);
    if (se > sb)
      hp_sys_madvise(hp_shadow_counter(sb), (se - sb) >> HP_SHADOW_SCALE,
                     MADV_DONTNEED);
  }
  return (end - beg) / HP_PAGE_SIZE;
}

/* Heapsort, ascending, in place (no allocation: we are inside malloc). */
static void sift_down(u32 *a, u64 i, u64 n) {
  for (;;) {
    u64 m = i, l = 2 * i + 1, rr = l + 1;
    if (l < n && a[l] > a[m])
      m = l;
    if (rr < n && a[rr] > a[m])
      m = rr;
    if (m == i)
      return;
    u32 t = a[i];
    a[i] = a[m];
    a[m] = t;
    i = m;
  }
}

static void sort_ascending(u32 *a, u64 n) {
  for (u64 i = n / 2; i-- > 0;)
    sift_down(a, i, n);
  for (u64 end = n; end > 1; end--) {
    u32 t = a[0];
    a[0] = a[end - 1];
    a[end - 1] = t;
    sift_down(a, 0, end - 1);
  }
}

/* The release pass; lock held (nothing may pop a block we are zeroing).
 * A page is released when all its blocks are free and one of them is new
 * since the last pass (a page that was wholly free then went at that pass
 * or, if none of its blocks was new, at an earlier one).  The new entries
 * are sorted by address, so each page is looked at once, counted once,
 * and neighbouring pages go in one madvise. */
static u64 release_pass(region_t *r) {
  u32 *a = r->free_idx + r->release_mark;
  u64 n = r->nfree - r->release_mark, pages = 0;
  sort_ascending(a, n);
  uptr run_b = 0, run_e = 0, next_pg = 0;
  for (u64 j = 0; j < n; j++) {
    uptr b = r->beg + (uptr)a[j] * r->size;
    uptr pg = HP_MAX(HP_ROUND_DOWN(b, HP_PAGE_SIZE), next_pg);
    uptr pe = HP_ROUND_UP(b + r->size, HP_PAGE_SIZE);
    for (; pg < pe; pg += HP_PAGE_SIZE) {
      bool inside = pg >= b && pg + HP_PAGE_SIZE <= b + r->size;
      if (!inside && !page_free(r, pg))
        continue;
      if (run_e != pg) {
        pages += release_range(run_b, run_e);
        run_b = pg;
      }
      run_e = pg + HP_PAGE_SIZE;
    }
    next_pg = pe;
  }
  pages += release_range(run_b, run_e);
  r->release_mark = r->nfree;
  if (pages)
    __atomic_store_n(&r->released_any, true, __ATOMIC_RELAXED);
  return pages;
}

/* Called after blocks were pushed onto r's free list, lock held. */
static void maybe_release(region_t *r, hp_stats_t *st) {
  if (HP_LIKELY(!r->free_map))
    return;
  s64 kb = hp_flags.release_threshold_kb;
  u64 threshold = kb > 0 ? (u64)kb << 10 : 0;
  if ((r->nfree - r->release_mark) * r->size <
      HP_MAX(threshold, (u64)HP_PAGE_SIZE))
    return;
  st->release_passes++;
  st->pages_released += release_pass(r);
}

/* Pushes a block onto r's free list; lock held. */
static void push_free(region_t *r, uptr block) {
  u32 idx = (u32)((block - r->beg) / r->size);
  r->free_idx[r->nfree++] = idx;
  if (HP_UNLIKELY(r->free_map))
    map_set(r, idx, true);
}

bool hp_primary_block_released(u32 c) {
  return c < HP_NUM_REGIONS &&
         __atomic_load_n(&regions[c].released_any, __ATOMIC_RELAXED);
}

/* ------------------------------------------------------------ caches */

/* Moves up to n blocks of the region into the cache. */
static void refill(region_t *r, hp_cache_t *cache, u32 n) {
  hp_spin_lock(&r->lock);
  while (n && r->nfree) {
    u32 idx = r->free_idx[--r->nfree];
    if (HP_UNLIKELY(r->free_map))
      map_set(r, idx, false);
    cache->blocks[cache->count++] = r->beg + (uptr)idx * r->size;
    n--;
  }
  if (r->release_mark > r->nfree)
    r->release_mark = r->nfree;
  while (n && r->high + r->size <= HP_REGION_SIZE) {
    cache->blocks[cache->count++] = (r->beg + r->high) | FRESH_BIT;
    __atomic_store_n(&r->high, r->high + r->size, __ATOMIC_RELEASE);
    n--;
  }
  hp_spin_unlock(&r->lock);
}

static void drain(region_t *r, hp_cache_t *cache, u32 n, hp_stats_t *st) {
  hp_spin_lock(&r->lock);
  while (n && cache->count) {
    push_free(r, cache->blocks[--cache->count] & ~(uptr)FRESH_BIT);
    n--;
  }
  st->cache_drains++;
  maybe_release(r, st);
  hp_spin_unlock(&r->lock);
}

uptr hp_primary_alloc_slow(hp_cache_t *caches, u32 c, bool *fresh,
                           hp_stats_t *st) {
  hp_cache_t *cache = &caches[c];
  if (HP_UNLIKELY(!cache->count)) {
    refill(&regions[c], cache, HP_MAX(1u, cache->max / 2));
    st->cache_refills++;
    if (!cache->count)
      return 0;
  }
  uptr b = cache->blocks[--cache->count];
  *fresh = b & FRESH_BIT;
  return b & ~(uptr)FRESH_BIT;
}

uptr hp_primary_alloc_cold(u32 c, bool *fresh) {
  region_t *r = &regions[HP_COLD_CLASS(c)];
  hp_cache_t one;
  one.count = 0;
  refill(r, &one, 1);
  if (!one.count)
    return 0;
  *fresh = one.blocks[0] & FRESH_BIT;
  return one.blocks[0] & ~(uptr)FRESH_BIT;
}

void hp_primary_free_slow(hp_cache_t *caches, u32 c, uptr block,
                          hp_stats_t *st) {
  if (HP_UNLIKELY(c >= HP_NUM_CLASSES)) {
    region_t *r = &regions[c];
    hp_spin_lock(&r->lock);
    push_free(r, block);
    maybe_release(r, st);
    hp_spin_unlock(&r->lock);
    return;
  }
  hp_cache_t *cache = &caches[c];
  if (HP_UNLIKELY(cache->count >= cache->max))
    drain(&regions[c], cache, HP_MAX(1u, cache->max / 2), st);
  cache->blocks[cache->count++] = block;
}

void hp_primary_drain(hp_cache_t *caches, hp_stats_t *st) {
  for (u32 c = 1; c < HP_NUM_CLASSES; c++)
    if (caches[c].count)
      drain(&regions[c], &caches[c], caches[c].count, st);
}

bool hp_primary_owns(uptr p) { return p >= space_beg && p < space_end; }

uptr hp_primary_block_of(uptr p, u32 *class_id) {
  if (p < space_beg || p >= space_end)
    return 0;
  u32 c = (u32)((p - space_beg) / HP_REGION_SIZE);
  if (!c || c == HP_NUM_CLASSES)
    return 0;
  region_t *r = &regions[c];
  uptr off = p - r->beg;
  if (off >= __atomic_load_n(&r->high, __ATOMIC_ACQUIRE))
    return 0;
  *class_id = c;
  u64 idx = (u64)(((unsigned __int128)off * r->recip) >> 64);
  return r->beg + idx * r->size;
}

void hp_primary_for_each_block(void (*fn)(uptr block, u32 size, void *arg),
                               void *arg) {
  for (u32 c = 1; c < HP_NUM_REGIONS; c++) {
    region_t *r = &regions[c];
    uptr high = __atomic_load_n(&r->high, __ATOMIC_ACQUIRE);
    for (uptr off = 0; off < high; off += r->size)
      fn(r->beg + off, r->size, arg);
  }
}

u64 hp_primary_cache_bytes(const hp_cache_t *caches, u64 *freed) {
  u64 all = 0;
  for (u32 c = 1; c < HP_NUM_CLASSES; c++) {
    u32 n = HP_MIN(__atomic_load_n(&caches[c].count, __ATOMIC_RELAXED),
                   (u32)HP_CACHE_MAX);
    for (u32 i = 0; i < n; i++)
      *freed += (caches[c].blocks[i] & FRESH_BIT) ? 0 : class_sizes[c];
    all += (u64)n * class_sizes[c];
  }
  return all;
}

void hp_primary_for_each_region(void (*fn)(u32 class_id, uptr beg, uptr carved,
                                           u64 nfree, u32 size, void *arg),
                                void *arg) {
  for (u32 c = 1; c < HP_NUM_REGIONS; c++) {
    region_t *r = &regions[c];
    if (c != HP_NUM_CLASSES)
      fn(c, r->beg, __atomic_load_n(&r->high, __ATOMIC_ACQUIRE),
         __atomic_load_n(&r->nfree, __ATOMIC_RELAXED), r->size, arg);
  }
}

void hp_primary_lock_all(void) {
  for (u32 c = 1; c < HP_NUM_REGIONS; c++)
    hp_spin_lock(&regions[c].lock);
}

void hp_primary_unlock_all(void) {
  for (u32 c = HP_NUM_REGIONS - 1; c >= 1; c--)
    hp_spin_unlock(&regions[c].lock);
}

u64 hp_primary_mapped_bytes(void) {
  u64 n = 0;
  for (u32 c = 1; c < HP_NUM_REGIONS; c++)
    n += __atomic_load_n(&regions[c].high, __ATOMIC_RELAXED);
  return n;
}
