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
 * division away: free() validates a pointer without touching the memory it
 * points to.  A region id is a class id; cold ids are HP_COLD_CLASS(c).  Free blocks are kept as indices on a per-region stack that
 * lives in separate metadata, never inside the freed memory.  Each thread
 * caches up to HP_CACHE_MAX blocks per class, so malloc/free take no lock
 * until a cache runs empty or full; then half a cache moves at once.  Cold
 * regions have no thread cache: a cold object is by definition long-lived
 * and rarely allocated, so it takes the region's spinlock instead of
 * doubling every thread's cache array.
 *===----------------------------------------------------------------------===*/
#include "heapprof_internal.h"

typedef struct region {
  hp_spinlock_t lock; /* protects free_idx, nfree, high */
  u32 size;           /* block size, header included */
  uptr beg;
  uptr high;          /* bytes carved so far (atomic reads for validation) */
  u32 *free_idx;      /* stack of free block indices */
  u64 nfree;
} region_t;

/* Set up once by hp_primary_init (init, single-threaded). */
static region_t regions[HP_NUM_REGIONS];
static uptr space_beg, space_end;
static u32 class_sizes[HP_NUM_REGIONS];
/* Bit 0 of a cached block: it is fresh from the region (still zero). */
#define FRESH_BIT 1u

static u32 compute_class_size(u32 c) {
  if (c <= 15)
    return (c + 1) * 32;
  u32 k = c - 16;           /* 0.. */
  u32 l = 9 + k / 4;        /* power of two below */
  u32 step = 1u << (l - 2);
  return (1u << l) + (k % 4 + 1) * step;
}

u32 hp_size_to_class(uptr b) {
  if (b <= 64)
    return 1;
  if (b > HP_MAX_PRIMARY_BLOCK)
    return 0;
  if (b <= 512)
    return (u32)((b + 31) / 32) - 1;
  u32 l = 63 - (u32)__builtin_clzll((u64)(b - 1)); /* 2^l < b <= 2^(l+1) */
  u32 step = 1u << (l - 2);
  u32 idx = (u32)((b - (1u << l) + step - 1) / step); /* 1..4 */
  return 15 + (l - 9) * 4 + idx;
}

u32 hp_class_size(u32 c) { return c < HP_NUM_REGIONS ? class_sizes[c] : 0; }

void hp_primary_init(void) {
  if (space_beg)
    return;
  for (u32 c = 1; c < HP_NUM_CLASSES; c++)
    class_sizes[c] = class_sizes[HP_COLD_CLASS(c)] = compute_class_size(c);
  HP_CHECK(class_sizes[HP_NUM_CLASSES - 1] == HP_MAX_PRIMARY_BLOCK);
  uptr total = (uptr)HP_NUM_REGIONS * HP_REGION_SIZE;
  space_beg = (uptr)hp_mmap_noreserve(total, "primary allocator space");
  space_end = space_beg + total;
  for (u32 c = 1; c < HP_NUM_REGIONS; c++) {
    if (c == HP_NUM_CLASSES)
      continue; /* cold twin of the unused class 0 */
    region_t *r = &regions[c];
    r->size = class_sizes[c];
    r->beg = space_beg + (uptr)c * HP_REGION_SIZE;
    r->free_idx = hp_mmap_noreserve(
        (HP_REGION_SIZE / r->size + 1) * sizeof(u32), "primary free lists");
  }
}

void hp_primary_init_caches(hp_cache_t *caches) {
  for (u32 c = 1; c < HP_NUM_CLASSES; c++) {
    u32 max = (256u * 1024) / class_sizes[c];
    caches[c].max = HP_MAX(2u, HP_MIN((u32)HP_CACHE_MAX, max));
    caches[c].count = 0;
  }
}

/* Moves up to n blocks of the region into the cache. */
static void refill(region_t *r, hp_cache_t *cache, u32 n) {
  hp_spin_lock(&r->lock);
  while (n && r->nfree) {
    cache->blocks[cache->count++] = r->beg + (uptr)r->free_idx[--r->nfree] * r->size;
    n--;
  }
  while (n && r->high + r->size <= HP_REGION_SIZE) {
    cache->blocks[cache->count++] = (r->beg + r->high) | FRESH_BIT;
    __atomic_store_n(&r->high, r->high + r->size, __ATOMIC_RELEASE);
    n--;
  }
  hp_spin_unlock(&r->lock);
}

static void drain(region_t *r, hp_cache_t *cache, u32 n) {
  hp_spin_lock(&r->lock);
  while (n && cache->count) {
    uptr b = cache->blocks[--cache->count] & ~(uptr)FRESH_BIT;
    r->free_idx[r->nfree++] = (u32)((b - r->beg) / r->size);
    n--;
  }
  hp_spin_unlock(&r->lock);
}

uptr hp_primary_alloc(hp_cache_t *caches, u32 c, bool *fresh) {
  hp_cache_t *cache = &caches[c];
  if (HP_UNLIKELY(!cache->count)) {
    refill(&regions[c], cache, HP_MAX(1u, cache->max / 2));
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

void hp_primary_free(hp_cache_t *caches, u32 c, uptr block) {
  if (HP_UNLIKELY(c >= HP_NUM_CLASSES)) {
    region_t *r = &regions[c];
    hp_spin_lock(&r->lock);
    r->free_idx[r->nfree++] = (u32)((block - r->beg) / r->size);
    hp_spin_unlock(&r->lock);
    return;
  }
  hp_cache_t *cache = &caches[c];
  if (HP_UNLIKELY(cache->count >= cache->max))
    drain(&regions[c], cache, HP_MAX(1u, cache->max / 2));
  cache->blocks[cache->count++] = block;
}

void hp_primary_drain(hp_cache_t *caches) {
  for (u32 c = 1; c < HP_NUM_CLASSES; c++)
    if (caches[c].count)
      drain(&regions[c], &caches[c], caches[c].count);
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
  return r->beg + off - off % r->size;
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
