/*===- heapprof_allocator.h - heapprof's allocator ----------------------===
 *
 * Part of heapprof.  Three files:
 *   heapprof_allocator_primary.c    size classes, one region per class,
 *                                   per-thread caches (no global lock)
 *   heapprof_allocator_secondary.c  mmap per chunk for large sizes
 *   heapprof_allocator.c            the front end: headers, shadow, stacks,
 *                                   validation, HIB creation on free
 *===----------------------------------------------------------------------===*/
#ifndef HEAPPROF_ALLOCATOR_H
#define HEAPPROF_ALLOCATOR_H

/* ------------------------------------------------------------- primary */

/* Block sizes (header included) are multiples of 32: 64..512 in steps of 32
 * (classes 1..15), then four classes per power of two up to 128 KiB
 * (classes 16..47).  Class 0 is unused. */
#define HP_NUM_CLASSES 48
/* Region ids: the classes, then their cold twins (hot/cold new hints). */
#define HP_NUM_REGIONS (2 * HP_NUM_CLASSES)
#define HP_COLD_CLASS(c) ((c) + HP_NUM_CLASSES)
#define HP_MAX_PRIMARY_BLOCK (128u * 1024)
#define HP_REGION_SIZE (1ull << 35)
#define HP_CACHE_MAX 64
/* Owners of spans (heapprof_allocator_primary.c): lane 0 is shared. */
#define HP_LANES 64

typedef struct hp_cache {
  u32 count;
  u32 max;
  uptr blocks[HP_CACHE_MAX];
} hp_cache_t;

void hp_primary_init(void);

/* Block size of each region id (header included; 0 for the unused ids).
 * Set up once by hp_primary_init. */
extern u32 hp_class_sizes[HP_NUM_REGIONS];

/* The class of a block of b bytes; 0 if too big for the primary.  Inline:
 * every allocation asks. */
static HP_ALWAYS_INLINE u32 hp_size_to_class(uptr b) {
  if (b <= 64)
    return 1;
  if (b <= 512)
    return (u32)((b + 31) / 32) - 1;
  if (b > HP_MAX_PRIMARY_BLOCK)
    return 0;
  u32 l = 63 - (u32)__builtin_clzll((u64)(b - 1)); /* 2^l < b <= 2^(l+1) */
  u32 step = 1u << (l - 2);
  u32 idx = (u32)((b - (1u << l) + step - 1) >> (l - 2)); /* 1..4 */
  return 15 + (l - 9) * 4 + idx;
}

static HP_ALWAYS_INLINE u32 hp_class_size(u32 c) {
  return c < HP_NUM_REGIONS ? hp_class_sizes[c] : 0;
}
/* A block of the class: from the cache, else refilled from the region. NULL
 * when the region is exhausted. fresh is set when the block was never used
 * (its memory is still zero). */
struct hp_stats;
uptr hp_primary_alloc_slow(hp_cache_t *caches, u32 class_id, bool *fresh,
                           struct hp_stats *st);
/* Bit 0 of a cached block: it is fresh from the region (still zero). */
#define HP_FRESH_BIT 1u
static HP_ALWAYS_INLINE uptr hp_primary_alloc(hp_cache_t *caches, u32 c,
                                              bool *fresh,
                                              struct hp_stats *st) {
  hp_cache_t *cache = &caches[c];
  if (HP_UNLIKELY(!cache->count))
    return hp_primary_alloc_slow(caches, c, fresh, st);
  uptr b = cache->blocks[--cache->count];
  *fresh = b & HP_FRESH_BIT;
  return b & ~(uptr)HP_FRESH_BIT;
}
/* The same from the class's cold region (no cache; takes its lock). The
 * block's class id, as hp_primary_block_of reports it, is
 * HP_COLD_CLASS(class_id). */
uptr hp_primary_alloc_cold(u32 class_id, bool *fresh, struct hp_stats *st);
/* class_id may be a cold id: the block goes straight back to its region. */
/* st gets the cache drains and the pages returned to the kernel
 * (release_freed_pages, and the release_idle_ms pass a drain may run). */
void hp_primary_free_slow(hp_cache_t *caches, u32 class_id, uptr block,
                          struct hp_stats *st);
static HP_ALWAYS_INLINE void hp_primary_free(hp_cache_t *caches, u32 c,
                                             uptr block,
                                             struct hp_stats *st) {
  if (HP_LIKELY(c < HP_NUM_CLASSES)) {
    hp_cache_t *cache = &caches[c];
    if (HP_LIKELY(cache->count < cache->max)) {
      cache->blocks[cache->count++] = block;
      return;
    }
  }
  hp_primary_free_slow(caches, c, block, st);
}
/* Returns every cached block to its region and gives the thread's lane
 * back (thread exit). */
void hp_primary_drain(hp_cache_t *caches, struct hp_stats *st);
/* The same without giving the lane back (malloc_trim). */
void hp_primary_flush(hp_cache_t *caches, struct hp_stats *st);
/* Hands every page that only free blocks overlap back to the kernel
 * (malloc_trim), with the counters of whole shadow pages among them;
 * returns the pages.  Cached blocks count as in use. */
u64 hp_primary_trim(struct hp_stats *st);
/* True once release_freed_pages or malloc_trim handed pages of region
 * class_id back to the kernel: a free block's header there may read as all
 * zeros. */
bool hp_primary_block_released(u32 class_id);
void hp_primary_init_caches(hp_cache_t *caches);
/* A thread with caches of its own takes a lane (hp_primary_drain, at its
 * exit, gives it back); without one its blocks are lane 0's. */
void hp_primary_thread_start(hp_cache_t *caches);
/* In a fork child: the lanes of the threads that did not cross the fork
 * give their spans up (self: the forking thread's caches, or NULL). */
void hp_primary_fork_child(const hp_cache_t *self);
/* If p lies in a block of a region below its highest block carved,
 * returns that block and its class; else 0.  (A block there that was never
 * carved, in another thread's span, reads as zeros.) */
uptr hp_primary_block_of(uptr p, u32 *class_id);
bool hp_primary_owns(uptr p);
/* Block geometry, for a pass that keeps a mark per block (the leak check):
 * p's block as its region id and index from the region's first block
 * (false when p is in no block carved so far); how many indices region
 * class_id has now; the block at an index. */
bool hp_primary_block_index(uptr p, u32 *class_id, u64 *index);
/* The address range every block lies in ([0, 0) before init). */
void hp_primary_space(uptr *beg, uptr *end);
u64 hp_primary_region_blocks(u32 class_id);
uptr hp_primary_block_addr(u32 class_id, u64 index);
/* Calls fn(block, class_size, arg) for every block carved (handed to a
 * cache at least once). */
void hp_primary_for_each_block(void (*fn)(uptr block, u32 size, void *arg),
                               void *arg);
/* Bytes of the blocks in one thread's caches (read racily: statistics);
 * *freed gets those that were freed there (not fresh from a region). */
u64 hp_primary_cache_bytes(const hp_cache_t *caches, u64 *freed);
/* Calls fn for every run of carved blocks of every region, in address
 * order: its class id, start, bytes, the region's free blocks (with its
 * first run, then 0) and block size (read without the lock: statistics,
 * dumps). */
void hp_primary_for_each_region(void (*fn)(u32 class_id, uptr beg, uptr carved,
                                           u64 nfree, u32 size, void *arg),
                                void *arg);
/* Calls fn for each region's spans in use, [beg, end): spans are taken in
 * address order, so a region's are one run (read without the lock). */
void hp_primary_for_each_span_run(void (*fn)(uptr beg, uptr end, void *arg),
                                  void *arg);
void hp_primary_lock_all(void);
void hp_primary_unlock_all(void);
u64 hp_primary_mapped_bytes(void);
/* Bytes of the spans the regions have made: the heap's memory as a
 * limit the program set itself counts it (heapprof_rlimit.h). */
u64 hp_primary_span_bytes(void);
/* Bytes of the free blocks in spans a live thread owns (lanes 1 and up):
 * out of the other threads' reach.  Takes each region's lock in turn. */
u64 hp_primary_owned_free_bytes(void);

/* ----------------------------------------------------------- secondary */

typedef struct hp_large {
  u64 magic;
  uptr map_beg;
  uptr map_size;
  uptr user_beg;
  u64 requested_size;
} hp_large_t;

/* Maps a chunk with room for size user bytes at alignment align (>= 32);
 * returns user_beg (0 on failure). */
uptr hp_secondary_alloc(uptr size, uptr align);
void hp_secondary_free(uptr user_beg);
/* Resizes the large chunk at user_beg to size user bytes by mremap (the
 * header and the user bytes' offset in the mapping go along); returns it
 * as registered now, possibly moved, or NULL when the kernel refused (the
 * chunk unchanged). */
hp_large_t *hp_secondary_remap(uptr user_beg, uptr size);
hp_large_t *hp_secondary_find(uptr user_beg);
/* The live large chunk containing p (interior pointers), or NULL. */
hp_large_t *hp_secondary_find_containing(uptr p);
/* When p lies in the mapping of a large chunk freed recently (one of the
 * last 1024), that chunk's user_beg; else 0. */
uptr hp_secondary_recently_freed(uptr p);
void hp_secondary_for_each(void (*fn)(hp_large_t *l, void *arg), void *arg);
void hp_secondary_lock(void);
void hp_secondary_unlock(void);
u64 hp_secondary_mapped_bytes(void);
u64 hp_secondary_live_chunks(void); /* lock held, as the one above */
/* Their high-water marks since the start (lock held). */
u64 hp_secondary_max_chunks(void);
u64 hp_secondary_max_mapped_bytes(void);

/* ----------------------------------------------------------- front end */

/* The allocator's books, read while other threads allocate (statistics):
 * the bytes of the blocks carved from the size-class regions, of those the
 * free ones (on the spans' free lists and in thread caches; never more than
 * carved), the free blocks on the spans, and the large chunks and their
 * mapped bytes, now and at most.  For the peak's block bytes and glibc's
 * statistics calls (heapprof_mallinfo.c). */
typedef struct hp_alloc_books {
  u64 carved, free_bytes, free_blocks, large, large_bytes;
  u64 large_max, large_bytes_max;
} hp_alloc_books_t;
void hp_allocator_books(hp_alloc_books_t *b);
/* malloc_trim: the calling thread's cached blocks go back to their spans,
 * and every page only free blocks overlap back to the kernel; returns the
 * pages released that were not given back already (pages_released). */
u64 hp_allocator_trim(void);

/* junk_fill's bytes (phkmalloc's J): HP_JUNK_ALLOC over a new chunk, where
 * reading it before writing is a use of uninitialised memory;
 * HP_JUNK_FREE over a freed chunk, where reading it is a use after free.
 * 0xd0 is phkmalloc's own junk byte. */
#define HP_JUNK_ALLOC 0xd0
#define HP_JUNK_FREE 0xdf

/* Every public entry point (malloc, new, ...) calls these with its own frame
 * address, so the stack starts at the caller. */
void *hp_allocate(uptr size, uptr align, u8 kind, uptr fp, bool zero);
/* The hot/cold operator new variants: hint is the __hot_cold_t byte (LLVM:
 * cold 1, notcold 128, hot 254).  Below HP_COLD_HINT_LIMIT the chunk comes
 * from the cold regions of the primary; anything else is hp_allocate. */
#define HP_COLD_HINT_LIMIT 128
void *hp_allocate_hinted(uptr size, uptr align, u8 kind, uptr fp, u8 hint);
void hp_deallocate(void *p, u8 kind, uptr fp);
void *hp_reallocate(void *p, uptr size, uptr fp);
/* End of init: whether malloc/free may take the plain path (the default
 * mode: no per-call test of features that are off; heapprof_allocator.c). */
extern bool hp_alloc_plain;
void hp_allocator_init_plain(void);
uptr hp_usable_size(const void *p);
/* Fails an allocation per allocator_may_return_null: returns NULL with
 * errno=ENOMEM, or reports and aborts. */
void *hp_allocation_failed(uptr size, uptr fp, const char *why, u8 kind);
/* The same for a count times a size that does not fit in a size_t
 * (calloc, reallocarray): the report names both. */
void *hp_allocation_overflow(uptr n, uptr size, uptr fp, const char *why);

/* Chunk walk, for dumps: fn(header, user_beg, requested_size, arg) for every
 * live chunk. */
typedef void (*hp_chunk_fn)(hp_chunk_header_t *h, uptr user_beg, uptr size,
                            void *arg);
void hp_for_each_live_chunk(hp_chunk_fn fn, void *arg);
/* The large chunks and another allocator's objects (not the primary's
 * blocks), for a caller that holds hp_secondary_lock and hp_foreign_hold:
 * every chunk it passes stays mapped until the caller lets them go. */
void hp_for_each_live_nonprimary_held(hp_chunk_fn fn, void *arg);
/* Dump support: hp_fold_begin before a dump's folds (on the dumping
 * thread; last: the process's last profile); hp_fold_live_chunk counts a
 * live chunk once (see heapprof_hib.h), false if it was freed meanwhile. */
void hp_fold_begin(bool last);
struct hp_chunk_event;
bool hp_fold_live_chunk(hp_chunk_header_t *h, uptr user_beg, uptr size,
                        u32 now_ms, u32 now_cpu, struct hp_chunk_event *e);

/* Statistics: every counter once, summed over threads at dump. */
#define HP_STATS(X)                                                          \
  X(mallocs, "allocations")                                                  \
  X(frees, "deallocations")                                                  \
  X(reallocs, "reallocations")                                               \
  X(malloced_bytes, "bytes requested")                                       \
  X(freed_bytes, "bytes freed")                                              \
  X(large_mallocs, "allocations served by mmap")                             \
  X(cache_refills, "per-thread cache refills from a region")                 \
  X(cache_drains, "per-thread cache drains to a region")                     \
  X(inplace_reallocs, "reallocations that kept their block")             \
  X(mremap_reallocs, "reallocations of large chunks resized by mremap")   \
  X(release_passes, "release_freed_pages passes over a region's free list")  \
  X(pages_released, "4 KiB pages handed back to the kernel (madvise)")       \
  X(idle_passes, "release_idle_ms passes over the size classes' spans")      \
  X(invalid_frees, "invalid/double frees reported")                          \
  X(failed_allocs, "failed allocations")                                     \
  X(cold_allocs, "allocations served from cold regions (hot/cold new)")      \
  X(malloc_cycles, "TSC cycles in sampled allocation calls")                 \
  X(free_cycles, "TSC cycles in sampled deallocation calls")                 \
  X(cycle_samples, "allocator calls whose cycles were measured")

struct hp_stats {
#define X(name, desc) u64 name;
  HP_STATS(X)
#undef X
};
typedef struct hp_stats hp_stats_t;

#endif
