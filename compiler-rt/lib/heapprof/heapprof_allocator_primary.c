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
 *   each region HP_REGION_SIZE bytes, in spans of 64 KiB (more for blocks
 *   over 16 KiB) taken in address order
 *
 * so the region of any pointer is (p - space_beg) >> 35 and its block is a
 * multiplication away (by the class size's reciprocal, exact for every
 * offset in a region): free() validates a pointer without touching the
 * memory it points to.  A region id is a class id; cold ids are
 * HP_COLD_CLASS(c).  Each thread caches up to HP_CACHE_MAX blocks per
 * class, so malloc/free take no lock until a cache runs empty or full; then
 * half a cache moves at once.  Cold regions have no thread cache: a cold
 * object is by definition long-lived and rarely allocated, so it takes the
 * region's spinlock instead of doubling every thread's cache array.
 *
 * Spans (thread_spans=1, the default): a thread's cache is refilled from
 * spans its lane owns, so threads running at the same time never get
 * blocks side by side: a line of counters (512 bytes of heap) or a cache
 * line never holds blocks of two of them.  Without spans, blocks went
 * back through one free list per class and came out to whichever thread
 * refilled next; on larson the two threads' blocks ended up interleaved,
 * and every allocation's clear and free's scan of counters moved lines
 * between the cores (docs/performance.md, round 11).  A span's free blocks
 * are a list whose links live in separate metadata, never in the freed
 * memory, and a block freed by any thread goes back to its own span; how
 * spans change owners is told at refill() and push_free().
 *
 * release_freed_pages=1 (phkmalloc's H): each region then also keeps a
 * bitmap of the blocks on its spans' lists (cached blocks count as in use:
 * a thread may hand them out without the lock), and a log of the blocks
 * put back since the last pass.  When blocks worth more than
 * release_threshold_kb came back to a region since its last pass, the pass
 * looks at the pages touched by the logged blocks and hands every page
 * whose blocks are all free back to the kernel with
 * madvise(MADV_DONTNEED), with the shadow pages that only count those
 * pages.  The cost is linear in the bytes freed; no free makes a system
 * call, only the drain that crosses the threshold.  A released page reads
 * as zeros, headers included: a free of such a block finds state 0 (see
 * hp_primary_block_released).
 *
 * release_idle_ms (the default, 1000): spans that no block left or came
 * back to for an interval give back the pages inside their free blocks,
 * in a pass a refill or drain runs at most once per interval (the "idle"
 * section below).
 *
 * Under a memory limit the program set itself (heapprof_rlimit.c) a new
 * span, and a page given back that a block handed out lies on, count
 * against it; a refill the limit refuses gives back every free page
 * (hp_primary_trim) and is tried once more.
 *===----------------------------------------------------------------------===*/
#include "heapprof_internal.h"

#include <errno.h>
#include <sys/mman.h>

#define SPAN_SHIFT 16 /* 64 KiB spans; 4 blocks at least */
#define PAGE_SHIFT 12 /* HP_PAGE_SIZE */
_Static_assert(HP_PAGE_SIZE == 1 << PAGE_SHIFT, "page size");

/* A span: SPAN bytes of a region (more for the largest classes), the unit
 * a thread owns.  Its blocks are those whose first byte lies in it; the
 * free ones are on its list (links in the region's next[], never in the
 * freed memory), the rest of it not carved yet starts at block carve. */
typedef struct span {
  u32 head;       /* first free block's index + 1; 0: none */
  u32 nfree;
  u32 owner;      /* the owning lane's tag (see lanes below); 0: nobody */
  u32 next, prev; /* on a list: span index + 1 */
  u32 first;      /* its first block */
  u32 carve, end; /* blocks [carve, end) not carved yet */
  u32 epoch;      /* idle_epoch when a block last left or came back */
  u8 list;        /* LIST_NONE, LIST_LANE, LIST_EMPTY or LIST_ORPHANS */
  u8 released;    /* an idle pass gave its free pages back (or tried to:
                     locked pages stay); no block came back since */
  u64 gone[2];    /* bit per page of the span's bytes: given back to the
                     kernel, and no block on it handed out since (a span
                     is at most 512 KiB: 128 pages) */
} span_t;
enum { LIST_NONE, LIST_LANE, LIST_EMPTY, LIST_ORPHANS };

typedef struct region {
  hp_spinlock_t lock; /* protects everything below but size, beg, recip */
  u32 size;           /* block size, header included */
  u32 span_shift;     /* a span is 1 << span_shift bytes */
  uptr beg;
  uptr high;          /* end of the highest block carved (atomic reads for
                         validation) */
  u64 carved;         /* bytes of the blocks carved (statistics) */
  u64 nfree;          /* blocks on the spans' lists */
  span_t *spans;
  u32 *next;          /* next[i]: the block after i on its span's list, + 1 */
  u64 nspans;         /* spans taken so far, in address order */
  uptr dumped;        /* [beg, beg + dumped) is in core dumps (DUMP_STEP) */
  u32 lanes[HP_LANES]; /* each lane's spans with blocks to give: index + 1 */
  u32 empty;          /* spans with no block in use: nobody's */
  u32 orphans;        /* spans with blocks in use whose lane is gone */
  u32 refills;        /* refills of this region so far (wraps) */
  u32 last_refill[HP_LANES]; /* refills when each lane last refilled */
  /* release_freed_pages only: */
  u64 *free_map;      /* bit per block: on a free list */
  u32 *recent;        /* blocks put on the lists since the last pass */
  u64 nrecent;
  bool released_any;  /* a pass released pages: headers may read as 0 */
  bool limited;       /* this refill was refused memory by a limit the
                         program set itself (new_span, pages_reused) */
  bool untrimmed;     /* blocks came back since the last malloc_trim */
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
    r->span_shift = SPAN_SHIFT;
    while ((1ull << r->span_shift) < 4ull * r->size)
      r->span_shift++;
    HP_CHECK(((1ull << r->span_shift) >> PAGE_SHIFT) <= 128);
    /* One reservation for the links, the spans and (release_freed_pages)
     * the release log: init's system calls are counted. */
    uptr idx_bytes = HP_ROUND_UP((HP_REGION_SIZE / r->size + 1) * sizeof(u32),
                                 HP_PAGE_SIZE);
    uptr span_bytes = HP_ROUND_UP(
        (HP_REGION_SIZE >> r->span_shift) * sizeof(span_t), HP_PAGE_SIZE);
    bool log = hp_flags.release_freed_pages;
    r->next = hp_sys_mmap_noreserve(idx_bytes + span_bytes +
                                        (log ? idx_bytes : 0),
                                    "primary free lists");
    r->spans = (span_t *)((uptr)r->next + idx_bytes);
    if (log)
      r->recent = (u32 *)((uptr)r->spans + span_bytes);
    /* Flags are parsed before the first allocation, so the map sees every
     * block's history. */
    if (log)
      r->free_map = hp_sys_mmap_noreserve(
          (HP_REGION_SIZE / r->size / 64 + 1) * sizeof(u64),
          "primary free-block maps");
  }
}

/* ------------------------------------------------------------ lanes
 *
 * A lane is an owner of spans: each thread with its own caches takes a
 * free lane 1..HP_LANES-1 for its life; lane 0 is shared (the fallback
 * thread, threads beyond the others, cold regions) and never goes away.
 * A lane's tag names one life of it, gen * HP_LANES + lane + 1, so the
 * spans a dead thread owned are told from those of the lane's next
 * thread: a tag is live while lane_gen[lane] is still its gen. */
static u64 lanes_used = 1; /* bit per lane taken; lane 0 always */
static u32 lane_gen[HP_LANES];
/* Generations wrap below 2^26 - 1, so that no tag is 0 (nobody).  A tag
 * that comes round again makes a long-gone thread's spans look live: they
 * are then adopted only once empty, never lost. */
#define GEN_WRAP ((1u << 26) - 1)
static void next_gen(u32 lane) {
  u32 g = __atomic_load_n(&lane_gen[lane], __ATOMIC_RELAXED);
  __atomic_store_n(&lane_gen[lane], (g + 1) % GEN_WRAP, __ATOMIC_RELEASE);
}

static HP_ALWAYS_INLINE u32 tag_lane(u32 tag) { return (tag - 1) % HP_LANES; }
static HP_ALWAYS_INLINE bool tag_live(u32 tag) {
  u32 l = tag_lane(tag);
  return tag && (l == 0 || __atomic_load_n(&lane_gen[l], __ATOMIC_ACQUIRE) ==
                               (tag - 1) / HP_LANES);
}

static u32 take_lane(void) {
  if (!hp_flags.thread_spans)
    return 1; /* every thread in lane 0 */
  u64 used = __atomic_load_n(&lanes_used, __ATOMIC_RELAXED);
  while (~used) {
    u32 l = (u32)__builtin_ctzll(~used);
    if (__atomic_compare_exchange_n(&lanes_used, &used, used | 1ull << l,
                                    false, __ATOMIC_ACQ_REL,
                                    __ATOMIC_RELAXED))
      return __atomic_load_n(&lane_gen[l], __ATOMIC_ACQUIRE) * HP_LANES + l +
             1;
  }
  return 1; /* lane 0, generation 0 */
}

/* The caches of class 0 (no such class) keep the thread's lane tag. */
#define LANE_TAG(caches) ((caches)[0].max)

/* A class's cache holds up to 256 KiB of its blocks (2..64 of them). Set
 * at the cache's first slow path (max 0 sends the first free there): the
 * caches are 25 KiB of a thread's state, and a thread writes only those of
 * the classes it uses (the state is a fresh mapping, zero). */
static HP_ALWAYS_INLINE void cache_max_set(hp_cache_t *cache, u32 c) {
  if (HP_UNLIKELY(!cache->max))
    cache->max =
        HP_MAX(2u, HP_MIN((u32)HP_CACHE_MAX, (256u * 1024) / class_sizes[c]));
}

void hp_primary_init_caches(hp_cache_t *caches) {
  /* Every count and max is 0 (a zero state). */
  LANE_TAG(caches) = 1;
}

void hp_primary_thread_start(hp_cache_t *caches) {
  LANE_TAG(caches) = take_lane();
}

/* ---------------------------------------------------- page release */

/* release_idle_ms's passes so far (written by the pass, under pass_lock;
 * read relaxed under a region's lock to stamp a span). */
static u32 idle_epoch;

/* The index of the block at offset off of region r (off < HP_REGION_SIZE):
 * a multiplication by the reciprocal, no division. */
static HP_ALWAYS_INLINE u64 block_index(const region_t *r, uptr off) {
  return (u64)(((unsigned __int128)off * r->recip) >> 64);
}

static HP_ALWAYS_INLINE bool map_has(const region_t *r, u64 idx) {
  return r->free_map[idx / 64] >> (idx % 64) & 1;
}

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
    if (!map_has(r, i))
      return false;
  return true;
}

/* The bit of the page at pg in its span's gone[] (the span whose bytes
 * hold it, made yet or not). */
static HP_ALWAYS_INLINE u64 *gone_word(region_t *r, uptr pg, u64 *bit) {
  uptr off = pg - r->beg;
  u32 i = (u32)((off & ((1ull << r->span_shift) - 1)) >> PAGE_SHIFT);
  *bit = 1ull << (i % 64);
  return &r->spans[off >> r->span_shift].gone[i / 64];
}

/* The block at b is handed out: its pages may be written again, and a
 * release of them counts again.  Those given back are the program's
 * memory again, which a limit the program set itself counts
 * (hp_rlimit_reused): refused, the block stays where it is (false, and
 * the region is marked limited).  Lock held. */
static HP_ALWAYS_INLINE bool pages_reused(region_t *r, uptr b) {
  if (HP_LIKELY(!r->released_any))
    return true;
  u64 gone = 0;
  for (uptr pg = HP_ROUND_DOWN(b, HP_PAGE_SIZE); pg < b + r->size;
       pg += HP_PAGE_SIZE) {
    u64 bit, *w = gone_word(r, pg, &bit);
    gone += !!(*w & bit);
  }
  if (!gone)
    return true;
  if (!hp_rlimit_reused(gone << PAGE_SHIFT)) {
    r->limited = true;
    return false;
  }
  for (uptr pg = HP_ROUND_DOWN(b, HP_PAGE_SIZE); pg < b + r->size;
       pg += HP_PAGE_SIZE) {
    u64 bit, *w = gone_word(r, pg, &bit);
    *w &= ~bit;
  }
  return true;
}

/* [beg, end) (page-aligned), whose madvise went: the shadow pages that
 * count only those bytes (32 KiB of memory per shadow page) go too, and
 * the pages given back that were not already are counted: a page counts
 * once per give-back, and again only once a block on it was handed out
 * since (pages_reused), so pages_released is memory given back, not the
 * pages a pass or malloc_trim walks again (or a search below tries
 * twice). */
static u64 released(region_t *r, uptr beg, uptr end) {
  if (end <= beg)
    return 0;
  if (hp_flags.profiling) {
    uptr span = (uptr)HP_PAGE_SIZE << HP_SHADOW_SCALE;
    uptr sb = HP_ROUND_UP(beg, span), se = HP_ROUND_DOWN(end, span);
    if (se > sb)
      hp_sys_madvise(hp_shadow_counter(sb), (se - sb) >> HP_SHADOW_SCALE,
                     MADV_DONTNEED);
  }
  __atomic_store_n(&r->released_any, true, __ATOMIC_RELAXED);
  u64 pages = 0;
  for (uptr pg = beg; pg < end; pg += HP_PAGE_SIZE) {
    u64 bit, *w = gone_word(r, pg, &bit);
    pages += !(*w & bit);
    *w |= bit;
  }
  /* No longer the program's memory: a limit it set itself counts it no
   * more (the ballast shrinks), as a heap's trimmed top. */
  if (pages)
    hp_rlimit_released(pages << PAGE_SHIFT);
  return pages;
}

/* madvise(MADV_DONTNEED) of [beg, end): 0, or the error. */
static int dontneed(uptr beg, uptr end) {
  return hp_sys_madvise((void *)beg, end - beg, MADV_DONTNEED);
}

/* The middle of [a, b), on a page (a < b - 1 page). */
static HP_ALWAYS_INLINE uptr mid_page(uptr a, uptr b) {
  return a + HP_ROUND_DOWN((b - a) / 2, HP_PAGE_SIZE);
}

/* madvise(MADV_DONTNEED) of [beg, end) (page-aligned), lock held; returns
 * the pages given back that were not already (released()).  The kernel
 * gives no page of a locked mapping back (mlockall, mlock of the
 * program's, the spans the allocator locks after MCL_FUTURE): it walks
 * the range's mappings in order and fails the call (EINVAL) at the first
 * locked one, the pages before it gone.  A range across unlocked and
 * locked pages (spans from before mlockall(MCL_FUTURE) next to spans from
 * after it; a page the program mlock()ed among free blocks) counted none
 * of them, and those after the locked ones stayed.  So a call that fails
 * is followed by a search, madvise by madvise, each of whose success is
 * known: the first locked page by halving (calls on [beg, mid), which
 * give back again only pages already gone), then past the locked run by
 * single pages at doubling distances and halving back to its end, and the
 * rest of the range from there, as one call again.  A wholly locked range
 * of n pages costs 2 + log2(n) calls where it cost one (a 64 KiB span: 6),
 * once per give-back; a locked run with unlocked pages inside
 * it may leave those (the doubling steps over them), never counting a
 * page that did not go.  A call that succeeds, as any does without
 * locked memory, costs what it did.  Nothing is retried until a block
 * comes back: an idle pass marks the span released either way, and
 * malloc_trim and release_freed_pages run only after blocks came back. */
static u64 release_range(region_t *r, uptr beg, uptr end) {
  u64 pages = 0;
  while (beg < end) {
    int err = dontneed(beg, end);
    if (err == 0)
      return pages + released(r, beg, end);
    if (err != EINVAL)
      return pages; /* not a locked page: nothing is known to have gone */
    /* [beg, ok) goes, [beg, bad) fails: bad - 1 page is the first
     * locked page once they are a page apart. */
    uptr ok = beg, bad = end;
    if (dontneed(beg, beg + HP_PAGE_SIZE) != 0)
      bad = beg + HP_PAGE_SIZE;
    while (bad - ok > HP_PAGE_SIZE) {
      uptr mid = mid_page(ok, bad);
      if (dontneed(beg, mid) == 0)
        ok = mid;
      else
        bad = mid;
    }
    pages += released(r, beg, ok);
    /* ok is locked; an unlocked page after it, at doubling distances (the
     * last page of the range the last one tried). */
    uptr locked = ok, step = HP_PAGE_SIZE, unlocked = 0;
    while (!unlocked) {
      uptr q = HP_MIN(locked + step, end - HP_PAGE_SIZE);
      if (q <= locked)
        return pages;
      if (dontneed(q, q + HP_PAGE_SIZE) == 0)
        unlocked = q;
      else
        locked = q;
      step *= 2;
    }
    /* The first unlocked page after locked, halving back. */
    while (unlocked - locked > HP_PAGE_SIZE) {
      uptr mid = mid_page(locked, unlocked);
      if (dontneed(mid, mid + HP_PAGE_SIZE) == 0)
        unlocked = mid;
      else
        locked = mid;
    }
    beg = unlocked;
  }
  return pages;
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
 * A page is released when all its blocks are free and one of them came
 * back since the last pass (a page that was wholly free then went at that
 * pass or, if none of its blocks came back, at an earlier one).  Those
 * blocks are sorted by address, so each page is looked at once, counted
 * once, and neighbouring pages go in one madvise. */
static u64 release_pass(region_t *r) {
  u32 *a = r->recent;
  u64 n = r->nrecent, pages = 0;
  sort_ascending(a, n);
  uptr run_b = 0, run_e = 0, next_pg = 0;
  for (u64 j = 0; j < n; j++) {
    uptr b = r->beg + (uptr)a[j] * r->size;
    uptr pg = HP_MAX(HP_ROUND_DOWN(b, HP_PAGE_SIZE), next_pg);
    uptr pe = HP_ROUND_UP(b + r->size, HP_PAGE_SIZE);
    /* Taken again since it came back: none of its pages can go. */
    for (; map_has(r, a[j]) && pg < pe; pg += HP_PAGE_SIZE) {
      bool inside = pg >= b && pg + HP_PAGE_SIZE <= b + r->size;
      if (!inside && !page_free(r, pg))
        continue;
      if (run_e != pg) {
        pages += release_range(r, run_b, run_e);
        run_b = pg;
      }
      run_e = pg + HP_PAGE_SIZE;
    }
    next_pg = pe;
  }
  pages += release_range(r, run_b, run_e);
  r->nrecent = 0;
  return pages;
}

/* Called after blocks were put on r's lists, lock held. */
static void maybe_release(region_t *r, hp_stats_t *st) {
  if (HP_LIKELY(!r->free_map))
    return;
  s64 kb = hp_flags.release_threshold_kb;
  u64 threshold = kb > 0 ? (u64)kb << 10 : 0;
  if (r->nrecent * r->size < HP_MAX(threshold, (u64)HP_PAGE_SIZE) &&
      r->nrecent < HP_REGION_SIZE / r->size)
    return;
  st->release_passes++;
  st->pages_released += release_pass(r);
}

/* ------------------------------------------------------------ spans */

static HP_ALWAYS_INLINE span_t *span_at(region_t *r, u32 k) {
  return &r->spans[k];
}
static HP_ALWAYS_INLINE u32 span_of(region_t *r, u32 idx) {
  return (u32)(((u64)idx * r->size) >> r->span_shift);
}
static HP_ALWAYS_INLINE u32 *list_head(region_t *r, u8 list, u32 lane) {
  return list == LIST_LANE    ? &r->lanes[lane]
         : list == LIST_EMPTY ? &r->empty
                              : &r->orphans;
}

static void list_push(region_t *r, u32 k, u8 list, u32 lane) {
  span_t *s = span_at(r, k);
  u32 *head = list_head(r, list, lane);
  s->list = list;
  s->prev = 0;
  s->next = *head;
  if (*head)
    span_at(r, *head - 1)->prev = k + 1;
  *head = k + 1;
}

static void list_remove(region_t *r, u32 k) {
  span_t *s = span_at(r, k);
  if (s->list == LIST_NONE)
    return;
  if (s->prev)
    span_at(r, s->prev - 1)->next = s->next;
  else
    *list_head(r, s->list, tag_lane(s->owner)) = s->next;
  if (s->next)
    span_at(r, s->next - 1)->prev = s->prev;
  s->list = LIST_NONE;
}

/* Makes tag the owner of span k, on its lane's list if it has blocks to
 * give. */
static void adopt(region_t *r, u32 k, u32 tag) {
  span_t *s = span_at(r, k);
  list_remove(r, k);
  s->owner = tag;
  if (s->nfree || s->carve < s->end)
    list_push(r, k, LIST_LANE, tag_lane(tag));
}

/* Whether no block of span s is in use (live, or in a cache). */
static HP_ALWAYS_INLINE bool span_empty(const span_t *s) {
  return s->nfree == s->carve - s->first;
}

/* Puts a block on its span's list (the caller counts it in r->nfree);
 * lock held.  A span with no block in use any more goes to the empty
 * spans, whoever owned it: its memory is nobody's, and a thread that gave
 * up allocating (a main thread waiting for its workers) must not keep it
 * from the others.  A span whose owner is gone goes to the lane of the
 * thread giving the block back: that thread uses the span's other objects
 * now (a thread that took over the work of one that ended). */
static HP_ALWAYS_INLINE void push_free(region_t *r, uptr block, u32 tag) {
  u32 idx = (u32)block_index(r, block - r->beg);
  u32 k = span_of(r, idx);
  span_t *s = span_at(r, k);
  r->next[idx] = s->head;
  s->head = idx + 1;
  s->nfree++;
  s->epoch = __atomic_load_n(&idle_epoch, __ATOMIC_RELAXED);
  s->released = 0;
  r->untrimmed = true;
  if (HP_UNLIKELY(r->free_map)) {
    map_set(r, idx, true);
    r->recent[r->nrecent++] = idx;
  }
  if (span_empty(s)) {
    list_remove(r, k);
    s->owner = 0;
    list_push(r, k, LIST_EMPTY, 0);
  } else if (s->owner == tag) { /* the common case: the drainer's own */
    if (s->list == LIST_NONE)
      list_push(r, k, LIST_LANE, tag_lane(tag));
  } else if (!tag_live(s->owner)) {
    adopt(r, k, tag);
  } else if (s->list == LIST_NONE) {
    list_push(r, k, LIST_LANE, tag_lane(s->owner));
  }
}

/* Moves up to n of span k's free blocks into the cache, and with carve
 * fresh ones after them; the span leaves its list once it has none left
 * of either. */
static u32 take_from(region_t *r, u32 k, hp_cache_t *cache, u32 n,
                     bool carve) {
  span_t *s = span_at(r, k);
  uptr *out = cache->blocks + cache->count;
  u32 got = 0, head = s->head;
  while (got < n && head) {
    u32 idx = head - 1;
    uptr b = r->beg + (uptr)idx * r->size;
    if (HP_UNLIKELY(!pages_reused(r, b)))
      break;
    head = r->next[idx];
    if (HP_UNLIKELY(r->free_map))
      map_set(r, idx, false);
    out[got++] = b;
  }
  s->head = head;
  s->nfree -= got;
  r->nfree -= got;
  s->epoch = __atomic_load_n(&idle_epoch, __ATOMIC_RELAXED);
  u32 fresh = carve ? HP_MIN(n - got, s->end - s->carve) : 0;
  if (fresh) {
    uptr b = r->beg + (uptr)s->carve * r->size;
    for (u32 i = 0; i < fresh; i++, b += r->size) {
      /* malloc_trim and idle passes give back blocks not carved yet */
      if (HP_UNLIKELY(!pages_reused(r, b))) {
        fresh = i;
        break;
      }
      out[got + i] = b | FRESH_BIT;
    }
    /* Atomic: dumps read carve and nspans without the lock. */
    __atomic_store_n(&s->carve, s->carve + fresh, __ATOMIC_RELAXED);
    uptr end = (uptr)s->carve * r->size;
    if (end > r->high)
      __atomic_store_n(&r->high, end, __ATOMIC_RELEASE);
    __atomic_store_n(&r->carved, r->carved + (u64)fresh * r->size,
                     __ATOMIC_RELAXED);
    got += fresh;
  }
  cache->count += got;
  if (!s->head && s->carve >= s->end)
    list_remove(r, k);
  return got;
}

/* Takes up to n blocks from the spans on a lane's list, free ones only
 * unless carve. */
static u32 take_from_lane(region_t *r, u32 lane, hp_cache_t *cache, u32 n,
                          bool carve) {
  u32 got = 0;
  for (u32 k1 = r->lanes[lane]; k1 && got < n;) {
    u32 after = span_at(r, k1 - 1)->next; /* k1 may leave the list */
    got += take_from(r, k1 - 1, cache, n - got, carve);
    k1 = after;
  }
  return got;
}

/* Spans are put in core dumps this many bytes of a region at a time. */
#define DUMP_STEP ((uptr)1 << 20)

/* A span never used, owned by tag; false when the region is full. */
static bool new_span(region_t *r, u32 tag) {
  if (r->nspans >= (HP_REGION_SIZE >> r->span_shift))
    return false;
  /* Under a memory limit the program set itself, the span counts against
   * it as a heap's growth would (heapprof_rlimit.h); refused, the region
   * is full for this refill and the allocation fails with ENOMEM. */
  if (HP_UNLIKELY(!hp_rlimit_charge(1ull << r->span_shift))) {
    r->limited = true;
    return false;
  }
  u32 k = (u32)r->nspans;
  span_t *s = span_at(r, k);
  u64 beg = (u64)k << r->span_shift, end = beg + (1ull << r->span_shift);
  u64 cap = HP_REGION_SIZE / r->size;
  s->first = s->carve = (u32)((beg + r->size - 1) / r->size);
  s->end = (u32)HP_MIN((end + r->size - 1) / r->size, cap);
  s->head = s->nfree = 0;
  s->owner = tag;
  s->list = LIST_NONE;
  __atomic_store_n(&r->nspans, k + 1, __ATOMIC_RELEASE);
  /* The program's memory from now on: in its core dumps (the region, a
   * reservation, is not: hp_mmap_noreserve), a MiB at a time, and locked
   * after mlockall(MCL_FUTURE).  Not in the program's seccomp sandbox,
   * whose filter, written for glibc's malloc, may kill for madvise: spans
   * made there stay out of core dumps until a span made outside it (a
   * filter that did not go in) catches the marking up; after
   * mlockall(MCL_FUTURE) they are in, mapped afresh to be locked
   * (hp_mlock_new_memory). */
  if (end > r->dumped && !hp_in_sandbox()) {
    uptr to = HP_MIN(HP_ROUND_UP(end, DUMP_STEP), (uptr)HP_REGION_SIZE);
    hp_sys_madvise((void *)(r->beg + r->dumped), to - r->dumped,
                   MADV_DODUMP);
    r->dumped = to;
  }
  /* The pages of its blocks no carved block of the span before shares:
   * the last block of that span ends in this one, and is carved once that
   * span is; its page was locked with it then. */
  if (HP_UNLIKELY(__atomic_load_n(&hp_mlock_future, __ATOMIC_RELAXED))) {
    const span_t *prev = k ? span_at(r, k - 1) : NULL;
    uptr lo = prev && prev->carve >= prev->end
                  ? HP_ROUND_UP((uptr)s->first * r->size, HP_PAGE_SIZE)
                  : beg;
    uptr hi = HP_MIN(HP_ROUND_UP((uptr)s->end * r->size, HP_PAGE_SIZE),
                     (uptr)HP_REGION_SIZE);
    if (lo < hi)
      hp_mlock_new_memory(r->beg + lo, r->beg + hi);
  }
  if (s->carve < s->end)
    list_push(r, k, LIST_LANE, tag_lane(tag));
  return true;
}

/* A dead lane's spans with blocks to give go to the empty spans or the
 * orphans; lock held. */
static void orphan_lane(region_t *r, u32 lane) {
  while (r->lanes[lane]) {
    u32 k = r->lanes[lane] - 1;
    list_remove(r, k);
    span_at(r, k)->owner = 0;
    list_push(r, k, span_empty(span_at(r, k)) ? LIST_EMPTY : LIST_ORPHANS, 0);
  }
}

bool hp_primary_block_released(u32 c) {
  return c < HP_NUM_REGIONS &&
         __atomic_load_n(&regions[c].released_any, __ATOMIC_RELAXED);
}

/* ------------------------------------------------------------ caches */

/* Adopts the spans of list (the empty ones, or the orphans) until n
 * blocks were taken; returns how many. */
static u32 take_adopting(region_t *r, u32 *list, u32 tag, hp_cache_t *cache,
                         u32 n, bool carve) {
  u32 got = 0;
  while (got < n && *list) {
    u32 k = *list - 1;
    adopt(r, k, tag);
    u32 took = take_from(r, k, cache, n - got, carve);
    /* None, and the span back at the list's head (its own lane's): its
     * pages were refused by the program's limit (pages_reused). */
    if (!took && *list == k + 1)
      break;
    got += took;
  }
  return got;
}

/* A live lane that made none of the last IDLE_REFILLS refills of a region
 * is idle there: a main thread waiting for its workers, or a thread that
 * has stopped allocating the class.  Its spans keep free blocks (others
 * free its objects into them) but never become empty while its cache
 * still holds some of their blocks; a refill that would otherwise carve
 * new memory takes them over (larson: 0.6-0.9 MB of 3.3-3.7 carved while
 * every free block lay in the waiting main thread's spans;
 * docs/performance.md, round 12).  A lane refilling as often as the others is idle with odds
 * of about 2^-16, so threads allocating at the same time stay apart. */
#define IDLE_REFILLS 16
static u32 take_idle(region_t *r, u32 lane, u32 tag, hp_cache_t *cache,
                     u32 n) {
  u32 got = 0;
  u64 lanes = (__atomic_load_n(&lanes_used, __ATOMIC_RELAXED) | 1) &
              ~(1ull << lane);
  for (; lanes && got < n; lanes &= lanes - 1) {
    u32 l = (u32)__builtin_ctzll(lanes);
    if (r->lanes[l] && r->refills - r->last_refill[l] > IDLE_REFILLS)
      got += take_adopting(r, &r->lanes[l], tag, cache, n - got, false);
  }
  return got;
}

/* Moves up to n blocks of the region into the cache, for the lane of tag,
 * reusing memory before touching new: free blocks of its own spans; of
 * empty spans (adopted); of spans whose lane is gone (adopted: a thread
 * freeing into one adopts it first, as it is the one using its objects
 * now); of spans of lanes idle in this region (taken over, take_idle);
 * fresh ones of its own spans; fresh ones of a span never used; else, the
 * region being full, another lane's spans (taken over).  So the blocks of
 * threads running at the same time lie in different spans, and their
 * counters on different lines of shadow, as long as there is room.
 * Returns whether it came back short because a limit the program set
 * itself refused memory (new_span, pages_reused). */
#define FEW_FRESH 4
static bool refill(region_t *r, hp_cache_t *cache, u32 n, u32 tag) {
  u32 lane = tag_lane(tag), want = n;
  hp_spin_lock(&r->lock);
  r->limited = false;
  r->last_refill[lane] = ++r->refills;
  n -= take_from_lane(r, lane, cache, n, false);
  if (n)
    n -= take_adopting(r, &r->empty, tag, cache, n, false);
  if (n)
    n -= take_adopting(r, &r->orphans, tag, cache, n, false);
  if (n == want && r->nfree)
    n -= take_idle(r, lane, tag, cache, n);
  /* Free blocks left only in other threads' spans: new memory, but as
   * little as will do (a thread starting while the one it takes over from
   * still holds its spans and cache would carve a refill of every class). */
  if (n && r->nfree)
    n = n < want ? 0 : HP_MIN(n, FEW_FRESH);
  if (n)
    n -= take_from_lane(r, lane, cache, n, true);
  while (n && new_span(r, tag)) {
    u32 got = take_from(r, r->lanes[lane] - 1, cache, n, true);
    if (!got)
      break; /* its pages refused (pages_reused) */
    n -= got;
  }
  for (u32 l = 0; n && l < HP_LANES; l++)
    n -= take_adopting(r, &r->lanes[l], tag, cache, n, true);
  bool limited = n && r->limited;
  hp_spin_unlock(&r->lock);
  return limited;
}

/* release_idle_ms: whether a pass is due, read at a refill or a drain
 * (after the region's lock is let go). */
static u32 idle_next_ms; /* when the next pass is due (atomic) */
/* Where the pass under way goes on: region idle_c, span idle_k; idle_c 0:
 * none under way (written under idle_lock; idle_c read relaxed). */
static u32 idle_c;
static u64 idle_k;
static void idle_pass(u32 now, hp_stats_t *st);
static HP_ALWAYS_INLINE void idle_check(hp_stats_t *st) {
  /* In the program's seccomp sandbox, no madvise: glibc's malloc and free
   * of a single-threaded program make none, and the program's filter,
   * written for them, may kill for it. */
  if (HP_UNLIKELY(hp_flags.release_idle_ms < 0 || !hp_clock.ready ||
                  hp_in_sandbox()))
    return;
  u32 now = hp_now_ms();
  if (__atomic_load_n(&idle_c, __ATOMIC_RELAXED) ||
      (int32_t)(now - __atomic_load_n(&idle_next_ms, __ATOMIC_RELAXED)) >= 0)
    idle_pass(now, st);
}

static void drain(region_t *r, hp_cache_t *cache, u32 n, u32 tag,
                  hp_stats_t *st) {
  hp_spin_lock(&r->lock);
  n = HP_MIN(n, cache->count);
  for (u32 i = 0; i < n; i++)
    push_free(r, cache->blocks[--cache->count] & ~(uptr)FRESH_BIT, tag);
  r->nfree += n;
  st->cache_drains++;
  maybe_release(r, st);
  hp_spin_unlock(&r->lock);
}

uptr hp_primary_alloc_slow(hp_cache_t *caches, u32 c, bool *fresh,
                           hp_stats_t *st) {
  hp_cache_t *cache = &caches[c];
  cache_max_set(cache, c);
  if (HP_UNLIKELY(!cache->count)) {
    u32 want = HP_MAX(1u, cache->max / 2);
    bool limited = refill(&regions[c], cache, want, LANE_TAG(caches));
    st->cache_refills++;
    /* At a limit the program set itself, the free pages of every class
     * go back (as malloc_trim: they then count against it no more, as
     * glibc's heap trims its top at free) and the refill is tried again:
     * a program that freed its blocks of one size gets blocks of another
     * as it would natively. */
    if (HP_UNLIKELY(limited && !cache->count) && hp_primary_trim(st))
      refill(&regions[c], cache, want, LANE_TAG(caches));
    idle_check(st);
    if (!cache->count)
      return 0;
  }
  uptr b = cache->blocks[--cache->count];
  *fresh = b & FRESH_BIT;
  return b & ~(uptr)FRESH_BIT;
}

/* Cold regions have no caches: every cold block belongs to lane 0. */
uptr hp_primary_alloc_cold(u32 c, bool *fresh, hp_stats_t *st) {
  region_t *r = &regions[HP_COLD_CLASS(c)];
  hp_cache_t one;
  one.count = 0;
  /* Refused by a limit the program set itself: the free pages go back
   * and it is tried once more, as hp_primary_alloc_slow's refill is. */
  if (refill(r, &one, 1, 1) && !one.count && hp_primary_trim(st))
    refill(r, &one, 1, 1);
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
    push_free(r, block, 1);
    r->nfree++;
    maybe_release(r, st);
    hp_spin_unlock(&r->lock);
    idle_check(st);
    return;
  }
  hp_cache_t *cache = &caches[c];
  cache_max_set(cache, c);
  if (HP_UNLIKELY(cache->count >= cache->max)) {
    drain(&regions[c], cache, HP_MAX(1u, cache->max / 2), LANE_TAG(caches),
          st);
    idle_check(st);
  }
  cache->blocks[cache->count++] = block;
}

/* Ends the life of tag: its spans go to the orphans or the empty spans.
 * The generation moves first, so a drain racing with this (it holds a
 * region's lock, this pass takes each in turn) either sees the tag dead or
 * puts its span on the lane's list before this pass empties it: a drain
 * after this pass took that region's lock sees the new generation. */
static void release_lane(u32 tag) {
  u32 lane = tag_lane(tag);
  if (!lane)
    return;
  next_gen(lane); /* only this lane's thread moves it */
  for (u32 c = 1; c < HP_NUM_CLASSES; c++) {
    region_t *r = &regions[c];
    hp_spin_lock(&r->lock);
    orphan_lane(r, lane);
    hp_spin_unlock(&r->lock);
  }
  __atomic_and_fetch(&lanes_used, ~(1ull << lane), __ATOMIC_RELEASE);
}

void hp_primary_flush(hp_cache_t *caches, hp_stats_t *st) {
  for (u32 c = 1; c < HP_NUM_CLASSES; c++)
    if (caches[c].count)
      drain(&regions[c], &caches[c], caches[c].count, LANE_TAG(caches), st);
}

void hp_primary_drain(hp_cache_t *caches, hp_stats_t *st) {
  hp_primary_flush(caches, st);
  release_lane(LANE_TAG(caches));
  LANE_TAG(caches) = 1;
}

/* ------------------------------------------------------------ trim
 *
 * malloc_trim: every page of a region that only free blocks on the spans'
 * lists (or blocks not carved yet) overlap goes back to the kernel, whether
 * release_freed_pages is on or not.  Span by span, in address order: the
 * span's free list marks its free blocks in a map on the stack (no
 * allocation: we serve malloc), and each run of neighbouring free blocks,
 * which may go on into the next span (a span's last block ends in the
 * next one), gives back the pages inside it.  A region no block came back
 * to since the last trim is skipped: its free pages went then (blocks
 * taken since are in use, and a block taken and freed again came back). */

/* A span holds at most 64 KiB / 64 B + 1 blocks (larger classes have
 * spans of 4 to 8 blocks). */
#define TRIM_MAP_WORDS 32

typedef struct trim {
  uptr free_beg;      /* the run of free blocks under way, or 0 */
  uptr rel_beg, rel_end; /* pages to release next, in one madvise */
  u64 pages;
} trim_t;

/* The run of free blocks [t->free_beg, end) ends. */
static void trim_run_end(region_t *r, trim_t *t, uptr end) {
  if (!t->free_beg)
    return;
  uptr b = HP_ROUND_UP(t->free_beg, HP_PAGE_SIZE);
  uptr e = HP_ROUND_DOWN(end, HP_PAGE_SIZE);
  t->free_beg = 0;
  if (e <= b)
    return;
  if (b != t->rel_end) {
    t->pages += release_range(r, t->rel_beg, t->rel_end);
    t->rel_beg = b;
  }
  t->rel_end = e;
}

/* Span k's blocks, in order; lock held. */
static void trim_span(region_t *r, u32 k, trim_t *t) {
  const span_t *s = span_at(r, k);
  u32 n = s->end - s->first;
  uptr first = r->beg + (uptr)s->first * r->size;
  if (!s->nfree && s->carve == s->end) { /* every block in use */
    trim_run_end(r, t, first);
    return;
  }
  u64 map[TRIM_MAP_WORDS];
  HP_CHECK(n <= TRIM_MAP_WORDS * 64);
  hp_memset(map, 0, sizeof(map));
  for (u32 h = s->head; h; h = r->next[h - 1])
    map[(h - 1 - s->first) / 64] |= 1ull << ((h - 1 - s->first) % 64);
  for (u32 i = s->carve - s->first; i < n; i++)
    map[i / 64] |= 1ull << (i % 64);
  for (u32 i = 0; i < n; i++) {
    uptr b = first + (uptr)i * r->size;
    if (map[i / 64] >> (i % 64) & 1) {
      if (!t->free_beg)
        t->free_beg = b;
    } else {
      trim_run_end(r, t, b);
    }
  }
}

u64 hp_primary_trim(hp_stats_t *st) {
  u64 pages = 0;
  for (u32 c = 1; c < HP_NUM_REGIONS; c++) {
    region_t *r = &regions[c];
    if (c == HP_NUM_CLASSES || !__atomic_load_n(&r->nfree, __ATOMIC_RELAXED))
      continue;
    hp_spin_lock(&r->lock);
    if (!r->untrimmed) { /* every free page went at the last trim */
      hp_spin_unlock(&r->lock);
      continue;
    }
    r->untrimmed = false;
    trim_t t = {0, 0, 0, 0};
    for (u64 k = 0; k < r->nspans; k++)
      trim_span(r, (u32)k, &t);
    if (r->nspans) /* past the last span: blocks nobody carved */
      trim_run_end(r, &t, r->beg + (uptr)span_at(r, (u32)r->nspans - 1)->end *
                                    r->size);
    t.pages += release_range(r, t.rel_beg, t.rel_end);
    hp_spin_unlock(&r->lock);
    pages += t.pages;
  }
  st->pages_released += pages;
  return pages;
}

/* ------------------------------------------------------------ idle
 *
 * release_idle_ms (on by default): the decay of mature allocators
 * (jemalloc's dirty pages, scudo's release interval, mimalloc's purge
 * delay), by span.  Every block that leaves a span or comes back to it
 * stamps the span with idle_epoch; a pass, due at most once per interval
 * and run by whichever thread's refill or drain finds it due, advances
 * the epoch and, region by region under its lock, gives back the pages
 * wholly inside runs of free blocks of each span stamped two epochs ago or
 * earlier: nothing came or went there for a whole interval at least.  A
 * span with every block free goes whole (its first and last pages may
 * hold a neighbour's block); in another, the runs between its blocks in
 * use, found from its free list as malloc_trim finds them.  The span is
 * then marked released and not looked at again until a block comes back
 * to it.  A malloc or free the thread cache serves does nothing of this;
 * a refill or drain reads the coarse clock once. */
static hp_spinlock_t idle_lock; /* one pass at a time (trylock) */

/* Span k of r: its free pages back to the kernel; lock held. */
static u64 idle_span(region_t *r, u32 k) {
  span_t *s = span_at(r, k);
  uptr end = r->beg + (uptr)s->end * r->size;
  trim_t t = {0, 0, 0, 0};
  if (span_empty(s)) {
    t.free_beg = r->beg + (uptr)s->first * r->size;
  } else {
    trim_span(r, k, &t);
  }
  trim_run_end(r, &t, end);
  s->released = 1;
  return t.pages + release_range(r, t.rel_beg, t.rel_end);
}

/* A pass goes in steps of at most IDLE_STEP units of work, each run by a
 * refill or drain and holding one region's lock at a time: a span looked
 * at and passed over costs 1, one whose pages go costs a unit per KiB of
 * it (64 for a 64 KiB span: its free list's walk and its madvise).  A
 * step that runs out stops where it is and the next refill or drain, of
 * any thread, goes on from there, whatever the clock; the epoch moves only
 * when a pass starts.  Before, one pass did every span of every region at
 * once: with 2 GiB of 64-byte blocks freed but one a span, a malloc of
 * that class on another thread waited up to 400 ms for the 64-byte class's
 * lock (performance.md, "The size classes' idle pages"). */
#define IDLE_STEP 4096

static void idle_pass(u32 now, hp_stats_t *st) {
  if (!hp_spin_trylock(&idle_lock))
    return; /* another thread is passing */
  u32 c = idle_c;
  u64 k = idle_k;
  if (!c) { /* a new pass, if one is due */
    if ((int32_t)(now - idle_next_ms) < 0) { /* one passed meanwhile */
      hp_spin_unlock(&idle_lock);
      return;
    }
    __atomic_store_n(&idle_next_ms, now + (u32)hp_flags.release_idle_ms,
                     __ATOMIC_RELAXED);
    __atomic_store_n(&idle_epoch, idle_epoch + 1, __ATOMIC_RELAXED);
    st->idle_passes++;
    if (idle_epoch < 2) { /* no span can be idle two epochs yet */
      hp_spin_unlock(&idle_lock);
      return;
    }
    c = 1;
    k = 0;
  }
  u32 epoch = idle_epoch;
  u64 pages = 0, budget = IDLE_STEP;
  for (; c < HP_NUM_REGIONS && budget; c++, k = 0) {
    region_t *r = &regions[c];
    if (c == HP_NUM_CLASSES ||
        __atomic_load_n(&r->nfree, __ATOMIC_RELAXED) * r->size <
            HP_PAGE_SIZE)
      continue;
    u64 here = 0, cost = HP_MAX(1ull, (1ull << r->span_shift) >> 10);
    hp_spin_lock(&r->lock);
    for (; k < r->nspans && budget; k++) {
      const span_t *s = span_at(r, (u32)k);
      budget--;
      if (s->released || epoch - s->epoch < 2 ||
          (u64)s->nfree * r->size < HP_PAGE_SIZE)
        continue;
      here += idle_span(r, (u32)k);
      budget -= HP_MIN(budget, cost - 1);
    }
    bool more = k < r->nspans;
    hp_spin_unlock(&r->lock);
    pages += here;
    if (more)
      break; /* out of budget in this region: go on here next time */
  }
  if (c >= HP_NUM_REGIONS)
    c = k = 0; /* the pass is done */
  idle_k = k;
  __atomic_store_n(&idle_c, c, __ATOMIC_RELAXED);
  st->pages_released += pages;
  hp_spin_unlock(&idle_lock);
}

/* In a fork child only the forking thread lives on: every other lane's
 * spans go to the orphans.  Single-threaded, locks held by the caller
 * (hp_primary_lock_all) or free. */
void hp_primary_fork_child(const hp_cache_t *self) {
  u32 keep = self ? tag_lane(LANE_TAG(self)) : 0;
  /* A thread gone with the fork may have been in an idle pass. */
  idle_lock.state = 0;
  for (u32 l = 1; l < HP_LANES; l++) {
    if (l == keep || !(lanes_used >> l & 1))
      continue;
    next_gen(l);
    for (u32 c = 1; c < HP_NUM_CLASSES; c++)
      orphan_lane(&regions[c], l);
    lanes_used &= ~(1ull << l);
  }
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
  u64 idx = block_index(r, off);
  return r->beg + idx * r->size;
}

void hp_primary_space(uptr *beg, uptr *end) {
  *beg = space_beg;
  *end = space_end;
}

bool hp_primary_block_index(uptr p, u32 *class_id, u64 *index) {
  if (p < space_beg || p >= space_end)
    return false;
  u32 c = (u32)((p - space_beg) / HP_REGION_SIZE);
  if (!c || c == HP_NUM_CLASSES)
    return false;
  region_t *r = &regions[c];
  uptr off = p - r->beg;
  if (off >= __atomic_load_n(&r->high, __ATOMIC_ACQUIRE))
    return false;
  *class_id = c;
  *index = block_index(r, off);
  return true;
}

u64 hp_primary_region_blocks(u32 class_id) {
  region_t *r = &regions[class_id];
  return r->size ? __atomic_load_n(&r->high, __ATOMIC_ACQUIRE) / r->size : 0;
}

uptr hp_primary_block_addr(u32 class_id, u64 index) {
  return regions[class_id].beg + index * regions[class_id].size;
}

/* Calls fn(class, beg, bytes, arg) for each run of carved blocks of
 * region c, in address order: a span's carved blocks are one run, and the
 * runs of neighbouring spans carved to their ends join.  Read without the
 * lock (a span taken meanwhile may be missed). */
static void for_each_run(u32 c, void (*fn)(u32, uptr, uptr, void *),
                         void *arg) {
  region_t *r = &regions[c];
  u64 ns = __atomic_load_n(&r->nspans, __ATOMIC_ACQUIRE);
  uptr run_b = 0, run_e = 0;
  for (u64 k = 0; k < ns; k++) {
    /* first is set before nspans counts the span (release/acquire). */
    u64 first = span_at(r, (u32)k)->first;
    u64 carve = __atomic_load_n(&span_at(r, (u32)k)->carve, __ATOMIC_RELAXED);
    if (carve <= first)
      continue;
    uptr b = r->beg + first * r->size, e = r->beg + carve * r->size;
    if (b != run_e) {
      if (run_e > run_b)
        fn(c, run_b, run_e - run_b, arg);
      run_b = b;
    }
    run_e = e;
  }
  if (run_e > run_b)
    fn(c, run_b, run_e - run_b, arg);
}

typedef struct block_walk {
  void (*fn)(uptr block, u32 size, void *arg);
  void *arg;
} block_walk_t;

static void walk_run(u32 c, uptr beg, uptr bytes, void *arg) {
  block_walk_t *w = arg;
  u32 size = regions[c].size;
  for (uptr b = beg; b < beg + bytes; b += size)
    w->fn(b, size, w->arg);
}

void hp_primary_for_each_block(void (*fn)(uptr block, u32 size, void *arg),
                               void *arg) {
  block_walk_t w = {fn, arg};
  for (u32 c = 1; c < HP_NUM_REGIONS; c++)
    if (c != HP_NUM_CLASSES)
      for_each_run(c, walk_run, &w);
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

typedef struct region_walk {
  void (*fn)(u32 class_id, uptr beg, uptr carved, u64 nfree, u32 size,
             void *arg);
  void *arg;
  u64 nfree; /* passed with the class's first run, then 0 */
} region_walk_t;

static void region_run(u32 c, uptr beg, uptr bytes, void *arg) {
  region_walk_t *w = arg;
  w->fn(c, beg, bytes, w->nfree, regions[c].size, w->arg);
  w->nfree = 0;
}

void hp_primary_for_each_region(void (*fn)(u32 class_id, uptr beg, uptr carved,
                                           u64 nfree, u32 size, void *arg),
                                void *arg) {
  for (u32 c = 1; c < HP_NUM_REGIONS; c++) {
    if (c == HP_NUM_CLASSES)
      continue;
    region_walk_t w = {fn, arg,
                       __atomic_load_n(&regions[c].nfree, __ATOMIC_RELAXED)};
    for_each_run(c, region_run, &w);
  }
}

void hp_primary_for_each_span_run(void (*fn)(uptr beg, uptr end, void *arg),
                                  void *arg) {
  for (u32 c = 1; c < HP_NUM_REGIONS; c++) {
    if (c == HP_NUM_CLASSES)
      continue;
    const region_t *r = &regions[c];
    u64 ns = __atomic_load_n(&r->nspans, __ATOMIC_ACQUIRE);
    if (ns)
      fn(r->beg, r->beg + (ns << r->span_shift), arg);
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

u64 hp_primary_owned_free_bytes(void) {
  u64 n = 0;
  for (u32 c = 1; c < HP_NUM_CLASSES; c++) {
    region_t *r = &regions[c];
    if (!__atomic_load_n(&r->nspans, __ATOMIC_RELAXED))
      continue;
    hp_spin_lock(&r->lock);
    for (u32 l = 1; l < HP_LANES; l++)
      for (u32 k1 = r->lanes[l]; k1; k1 = span_at(r, k1 - 1)->next)
        if (tag_live(span_at(r, k1 - 1)->owner))
          n += (u64)span_at(r, k1 - 1)->nfree * r->size;
    hp_spin_unlock(&r->lock);
  }
  return n;
}

u64 hp_primary_mapped_bytes(void) {
  u64 n = 0;
  for (u32 c = 1; c < HP_NUM_REGIONS; c++)
    n += __atomic_load_n(&regions[c].carved, __ATOMIC_RELAXED);
  return n;
}

u64 hp_primary_span_bytes(void) {
  u64 n = 0;
  for (u32 c = 1; c < HP_NUM_REGIONS; c++)
    n += __atomic_load_n(&regions[c].nspans, __ATOMIC_RELAXED)
         << regions[c].span_shift;
  return n;
}
