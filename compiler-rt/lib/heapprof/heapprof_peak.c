/*===- heapprof_peak.c - the heap's peak and the overhead there ---------===
 *
 * Part of heapprof.  See heapprof_peak.h for how the live total and the
 * threads' live tables are kept and when snapshots are taken.  A snapshot
 * adds up the tables (a chunk freed meanwhile may or may not be counted)
 * and writes only into its own mmap'd tables, so it may run inside malloc.
 *
 *   snapshot  per stack id: objects, requested bytes
 *   best      the snapshot with the most requested bytes so far
 *   measured  the allocator's state when a best was measured (the last
 *             one an eighth above the one before it, or a dump's):
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
#include <pthread.h>
#include <sys/ioctl.h>
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
  X(free_listed, "free blocks on the size classes' spans")                   \
  X(blowup, "blocks freed into caches or into spans a thread owns, with more than one thread") \
  X(shadow_mapped, "shadow counters of heap_mapped (8 per 64 bytes)")        \
  X(shadow_resident, "of those, resident (mincore)")                         \
  X(depot_bytes, "stack depot: entries, and its buckets and id index resident") \
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
  u64 objects, bytes, block_bytes, contexts;
  u32 ms;
} snapshot_t;

/* Everything below is under lock.  The snapshot tables are written only by
 * take(); dumps read `best` with the lock held. */
static hp_spinlock_t lock;
static snapshot_t snaps[2];
static snapshot_t *best = &snaps[0], *scratch = &snaps[1];
static overhead_t measured;
static u64 nsnapshots;
static u64 threshold;
/* The last dump's view of best (read by the section writers, dump lock). */
static snapshot_t dumped;
static overhead_t dumped_over;
static u64 dumped_snapshots;

/* The threads' live tables: `tables` (every one, newest first) only grows,
 * with a release store, so a snapshot walks it without a lock;
 * tables_lock guards the list of exited threads' tables and insertions. */
static hp_peak_table_t *tables;
static hp_peak_table_t *free_tables;
static hp_spinlock_t tables_lock;
/* A fork child's start (coarse ms; 0 in the first process): its inherited
 * heap dates from then, not from the parent's last allocation.  Written by
 * hp_peak_fork_child (one thread), read by snapshots (lock). */
static u32 fork_ms;

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

/* ------------------------------------------------------ the live tables */

static hp_peak_table_t *table_get(void) {
  hp_spin_lock(&tables_lock);
  hp_peak_table_t *tab = free_tables;
  if (tab)
    free_tables = tab->next_free;
  hp_spin_unlock(&tables_lock);
  if (tab)
    return tab;
  /* One mapping: the directory, then the flat part's entries. */
  tab = hp_mmap_noreserve_try(sizeof(hp_peak_table_t) +
                              HP_PEAK_FLAT * sizeof(hp_peak_entry_t));
  if (!tab)
    return NULL;
  hp_peak_entry_t *flat = (hp_peak_entry_t *)(tab + 1);
  for (u32 p = 0; p < HP_PEAK_FLAT / HP_PEAK_PAGE; p++)
    tab->pages[p] = flat + p * HP_PEAK_PAGE;
  hp_spin_lock(&tables_lock);
  tab->all = tables;
  __atomic_store_n(&tables, tab, __ATOMIC_RELEASE);
  hp_spin_unlock(&tables_lock);
  return tab;
}

/* No mapping for a table or a page (a process at vm.max_map_count): no
 * new peak is taken from then on, said once; the profile keeps the
 * largest heap seen until then (the live total and the timeline go on).
 * The calls that find no entry count into a sink nothing reads. */
static hp_peak_entry_t sink;
static bool gave_up;
static hp_peak_entry_t *give_up(void) {
  __atomic_store_n(&hp_peak.arm_level, INT64_MAX, __ATOMIC_RELAXED);
  hp_report_cannot_map_once(&gave_up, "the peak tracker's tables",
                            "the peak is not tracked from here on; the "
                            "profile has the largest heap seen until now");
  return &sink;
}

hp_peak_entry_t *hp_peak_entry_slow(hp_peak_thread_t *pt, u32 id) {
  if (__atomic_load_n(&gave_up, __ATOMIC_RELAXED))
    return &sink;
  if (!pt->table) {
    hp_peak_table_t *tab = table_get();
    if (!tab)
      return give_up();
    hp_spin_lock(&tables_lock);
    tab->owner = pt;
    tab->others_ms = 0; /* its last owner's reading is not this thread's */
    hp_spin_unlock(&tables_lock);
    pt->table = tab;
    pt->flat = pt->table->pages[0];
    pt->flat_ids = HP_PEAK_FLAT;
  }
  hp_peak_entry_t **slot = &pt->table->pages[id >> HP_PEAK_PAGE_BITS];
  hp_peak_entry_t *pg = *slot;
  if (!pg) {
    pg = hp_mmap(HP_PEAK_PAGE * sizeof(hp_peak_entry_t));
    if (!pg)
      return give_up();
    __atomic_store_n(slot, pg, __ATOMIC_RELEASE);
  }
  return &pg[id & (HP_PEAK_PAGE - 1)];
}

void hp_peak_publish(hp_peak_thread_t *pt, s64 p) {
  u32 now_ms = hp_now_ms();
  s64 live = __atomic_add_fetch(&hp_peak.live, p, __ATOMIC_RELAXED);
  hp_peak_table_t *own = pt->table; /* NULL only past give_up() */
  if (!own || own->others_ms != now_ms + 1) {
    s64 others = 0;
    hp_spin_lock(&tables_lock); /* owners stay until they leave their table */
    for (hp_peak_table_t *t = tables; t; t = t->all)
      if (t->owner && t->owner != pt)
        others += __atomic_load_n(&t->owner->pending, __ATOMIC_RELAXED);
    hp_spin_unlock(&tables_lock);
    if (!own) {
      hp_timeline_note(live + others, now_ms);
      return;
    }
    own->others = others;
    own->others_ms = now_ms + 1;
  }
  hp_timeline_note(live + own->others, now_ms);
}

void hp_peak_thread_exit(hp_peak_thread_t *pt) {
  hp_peak_table_t *tab = pt->table;
  if (!tab) { /* no table: no publish counts its pending */
    __atomic_fetch_add(&hp_peak.live, pt->pending, __ATOMIC_RELAXED);
    pt->pending = 0;
    return;
  }
  pt->table = NULL;
  pt->flat = NULL;
  pt->flat_ids = 0;
  hp_spin_lock(&tables_lock);
  /* Published and left its table at once: a publish's walk counts these
   * bytes either in the total or in this thread's pending, not both. */
  __atomic_fetch_add(&hp_peak.live, pt->pending, __ATOMIC_RELAXED);
  pt->pending = 0;
  tab->last_alloc_ms = HP_MAX(tab->last_alloc_ms, pt->last_alloc_ms);
  tab->owner = NULL;
  tab->next_free = free_tables;
  free_tables = tab;
  hp_spin_unlock(&tables_lock);
}

/* Adds every table into s: per stack id below s->cap, and the totals.  A
 * context's sum may be caught mid-way through a cross-thread free (the
 * free's table read, the allocation's not): it counts as none then. */
static void sum_tables(snapshot_t *s) {
  u64 pages = HP_MIN(HP_ROUND_UP(s->cap, HP_PEAK_PAGE) >> HP_PEAK_PAGE_BITS,
                     (u64)HP_PEAK_PAGES);
  s64 *sums = (s64 *)s->ctx; /* signed while adding up */
  for (hp_peak_table_t *t = __atomic_load_n(&tables, __ATOMIC_ACQUIRE); t;
       t = t->all) {
    for (u64 p = 0; p < pages; p++) {
      const hp_peak_entry_t *pg =
          __atomic_load_n(&t->pages[p], __ATOMIC_ACQUIRE);
      if (!pg)
        continue;
      u64 n = HP_MIN((u64)HP_PEAK_PAGE, s->cap - (p << HP_PEAK_PAGE_BITS));
      s64 *out = sums + 2 * (p << HP_PEAK_PAGE_BITS);
      for (u64 i = 0; i < n; i++) {
        out[2 * i] += __atomic_load_n(&pg[i].objects, __ATOMIC_RELAXED);
        out[2 * i + 1] += __atomic_load_n(&pg[i].bytes, __ATOMIC_RELAXED);
      }
    }
  }
  for (u64 id = 0; id < s->cap; id++) {
    if (sums[2 * id] <= 0 || sums[2 * id + 1] < 0) {
      sums[2 * id] = sums[2 * id + 1] = 0;
      continue;
    }
    s->objects += (u64)sums[2 * id];
    s->bytes += (u64)sums[2 * id + 1];
    s->contexts += id != 0;
  }
  /* id 0 (no stack) counts in the totals only. */
  s->ctx[0].objects = s->ctx[0].bytes = 0;
}

/* The allocator's bytes of the live chunks, from its books: every carved
 * block is live, in a thread's cache or on a free list, and every large
 * mapping is live.  Another allocator's (allocator=system|PATH) objects
 * count their requested bytes. */
static u64 live_block_bytes(u64 requested) {
  if (hp_foreign_state == HP_FOREIGN_ON)
    return requested;
  hp_alloc_books_t b;
  hp_allocator_books(&b);
  return b.carved - b.free_bytes + b.large_bytes;
}

/* ---------------------------------------- the walk (measured bests only) */

static bool live(const hp_chunk_header_t *h) {
  return __atomic_load_n(&h->state, __ATOMIC_ACQUIRE) == HP_CHUNK_ALLOCATED;
}

/* A size class's region, its blocks one after another, as
 * hp_for_each_live_chunk reads them (heapprof_chunk.h's layouts). */
static void walk_region(u32 class_id, uptr beg, uptr carved, u64 nfree,
                        u32 size, void *arg) {
  (void)class_id;
  (void)nfree;
  hp_util_blocks_t *w = arg;
  for (uptr b = beg; b < beg + carved; b += size) {
    uptr user_beg = hp_block_user_beg(b, size);
    if (live(hp_chunk_header(user_beg)))
      hp_util_blocks_add(w, b, size, user_beg);
  }
}

static void walk_large(hp_large_t *l, void *arg) {
  if (live(hp_chunk_header(l->user_beg)))
    hp_util_blocks_add(arg, l->map_beg, l->map_size, l->user_beg);
}

/* Another allocator's objects: their requested bytes, no header. */
static void walk_foreign(hp_chunk_header_t *h, uptr user_beg, uptr size,
                         void *arg) {
  (void)h;
  (void)user_beg;
  ((hp_util_blocks_t *)arg)->block_bytes += size;
}

/* ----------------------------------------------- the allocator's state */

/* Resident bytes of [beg, beg + size): the pages that hold memory of the
 * process's own. mincore also answers "resident" for a page that was read
 * but never written, which maps the kernel's shared zero page and is not in
 * the process's RSS (a program that reads a fresh 400 MB malloc block
 * showed 400 MB of heap resident beside 2 MB of process resident), so
 * where the kernel has the pagemap's PAGEMAP_SCAN (Linux 6.7) the zero
 * page's pages are left out; older kernels fall back to mincore. */
#define HP_PAGEMAP_SCAN 0xc0606610UL /* _IOWR('f', 16, struct pm_scan_arg) */
#define HP_PAGE_IS_PRESENT (1u << 3)
#define HP_PAGE_IS_PFNZERO (1u << 5)
typedef struct {
  u64 size, flags, start, end, walk_end, vec, vec_len, max_pages;
  u64 category_inverted, category_mask, category_anyof_mask, return_mask;
} hp_pm_scan_arg_t;
typedef struct {
  u64 start, end, categories;
} hp_page_region_t;

static int pagemap_fd = -1; /* open during one measure() */

static bool resident_scan(uptr beg, uptr size, u64 *out) {
  static hp_page_region_t regions[256];
  u64 n = 0;
  uptr end = beg + size;
  while (beg < end) {
    hp_pm_scan_arg_t a;
    hp_memset(&a, 0, sizeof(a));
    a.size = sizeof(a);
    a.start = beg;
    a.end = end;
    a.vec = (u64)(uptr)regions;
    a.vec_len = sizeof(regions) / sizeof(regions[0]);
    a.category_mask = HP_PAGE_IS_PRESENT | HP_PAGE_IS_PFNZERO;
    a.category_inverted = HP_PAGE_IS_PFNZERO;
    a.return_mask = HP_PAGE_IS_PRESENT;
    long got = ioctl(pagemap_fd, HP_PAGEMAP_SCAN, &a);
    if (got < 0)
      return false;
    for (long i = 0; i < got; i++)
      n += regions[i].end - regions[i].start;
    if (a.walk_end <= beg)
      return false; /* no progress: not a scan to trust */
    beg = a.walk_end;
  }
  *out = n;
  return true;
}

static u64 resident(uptr beg, uptr size) {
  static u8 vec[4096];
  u64 n = 0;
  beg = HP_ROUND_DOWN(beg, HP_PAGE_SIZE);
  size = HP_ROUND_UP(size, HP_PAGE_SIZE);
  if (!size || hp_in_sandbox()) /* mincore: not the program's call */
    return 0;
  if (pagemap_fd >= 0) {
    if (resident_scan(beg, size, &n))
      return n;
    close(pagemap_fd); /* an older kernel: mincore from now on */
    pagemap_fd = -1;
    n = 0;
  }
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

/* Not in the program's seccomp sandbox, whose filter may kill for the
 * openat (no profile is written there anyway). */
static u64 process_rss(void) {
  if (hp_in_sandbox())
    return 0;
  int fd = hp_open_proc_self("statm", O_RDONLY | O_CLOEXEC);
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

static void measure(const snapshot_t *s, overhead_t *o) {
  hp_memset(o, 0, sizeof(*o));
  /* Opened here, not once: after a fork /proc/self/pagemap opened by the
   * parent still reads the parent's pages. */
  pagemap_fd = hp_in_sandbox()
                   ? -1
                   : hp_open_proc_self("pagemap", O_RDONLY | O_CLOEXEC);
  /* The chunks' blocks and headers, read block by block: by the heap-wide
   * utilization scan, which reads every header anyway, when it runs (two
   * walks of the heap's headers were most of the cache misses a growing
   * heap paid for its peak: docs/performance.md, "Round 8"). */
  hp_util_blocks_t w = {0, 0};
  hp_util_heap_t u;
  bool util = hp_flags.heap_utilization;
  if (util) {
    hp_util_heap_scan(&u, &w);
  } else {
    hp_primary_for_each_region(walk_region, &w);
    hp_secondary_lock();
    hp_secondary_for_each(walk_large, &w);
    hp_secondary_unlock();
  }
  hp_foreign_for_each_live(walk_foreign, &w);
  o->requested_bytes = s->bytes;
  o->block_bytes = w.block_bytes;
  o->header_bytes = w.header_bytes;
  o->primary_carved = hp_primary_mapped_bytes();
  hp_primary_for_each_region(region_cb, o);
  hp_secondary_lock();
  o->large_mapped = hp_secondary_mapped_bytes();
  hp_secondary_for_each(large_cb, o);
  hp_secondary_unlock();
  o->heap_mapped = o->primary_carved + o->large_mapped;
  u64 freed;
  o->thread_cached = hp_thread_cached_bytes(&freed, &o->threads);
  o->blowup = o->threads > 1 ? freed + hp_primary_owned_free_bytes() : 0;
  o->shadow_mapped = o->heap_mapped >> HP_SHADOW_SCALE;
  uptr db, dbn, di, din;
  hp_stackdepot_tables(&db, &dbn, &di, &din);
  o->depot_bytes = hp_stackdepot_bytes() + resident(db, dbn) + resident(di, din);
  /* The tags are mapped whole and touched set by set; the records up to
   * those taken; the spill log, and one a dump has taken and still reads
   * (spill_room counts both, in one word the log's lock need not guard). */
  o->hib_table_bytes =
      resident((uptr)hp_hib_table.tags, (uptr)hp_hib_table.nsets *
                                            hp_hib_table.nways *
                                            sizeof(hp_hib_tag_t)) +
      resident((uptr)hp_hib_table.recs,
               (uptr)__atomic_load_n(&hp_hib_table.nrecs, __ATOMIC_RELAXED) *
                   sizeof(hp_hib_t)) +
      __atomic_load_n(&hp_hib_table.spill_room, __ATOMIC_RELAXED) *
          sizeof(hp_hib_t);
  o->thread_state_bytes = (o->threads + 1) * sizeof(hp_thread_t);
  /* The snapshots' tables, and of the threads' tables what is resident. */
  o->peak_table_bytes = (snaps[0].cap + snaps[1].cap) * sizeof(peak_ctx_t);
  for (hp_peak_table_t *t = __atomic_load_n(&tables, __ATOMIC_ACQUIRE); t;
       t = t->all) {
    o->peak_table_bytes +=
        resident((uptr)t, sizeof(*t) + HP_PEAK_FLAT * sizeof(hp_peak_entry_t));
    for (u32 p = HP_PEAK_FLAT / HP_PEAK_PAGE; p < HP_PEAK_PAGES; p++) {
      const hp_peak_entry_t *pg =
          __atomic_load_n(&t->pages[p], __ATOMIC_ACQUIRE);
      if (pg)
        o->peak_table_bytes +=
            resident((uptr)pg, HP_PEAK_PAGE * sizeof(hp_peak_entry_t));
    }
  }
  o->process_rss = process_rss();
  if (pagemap_fd >= 0)
    close(pagemap_fd);
  pagemap_fd = -1;
  /* Heap utilization at the peak (heapprof_util.h): the live bytes on the
   * lines and pages touched since their chunks' allocation or the last
   * dump.  One read of every shadow counter of the heap, as a dump's;
   * scanned above. */
  if (util) {
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

/* When the heap as the tables hold it now came to be: the latest
 * allocation of any thread (a snapshot comes at the first free after a
 * top, or at a dump, so nothing grew the heap since), but not before a
 * fork child's start, whose heap it got then. */
static u32 grown_ms(u32 now_ms) {
  u32 ms = fork_ms;
  hp_spin_lock(&tables_lock); /* owners stay until they leave their table */
  for (hp_peak_table_t *t = tables; t; t = t->all) {
    ms = HP_MAX(ms, t->last_alloc_ms);
    if (t->owner)
      ms = HP_MAX(ms, __atomic_load_n(&t->owner->last_alloc_ms,
                                      __ATOMIC_RELAXED));
  }
  hp_spin_unlock(&tables_lock);
  return HP_MIN(ms, now_ms);
}

/* Adds up the live tables into scratch; keeps it if it beats best, and
 * measures the allocator then if it is a dump's or an eighth above the last
 * one measured.  now_ms is the moment of the snapshot (the free's or the
 * dump's), by the coarse clock every other time in the profile is read with
 * (the dump's, the lifetimes', the timeline's); the peak's time is when the
 * heap grew to what the snapshot holds (grown_ms), at most now_ms: a peak
 * never reads after the dump that holds it, nor after the free that found
 * it (a top at 30 ms freed at 60 ms read 60).  Lock held. */
static void take(bool dump, u32 now_ms) {
  /* Room for the contexts so far and some made meanwhile. */
  u64 ids = (u64)hp_stackdepot_count() + 1;
  if (!reserve(scratch, ids + ids / 4 + 64))
    return; /* out of memory: try again at the next arm */
  hp_memset(scratch->ctx, 0, scratch->cap * sizeof(peak_ctx_t));
  scratch->objects = scratch->bytes = scratch->contexts = 0;
  sum_tables(scratch);
  scratch->ms = grown_ms(now_ms);
  hp_timeline_note((s64)scratch->bytes, now_ms); /* exact, where the view is not */
  nsnapshots++;
  u64 now = scratch->bytes;
  if (now > best->bytes) {
    scratch->block_bytes = live_block_bytes(now);
    if (dump || !measured.requested_bytes ||
        now >= measured.requested_bytes + measured.requested_bytes / 8)
      measure(scratch, &measured);
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
  if (hp_peak.armed) {
    /* free() is no cancellation point, and take() may measure: its open,
     * read and close of /proc files are.  A cancel pending there was acted
     * on with the lock held, and the next dump waited for it for ever. */
    int cancel;
    pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &cancel);
    take(false, hp_now_ms());
    pthread_setcancelstate(cancel, NULL);
  }
  errno = saved;
  hp_spin_unlock(&lock);
}

/* --------------------------------------------------------------- dumps */

void hp_peak_dump_take(u32 now_ms) {
  if (!hp_peak.on)
    return;
  hp_spin_lock(&lock);
  int saved = errno;
  take(true, now_ms);
  errno = saved;
}

void hp_peak_dump(void (*fn)(u64 stack_id, u64 objects, u64 bytes, void *arg),
                  void *arg) {
  dumped.bytes = 0;
  if (!hp_peak.on)
    return;
  for (u64 id = 1; id < best->cap; id++)
    if (best->ctx[id].objects)
      fn(id, best->ctx[id].objects, best->ctx[id].bytes, arg);
  dumped = *best;
  dumped.ctx = NULL;
  dumped_over = measured;
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
  if (!hp_peak.on || !dumped_over.requested_bytes)
    return;
#define X(name, desc) hp_buf_append(b, &dumped_over.name, 8);
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

void hp_peak_fork_prepare(void) {
  hp_spin_lock(&lock);
  hp_spin_lock(&tables_lock);
}
void hp_peak_fork_parent(void) {
  hp_spin_unlock(&tables_lock);
  hp_spin_unlock(&lock);
}
/* The child's profile starts afresh (its HIB table is cleared), so does
 * its peak: the parent's contexts have no records in it.  Its heap, the
 * parent's at the fork, stays counted in live. */
void hp_peak_fork_child(void) {
  best->bytes = best->objects = best->block_bytes = best->contexts = 0;
  if (best->ctx)
    hp_memset(best->ctx, 0, best->cap * sizeof(peak_ctx_t));
  hp_memset(&measured, 0, sizeof(measured));
  /* The tables of the threads that did not survive keep counting their
   * chunks, which are the child's now. */
  hp_spin_unlock(&tables_lock);
  nsnapshots = 0;
  fork_ms = hp_now_ms();
  hp_timeline_fork_child();
  __atomic_store_n(&hp_peak.armed, 0, __ATOMIC_RELAXED);
  if (hp_peak.on)
    __atomic_store_n(&hp_peak.arm_level, 1, __ATOMIC_RELAXED);
  hp_spin_unlock(&lock);
}
