/*===- heapprof_peak.h - the heap's peak and the overhead there ---------===
 *
 * Part of heapprof.  The largest live heap of the run (requested bytes),
 * when it happened, and which contexts held it; plus, at that moment, the
 * allocator's bytes and what they are made of (docs/allocator-profiler.md
 * sections 1 and 5).
 *
 * The live total is kept without a shared write per malloc/free: each
 * thread adds its requests to its own `pending` and publishes it to the
 * global `live` only once it moved by HP_PEAK_STEP either way.  A thread's
 * view of the heap is live + its own pending: exact when one thread
 * allocates, off by less than HP_PEAK_STEP per other thread otherwise.
 *
 * Snapshots walk the live chunks and group them by context into a table
 * indexed by stack id (mmap'd; nothing here calls malloc).  One is taken
 *   - at the top: an allocation that brings the view to arm_level arms
 *     the tracker; the first free (or shrinking realloc) after that walks
 *     the heap before its chunk goes, i.e. at the local maximum;
 *   - at every dump (the dump's state is a candidate too).
 * A snapshot that holds more bytes than the best so far replaces it.  After
 * each one arm_level = max(best, view) + step, step = max(64 bytes,
 * min(peak threshold, best / 8)), so every walk is paid for by the heap
 * growing by a step: at most heap/threshold walks above 8 x threshold,
 * about a hundred below (the first allocation arms).  The peak is exact when the heap rose by at least a step above
 * the previous snapshot before falling; otherwise it may be up to a step
 * low (docs/design.md, "The peak").
 *===----------------------------------------------------------------------===*/
#ifndef HEAPPROF_PEAK_H
#define HEAPPROF_PEAK_H

/* A thread publishes its pending bytes after they moved this far. */
#define HP_PEAK_STEP ((s64)64 << 10)
/* The smallest growth between two snapshots. */
#define HP_PEAK_MIN_STEP 64

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

/* Adds size requested bytes to a thread's pending; true when the caller
 * must call hp_peak_arm (after releasing its thread state). */
static HP_ALWAYS_INLINE bool hp_peak_grow(s64 *pending, uptr size) {
  s64 p = *pending + (s64)size;
  if (HP_UNLIKELY(p >= HP_PEAK_STEP)) {
    __atomic_fetch_add(&hp_peak.live, p, __ATOMIC_RELAXED);
    p = 0;
  }
  *pending = p;
  return __atomic_load_n(&hp_peak.live, __ATOMIC_RELAXED) + p >=
         __atomic_load_n(&hp_peak.arm_level, __ATOMIC_RELAXED);
}

static HP_ALWAYS_INLINE void hp_peak_shrink(s64 *pending, uptr size) {
  s64 p = *pending - (s64)size;
  if (HP_UNLIKELY(p <= -HP_PEAK_STEP)) {
    __atomic_fetch_add(&hp_peak.live, p, __ATOMIC_RELAXED);
    p = 0;
  }
  *pending = p;
}

/* A thread's pending bytes go to the global at its exit. */
void hp_peak_thread_exit(s64 *pending);

/* Dump support, under the dump lock: takes a snapshot of the heap now (a
 * candidate like any other), then calls fn for every context live at the
 * peak so far and keeps the peak's numbers for the section writers. */
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
