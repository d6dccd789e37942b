/*===- heapprof_peak.c - the heap's peak and the overhead there ---------===
 *
 * Part of heapprof.  See heapprof_peak.h for how the live total is kept and
 * when snapshots are taken.  A snapshot reads chunk headers the way a dump
 * does (state first; a chunk freed meanwhile may or may not be counted) and
 * writes only into its own mmap'd tables, so it may run inside malloc.
 *
 *   snapshot  per stack id: objects, requested bytes, block bytes
 *   best      the snapshot with the most requested bytes so far, with the
 *             allocator's state measured when it became the best:
 *
 *   heap mapped = primary blocks carved + large chunks mapped
 *               = live blocks + free blocks in thread caches
 *                 + free blocks on the shared free lists
 *   live blocks = requested + headers + rounding (size class, pages)
 *===----------------------------------------------------------------------===*/
#include "heapprof_internal.h"
#include "heapprof_ext_sections.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

hp_peak_state_t hp_peak;

typedef struct peak_ctx {
  u64 objects, bytes;
} peak_ctx_t;

/* The allocator at the peak (tag 5's payload, in this order). */
#define HP_OVERHEAD_FIELDS(X)                                                \
  X(requested_bytes, "requested bytes of the live chunks")                   \
  X(block_bytes, "their blocks: headers, size-class rounding, whole pages")  \
  X(header_bytes, "of which chunk headers (and large chunks' first page)")   \
  X(heap_mapped, "primary blocks carved plus large chunks mapped")           \
  X(heap_resident, "of heap_mapped, resident (mincore)")                     \
  X(primary_carved, "primary blocks carved from the size-class regions")     \
  X(large_mapped, "large chunks' mappings")                                  \
  X(thread_cached, "free blocks parked in per-thread caches")                \
  X(free_listed, "free blocks on the shared per-class free lists")           \
  X(blowup, "of thread_cached, blocks freed there, with more than one thread")    \
  X(shadow_mapped, "shadow counters of heap_mapped (8 per 64 bytes)")        \
  X(shadow_resident, "of those, resident (mincore)")                         \
  X(depot_bytes, "stack depot")                                              \
  X(hib_table_bytes, "Heap Info Block table (resident) and spill log")                  \
  X(thread_state_bytes, "per-thread state (caches, HIB caches)")             \
  X(free_index_bytes, "free-list index arrays (4 bytes per carved block)")   \
  X(peak_table_bytes, "the peak tracker's own tables")                       \
  X(process_rss, "the process's resident memory (/proc/self/statm)")         \
  X(threads, "threads with heapprof state")                                  \
  X(touched_lines, "heap lines with an access (heap_utilization=1)")         \
  X(touched_line_live_bytes, "live requested bytes on them")                 \
  X(touched_pages, "heap pages with a touched line")                         \
  X(touched_page_live_bytes, "live requested bytes on them")

typedef struct overhead {
#define X(name, desc) u64 name;
  HP_OVERHEAD_FIELDS(X)
#undef X
} overhead_t;

typedef struct snapshot {
  peak_ctx_t *ctx; /* indexed by stack id; cap entries mapped */
  u64 cap;
  u64 objects, bytes, block_bytes, header_bytes, contexts;
  u32 ms;
  overhead_t over;
} snapshot_t;

/* Everything below is under lock.  The snapshot tables are written only by
 * take(); dumps read `best` with the lock held. */
static hp_spinlock_t lock;
static snapshot_t snaps[2];
static snapshot_t *best = &snaps[0], *scratch = &snaps[1];
static u64 nsnapshots;
static u64 threshold;
/* The last dump's view of best (read by the section writers, dump lock). */
static snapshot_t dumped;
static u64 dumped_snapshots;

void hp_peak_init(void) {
  hp_peak.on = hp_flags.profiling && hp_flags.peak;
  s64 kb = hp_flags.peak_threshold_kb;
  threshold = kb > 0 ? (u64)kb << 10 : 0;
  /* Off: no view ever reaches the level, no free finds it armed. */
  /* The first allocation arms: even a tiny heap has its peak. */
  hp_peak.arm_level = hp_peak.on ? 1 : INT64_MAX;
}

static s64 step_after(u64 peak) {
  u64 s = HP_MIN(threshold, peak / 8);
  return (s64)HP_MAX(s, (u64)HP_PEAK_MIN_STEP);
}

/* ------------------------------------------------------------ the walk */

static void count(snapshot_t *s, const hp_chunk_header_t *h, u64 requested,
                  u64 block, u64 header) {
  s->objects++;
  s->bytes += requested;
  s->block_bytes += block;
  s->header_bytes += header;
  u64 id = h->alloc_context_id;
  if (id && id < s->cap) {
    peak_ctx_t *c = &s->ctx[id];
    s->contexts += !c->objects;
    c->objects++;
    c->bytes += requested;
  }
}

static bool live(const hp_chunk_header_t *h) {
  return __atomic_load_n(&h->state, __ATOMIC_ACQUIRE) == HP_CHUNK_ALLOCATED;
}

/* The block layouts of heapprof_chunk.h, as hp_for_each_live_chunk reads
 * them, plus the block's size and header. */
static void walk_block(uptr block, u32 size, void *arg) {
  uptr user_beg = hp_block_user_beg(block, size);
  hp_chunk_header_t *h = hp_chunk_header(user_beg);
  if (live(h))
    count(arg, h, h->requested_size, size, user_beg - block);
}

/* A size class's region, its blocks one after another (walk_block inline:
 * no call per block). */
static void walk_region(u32 class_id, uptr beg, uptr carved, u64 nfree,
                        u32 size, void *arg) {
  (void)class_id;
  (void)nfree;
  for (uptr b = beg; b < beg + carved; b += size)
    walk_block(b, size, arg);
}

static void walk_large(hp_large_t *l, void *arg) {
  hp_chunk_header_t *h = hp_chunk_header(l->user_beg);
  if (live(h))
    count(arg, h, l->requested_size, l->map_size, l->user_beg - l->map_beg);
}

/* An object of another allocator (allocator=system|PATH, heapprof_foreign.c):
 * its block is the wrapped allocator's business, so it counts its
 * requested bytes as its block and no header. */
static void walk_foreign(hp_chunk_header_t *h, uptr user_beg, uptr size,
                         void *arg) {
  (void)user_beg;
  count(arg, h, size, size, 0);
}

/* ----------------------------------------------- the allocator's state */

/* Resident bytes of [beg, beg + size) (page-aligned beg). */
static u64 resident(uptr beg, uptr size) {
  static u8 vec[4096];
  u64 n = 0;
  beg = HP_ROUND_DOWN(beg, HP_PAGE_SIZE);
  size = HP_ROUND_UP(size, HP_PAGE_SIZE);
  while (size) {
    uptr part = HP_MIN(size, (uptr)sizeof(vec) * HP_PAGE_SIZE);
    if (mincore((void *)beg, part, vec) == 0)
      for (uptr i = 0; i < part / HP_PAGE_SIZE; i++)
        n += vec[i] & 1;
    beg += part;
    size -= part;
  }
  return n * HP_PAGE_SIZE;
}

static void region_cb(u32 c, uptr beg, uptr carved, u64 nfree, u32 size,
                      void *arg) {
  overhead_t *o = arg;
  o->free_listed += nfree * size;
  o->free_index_bytes += carved / size * sizeof(u32);
  o->heap_resident += resident(beg, carved);
  if (carved) {
    uptr sb = (uptr)hp_shadow_counter(beg);
    o->shadow_resident += resident(sb, (carved >> HP_SHADOW_SCALE) + HP_PAGE_SIZE);
  }
}

static void large_cb(hp_large_t *l, void *arg) {
  overhead_t *o = arg;
  o->heap_resident += resident(l->map_beg, l->map_size);
  uptr sb = (uptr)hp_shadow_counter(l->map_beg);
  o->shadow_resident += resident(sb, (l->map_size >> HP_SHADOW_SCALE) + HP_PAGE_SIZE);
}

static u64 process_rss(void) {
  int fd = open("/proc/self/statm", O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return 0;
  char buf[128];
  ssize_t r = read(fd, buf, sizeof(buf) - 1);
  close(fd);
  if (r <= 0)
    return 0;
  buf[r] = 0;
  /* "size resident shared ...", in pages. */
  const char *p = hp_strchr(buf, ' ');
  u64 pages = 0;
  for (p = p ? p + 1 : buf; *p >= '0' && *p <= '9'; p++)
    pages = pages * 10 + (u64)(*p - '0');
  return pages * HP_PAGE_SIZE;
}

static void measure(snapshot_t *s) {
  overhead_t *o = &s->over;
  hp_memset(o, 0, sizeof(*o));
  o->requested_bytes = s->bytes;
  o->block_bytes = s->block_bytes;
  o->header_bytes = s->header_bytes;
  o->primary_carved = hp_primary_mapped_bytes();
  hp_primary_for_each_region(region_cb, o);
  hp_secondary_lock();
  o->large_mapped = hp_secondary_mapped_bytes();
  hp_secondary_for_each(large_cb, o);
  hp_secondary_unlock();
  o->heap_mapped = o->primary_carved + o->large_mapped;
  u64 freed;
  o->thread_cached = hp_thread_cached_bytes(&freed, &o->threads);
  o->blowup = o->threads > 1 ? freed : 0;
  o->shadow_mapped = o->heap_mapped >> HP_SHADOW_SCALE;
  o->depot_bytes = hp_stackdepot_bytes();
  /* The table is mapped whole and touched set by set. */
  o->hib_table_bytes =
      resident((uptr)hp_hib_table.ways, (uptr)hp_hib_table.nsets *
                                            hp_hib_table.nways *
                                            sizeof(hp_hib_way_t)) +
      hp_hib_table.spill_cap * sizeof(hp_hib_t);
  o->thread_state_bytes = (o->threads + 1) * sizeof(hp_thread_t);
  o->peak_table_bytes = (snaps[0].cap + snaps[1].cap) * sizeof(peak_ctx_t);
  o->process_rss = process_rss();
  /* Heap utilization at the peak (heapprof_util.h): the live bytes on the
   * lines and pages touched since their chunks' allocation or the last
   * dump.  One read of every shadow counter of the heap, as a dump's. */
  if (hp_flags.heap_utilization) {
    hp_util_heap_t u;
    hp_util_heap_scan(&u);
    o->touched_lines = u.touched_lines;
    o->touched_line_live_bytes = u.touched_line_live_bytes;
    o->touched_pages = u.touched_pages;
    o->touched_page_live_bytes = u.touched_page_live_bytes;
  }
}

/* ------------------------------------------------------------ snapshot */

static bool reserve(snapshot_t *s, u64 n) {
  if (s->cap >= n)
    return true;
  u64 cap = HP_MAX(s->cap * 2, (u64)1024);
  while (cap < n)
    cap *= 2;
  peak_ctx_t *p = hp_mmap(cap * sizeof(peak_ctx_t));
  if (!p)
    return false;
  if (s->ctx)
    hp_munmap(s->ctx, s->cap * sizeof(peak_ctx_t));
  s->ctx = p;
  s->cap = cap;
  return true;
}

/* Walks the heap into scratch; keeps it if it beats best.  Lock held. */
static void take(void) {
  u64 tsc = hp_rdtsc();
  /* Room for the contexts so far and some made during the walk. */
  u64 ids = (u64)hp_stackdepot_count() + 1;
  if (!reserve(scratch, ids + ids / 4 + 64))
    return; /* out of memory: try again at the next arm */
  hp_memset(scratch->ctx, 0, scratch->cap * sizeof(peak_ctx_t));
  scratch->objects = scratch->bytes = scratch->block_bytes = 0;
  scratch->header_bytes = scratch->contexts = 0;
  hp_primary_for_each_region(walk_region, scratch);
  hp_secondary_lock();
  hp_secondary_for_each(walk_large, scratch);
  hp_secondary_unlock();
  hp_foreign_for_each_live(walk_foreign, scratch);
  scratch->ms = hp_tsc_to_ms(tsc);
  nsnapshots++;
  u64 now = scratch->bytes;
  if (now > best->bytes) {
    measure(scratch);
    snapshot_t *t = best;
    best = scratch;
    scratch = t;
  }
  s64 view = __atomic_load_n(&hp_peak.live, __ATOMIC_RELAXED);
  s64 base = HP_MAX((s64)best->bytes, HP_MAX((s64)now, view));
  __atomic_store_n(&hp_peak.arm_level, base + step_after(best->bytes),
                   __ATOMIC_RELAXED);
  __atomic_store_n(&hp_peak.armed, 0, __ATOMIC_RELAXED);
}

void hp_peak_arm(void) {
  if (!hp_spin_trylock(&lock))
    return;
  if (!hp_peak.armed) {
    __atomic_store_n(&hp_peak.armed, 1, __ATOMIC_RELAXED);
    __atomic_store_n(&hp_peak.arm_level, INT64_MAX, __ATOMIC_RELAXED);
  }
  hp_spin_unlock(&lock);
}

void hp_peak_at_top(void) {
  /* Busy: another thread or a dump is walking; the next free retries. */
  if (!hp_spin_trylock(&lock))
    return;
  int saved = errno;
  if (hp_peak.armed)
    take();
  errno = saved;
  hp_spin_unlock(&lock);
}

void hp_peak_thread_exit(s64 *pending) {
  __atomic_fetch_add(&hp_peak.live, *pending, __ATOMIC_RELAXED);
  *pending = 0;
}

/* --------------------------------------------------------------- dumps */

void hp_peak_dump(void (*fn)(u64 stack_id, u64 objects, u64 bytes, void *arg),
                  void *arg) {
  dumped.bytes = 0;
  if (!hp_peak.on)
    return;
  hp_spin_lock(&lock);
  int saved = errno;
  take();
  errno = saved;
  for (u64 id = 1; id < best->cap; id++)
    if (best->ctx[id].objects)
      fn(id, best->ctx[id].objects, best->ctx[id].bytes, arg);
  dumped = *best;
  dumped.ctx = NULL;
  dumped_snapshots = nsnapshots;
  hp_spin_unlock(&lock);
}

/* Tag 1: u64 peak bytes (requested), u64 the allocator's bytes of those
 * chunks, u64 objects, u64 ms since start, u64 contexts, u64 threshold
 * bytes, u64 snapshots taken so far. */
void hp_peak_write_section(hp_buf_t *b, const hp_profile_info_t *info) {
  if (!hp_peak.on)
    return;
  u64 v[] = {dumped.bytes,    dumped.block_bytes, dumped.objects,
             dumped.ms,       dumped.contexts,    threshold,
             dumped_snapshots};
  hp_buf_append(b, v, sizeof(v));
}

void hp_peak_write_overhead(hp_buf_t *b, const hp_profile_info_t *info) {
  if (!hp_peak.on || !dumped.bytes)
    return;
#define X(name, desc) hp_buf_append(b, &dumped.over.name, 8);
  HP_OVERHEAD_FIELDS(X)
#undef X
}

void hp_peak_print_text(hp_buf_t *b) {
  if (!hp_peak.on)
    return;
  hp_buf_printf(b,
                "Peak: %llu bytes (%llu bytes of blocks), %llu objects, %llu "
                "contexts, at %u ms (%llu snapshots)\n",
                (unsigned long long)dumped.bytes,
                (unsigned long long)dumped.block_bytes,
                (unsigned long long)dumped.objects,
                (unsigned long long)dumped.contexts, dumped.ms,
                (unsigned long long)dumped_snapshots);
}

/* ---------------------------------------------------------------- fork */

void hp_peak_fork_prepare(void) { hp_spin_lock(&lock); }
void hp_peak_fork_parent(void) { hp_spin_unlock(&lock); }
/* The child's profile starts afresh (its HIB table is cleared), so does
 * its peak: the parent's contexts have no records in it.  Its heap, the
 * parent's at the fork, stays counted in live. */
void hp_peak_fork_child(void) {
  best->bytes = best->objects = best->block_bytes = best->contexts = 0;
  if (best->ctx)
    hp_memset(best->ctx, 0, best->cap * sizeof(peak_ctx_t));
  nsnapshots = 0;
  __atomic_store_n(&hp_peak.armed, 0, __ATOMIC_RELAXED);
  if (hp_peak.on)
    __atomic_store_n(&hp_peak.arm_level, 1, __ATOMIC_RELAXED);
  hp_spin_unlock(&lock);
}
