/*===- heapprof_peak.h - the heap's peak and the overhead there ---------===
 *
 * Part of heapprof.  The largest live heap of the run (requested bytes),
 * when it happened, and which contexts held it; plus, at that moment, the
 * allocator's bytes and what they are made of (docs/allocator-profiler.md
 * sections 1 and 5).
 *
 * The live total is kept without a shared write per malloc/free: each
 * thread adds its requests to its own `pending` and publishes it to the
 * global `live` only once it moved by HP_PEAK_STEP either way (and notes
 * on the timeline, heapprof_timeline.h, the sum plus the other threads'
 * pending bytes, read from their tables' owners).  A thread's
 * view of the heap is live + its own pending: exact when one thread
 * allocates, off by less than HP_PEAK_STEP per other thread otherwise.
 *
 * Each thread also keeps, per allocation context, the objects and requested
 * bytes it allocated minus those it freed (a free on another thread than
 * the allocation's makes that thread's entry negative), in a table of its
 * own indexed by stack id.  A snapshot adds up every table: the live heap
 * per context, in O(threads x contexts), without reading a chunk; the
 * allocator's bytes of those chunks come from its own books (carved blocks
 * minus free ones, plus large mappings).  One is taken
 *   - at the top: an allocation that brings the view to arm_level arms
 *     the tracker; the first free (or shrinking realloc) after that sums
 *     the tables before its chunk goes, i.e. at the local maximum, which
 *     the heap reached at the latest allocation before it (the latest
 *     last_alloc_ms of the tables): that is the peak's time, not the
 *     free's;
 *   - at every dump (the dump's state is a candidate too).
 * A snapshot that holds more bytes than the best so far replaces it.  After
 * each one arm_level = max(best, view) + step, step = max(64 bytes,
 * min(peak threshold, best / 8)).  The peak is exact when the heap rose by
 * at least a step above the previous snapshot before falling; otherwise it
 * may be up to a step low (docs/design.md, "The peak").
 *
 * The allocator's state at the peak (tag 5) reads the whole heap's pages
 * and shadow, so it is measured only when a new best is an eighth above
 * the last measured one, or at a dump: its cost is linear in the heap's
 * final size, and it describes a moment at most an eighth below the peak
 * (its requested_bytes says which).
 *===----------------------------------------------------------------------===*/
#ifndef HEAPPROF_PEAK_H
#define HEAPPROF_PEAK_H

/* A thread publishes its pending bytes after they moved this far. */
#define HP_PEAK_STEP ((s64)64 << 10)
/* The smallest growth between two snapshots. */
#define HP_PEAK_MIN_STEP 64

/* A thread's live table: per stack id, its chunks' objects and requested
 * bytes allocated minus freed, in pages of HP_PEAK_PAGE entries mapped on
 * first use.  Tables are never unmapped: a snapshot reads them while their
 * threads run, and an exited thread's table (its counts still stand) goes
 * to the next new thread. */
#define HP_PEAK_PAGE_BITS 12
#define HP_PEAK_PAGE (1u << HP_PEAK_PAGE_BITS)
#define HP_PEAK_PAGES (HP_STACKDEPOT_MAX_IDS >> HP_PEAK_PAGE_BITS)
/* The first HP_PEAK_FLAT ids' pages are one mapping (reserved, resident as
 * touched), reached without the directory. */
#define HP_PEAK_FLAT (1u << 16)
typedef struct hp_peak_entry {
  s64 objects, bytes;
} hp_peak_entry_t;
typedef struct hp_peak_table {
  struct hp_peak_table *all;     /* every table, newest first */
  struct hp_peak_table *next_free;
  /* The thread counting into it (NULL once it exited), and the coarse
   * clock at the latest allocation of the threads that counted into it
   * before (their last_alloc_ms at exit).  Under tables_lock.  The latest
   * over all tables and owners is when the heap last grew: the time of a
   * top that a later free finds. */
  struct hp_peak_thread *owner;
  u32 last_alloc_ms;
  /* The owner's: the other threads' pending bytes as its last publish
   * read them, and the coarse clock then, plus 1 (0: not read since it
   * took the table); its publishes within that tick reuse them
   * (hp_peak_publish).  Here, not in the thread's own line, which every
   * malloc reads. */
  u32 others_ms;
  s64 others;
  hp_peak_entry_t *pages[HP_PEAK_PAGES];
} hp_peak_table_t;

/* A thread's part (in hp_thread_t, zero-initialised). */
typedef struct hp_peak_thread {
  s64 pending;            /* requested bytes not yet published */
  hp_peak_entry_t *flat;  /* the table's first HP_PEAK_FLAT entries */
  u32 flat_ids;           /* HP_PEAK_FLAT with a table, 0 without */
  hp_peak_table_t *table; /* NULL until its first counted chunk */
  /* The coarse clock at its latest allocation: one store beside pending's,
   * in the thread's own line (a test of table and a store through it cost
   * 4.5 instructions a malloc), read by snapshots through the table's
   * owner. */
  u32 last_alloc_ms;
} hp_peak_thread_t;

/* The shared line: read by every malloc/free, written only on a publish
 * (once per HP_PEAK_STEP bytes of a thread's net allocation), an arm or a
 * snapshot.  Initialised by hp_peak_init (init, single-threaded). */
typedef struct hp_peak_state {
  s64 live;      /* atomic: sum of the threads' published bytes */
  s64 arm_level; /* atomic: a view at or above this arms */
  u32 armed;     /* atomic: the next free takes a snapshot */
  bool on;       /* profiling and the peak flag; fixed at init */
} __attribute__((aligned(64))) hp_peak_state_t;
extern hp_peak_state_t hp_peak;

void hp_peak_init(void);
/* Slow paths: the allocation that reached arm_level, the free that found
 * the tracker armed (called before the chunk is freed). */
void hp_peak_arm(void);
void hp_peak_at_top(void);

/* The entry of stack id in the thread's table, mapping what it lacks. */
hp_peak_entry_t *hp_peak_entry_slow(hp_peak_thread_t *pt, u32 id);
static HP_ALWAYS_INLINE hp_peak_entry_t *hp_peak_entry(hp_peak_thread_t *pt,
                                                       u32 id) {
  if (HP_LIKELY(id < pt->flat_ids))
    return &pt->flat[id];
  return hp_peak_entry_slow(pt, id);
}

/* Adds p, the thread's pending bytes, to the live total and notes the
 * heap's size at now_ms on the timeline: the new total plus the bytes the
 * other threads have not published yet (their pending, read under
 * tables_lock).  The total alone lacked them: with four threads holding
 * 60000 bytes each (none published), a 1 MB block allocated and freed by a
 * fifth was noted at 1000000 and then 0 bytes, where the heap had 1240000
 * and 240000.  The walk reads a line per thread; a thread that publishes
 * at every call (blocks of 64 KiB and more) makes it once per tick of the
 * coarse clock and reuses what it read for the rest of the tick. */
void hp_peak_publish(hp_peak_thread_t *pt, s64 p);

/* A chunk of context id with size requested bytes comes to life at now_ms
 * (the coarse clock).  True when the caller must call hp_peak_arm (after
 * releasing its thread state).  The entries are the thread's own: plain
 * adds, read racily by snapshots (aligned words: never torn). */
static HP_ALWAYS_INLINE bool hp_peak_alloc(hp_peak_thread_t *pt, u32 id,
                                           uptr size, u32 now_ms) {
  hp_peak_entry_t *e = hp_peak_entry(pt, id);
  e->objects++;
  e->bytes += (s64)size;
  __atomic_store_n(&pt->last_alloc_ms, now_ms, __ATOMIC_RELAXED);
  s64 p = pt->pending + (s64)size;
  if (HP_UNLIKELY(p >= HP_PEAK_STEP)) {
    hp_peak_publish(pt, p); /* reads the clock: now_ms kept for the call
                             * cost 5 instructions a malloc (callgrind) */
    p = 0;
  }
  pt->pending = p;
  return __atomic_load_n(&hp_peak.live, __ATOMIC_RELAXED) + p >=
         __atomic_load_n(&hp_peak.arm_level, __ATOMIC_RELAXED);
}

/* The chunk's life ends (the figures of its hp_peak_alloc). */
static HP_ALWAYS_INLINE void hp_peak_free(hp_peak_thread_t *pt, u32 id,
                                          uptr size) {
  hp_peak_entry_t *e = hp_peak_entry(pt, id);
  e->objects--;
  e->bytes -= (s64)size;
  s64 p = pt->pending - (s64)size;
  if (HP_UNLIKELY(p <= -HP_PEAK_STEP)) {
    hp_peak_publish(pt, p);
    p = 0;
  }
  pt->pending = p;
}

/* A thread's pending bytes go to the global at its exit, its table to the
 * next new thread. */
void hp_peak_thread_exit(hp_peak_thread_t *pt);

/* Dump support, under the dump lock, in two steps.  hp_peak_dump_take
 * takes a snapshot of the heap now, at the dump's time now_ms (a candidate
 * like any other) and keeps
 * the peak's lock: it runs before the dump folds the live chunks, whose
 * counters the fold clears, so that a peak measured now reads the heap's
 * utilization as the program left it.  hp_peak_dump then calls fn for
 * every context live at the peak so far, keeps the peak's numbers for the
 * section writers and lets the lock go. */
void hp_peak_dump_take(u32 now_ms);
void hp_peak_dump(void (*fn)(u64 stack_id, u64 objects, u64 bytes, void *arg),
                  void *arg);
/* Section writers (heapprof_ext_sections.c): the peak (tag 1) and the
 * overhead at the peak (tag 5). */
struct hp_profile_info;
void hp_peak_write_section(hp_buf_t *b, const struct hp_profile_info *info);
void hp_peak_write_overhead(hp_buf_t *b, const struct hp_profile_info *info);
/* The text profile's line. */
void hp_peak_print_text(hp_buf_t *b);

void hp_peak_fork_prepare(void);
void hp_peak_fork_parent(void);
void hp_peak_fork_child(void);

#endif
