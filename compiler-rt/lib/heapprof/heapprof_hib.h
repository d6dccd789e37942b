/*===- heapprof_hib.h - Heap Info Blocks --------------------------------===
 *
 * Part of heapprof.  A Heap Info Block (HIB) summarises the chunks of one
 * allocation context: the MemInfoBlock fields LLVM's MemProf defines (so the
 * raw profile is what llvm-profdata reads) plus heapprof's own extension
 * (cache-line and page utilization, allocator cycles, continuations).
 *
 * One chunk becomes a HIB with alloc_count 1 when it is freed, or when a
 * dump finds it live ("as if freed at dump time").  A chunk a dump already
 * counted contributes a *continuation* later: alloc_count 0, size 0, only
 * the accesses and lifetime since that dump, so adding up a series of dumps
 * counts every object once and every access once.
 *===----------------------------------------------------------------------===*/
#ifndef HEAPPROF_HIB_H
#define HEAPPROF_HIB_H

typedef struct hp_mib {
#define HP_MIB_FIELD(type, name, raw) type name;
#include "heapprof_mib_fields.inc"
#undef HP_MIB_FIELD
} hp_mib_t;

/* heapprof's additions; fields summed on merge unless noted.  peak_objects
 * and peak_bytes are no event's: a dump sets them on its records from the
 * peak tracker (heapprof_peak.h), so merges inside a dump only add zeros.  Sizes count
 * as in TotalSize (a 0-byte request is 1 byte).  bytes_<class> are deltas
 * like TotalSize (a continuation adds 0); live_bytes and live_bytes_<class>
 * describe the dump's moment (only live events add to them), so within a
 * dump they sum, across dumps the last one is the state.  The classes are
 * mprof's: small 0-32, medium 33-256, large 257-2048, xlarge above.
 * granules/pages and touched_* are summed per object (a page holding k
 * objects counts k times); live_lines ... live_page_bytes count each line
 * and page of the context's live chunks once (heapprof_util.h). */
#define HP_HIB_EXT_FIELDS(X)                                                 \
  X(granules, "64-byte granules overlapping the chunks")                     \
  X(touched_granules, "granules with at least one access")                   \
  X(pages, "4 KiB pages overlapping the chunks")                             \
  X(touched_pages, "pages with at least one access")                         \
  X(malloc_cycles, "TSC cycles in the sampled allocating calls")             \
  X(free_cycles, "TSC cycles in the sampled deallocating calls")             \
  X(continuations, "contributions of chunks counted by an earlier dump")     \
  X(live_at_dump, "chunks still live when the profile was written")          \
  X(max_size64, "largest requested size, not truncated to 32 bits")          \
  X(malloc_samples, "allocating calls whose cycles were measured")           \
  X(free_samples, "deallocating calls whose cycles were measured")          \
  X(live_bytes, "requested bytes of the chunks live at the dump")            \
  X(bytes_small, "requested bytes allocated in chunks of 0-32 bytes")        \
  X(bytes_medium, "requested bytes allocated in chunks of 33-256 bytes")     \
  X(bytes_large, "requested bytes allocated in chunks of 257-2048 bytes")    \
  X(bytes_xlarge, "requested bytes allocated in chunks over 2048 bytes")     \
  X(live_bytes_small, "live_bytes of chunks of 0-32 bytes")                  \
  X(live_bytes_medium, "live_bytes of chunks of 33-256 bytes")               \
  X(live_bytes_large, "live_bytes of chunks of 257-2048 bytes")              \
  X(live_bytes_xlarge, "live_bytes of chunks over 2048 bytes")             \
  X(live_lines, "lines holding the live chunks' bytes, each once")           \
  X(live_touched_lines, "of those, with an access")                          \
  X(live_line_bytes, "live requested bytes on those touched lines")          \
  X(live_pages, "pages holding the live chunks' bytes, each once")           \
  X(live_touched_pages, "of those, where a live chunk has a touched line")   \
  X(live_page_bytes, "live requested bytes on those touched pages")   \
  X(peak_objects, "chunks live at the heap's peak so far (set at dump)")     \
  X(peak_bytes, "their requested bytes (set at dump)")                       \
  X(temporary, "objects freed before their thread allocated again")

typedef struct hp_hib_ext {
#define X(name, desc) u64 name;
  HP_HIB_EXT_FIELDS(X)
#undef X
} hp_hib_ext_t;

typedef struct hp_hib {
  u64 stack_id; /* StackDepot id; never 0 for a real context */
  hp_mib_t mib;
  hp_hib_ext_t ext;
} hp_hib_t;

/* hp_chunk_event_t's continuation: why a chunk's allocation is not
 * counted again. */
enum { HP_EVENT_COUNTED = 1, HP_EVENT_INHERITED = 2 };
/* An event's continuation from what its chunk says: inherited across a
 * fork wins over reported by an earlier dump (the allocation is the
 * ancestor's either way). */
static HP_ALWAYS_INLINE u8 hp_event_continuation(bool inherited,
                                                 bool reported) {
  return inherited ? HP_EVENT_INHERITED : reported ? HP_EVENT_COUNTED : 0;
}

/* What one chunk did, gathered at free or dump time. */
typedef struct hp_chunk_event {
  u64 stack_id;
  u64 size;          /* requested */
  u64 accesses;
  u64 granules, touched_granules, pages, touched_pages;
  u32 alloc_ts, dealloc_ts;
  u32 alloc_cpu, dealloc_cpu;
  u64 malloc_cycles, free_cycles;
  /* 0; HP_EVENT_COUNTED: counted by an earlier dump of this process;
   * HP_EVENT_INHERITED: allocated before a fork, by an ancestor, whose
   * profile counted it (and its free, of the ancestor's copy). Either is a
   * continuation: true as a truth value. */
  u8 continuation;
  bool live;         /* still live: folded in at dump time */
  bool temporary;    /* freed before its thread allocated anything else */
  /* Only when live (heapprof_util.h: distinct lines/pages per context). */
  u64 live_lines, live_touched_lines, live_line_bytes;
  u64 live_pages, live_touched_pages, live_page_bytes;
} hp_chunk_event_t;

/* An event's lines and pages, added into x.  The event that counts an
 * object counts its lines and pages (hp_hib_add_object_lines); a
 * continuation adds none of them, only the lines first touched since the
 * dump before (the scan of a REPORTED chunk counts a line whose baseline
 * is 0: hp_shadow_fold) and the pages that then got their first touched
 * line, so a series of dumps adds up to what one profile says.  An
 * inherited object's counters start at 0 in the fork child, which cannot
 * tell the lines its parent touched: it adds no lines at all (its
 * accesses still count).  In the merge's test of the continuation, not on
 * the event, and out of line: adjusting the common free's scan cost 22
 * instructions a free (callgrind's mp), the same inline in the merge 11
 * (the free's registers), out of line 1. */
static HP_ALWAYS_INLINE void hp_hib_add_object_lines(hp_hib_ext_t *x,
                                                     const hp_chunk_event_t *e) {
  x->granules += e->granules;
  x->touched_granules += e->touched_granules;
  x->pages += e->pages;
  x->touched_pages += e->touched_pages;
}
void hp_hib_add_continuation_lines(hp_hib_ext_t *x, u8 continuation,
                                   u64 touched_granules, u64 touched_pages);

/* Builds the HIB of a single chunk event. */
void hp_hib_from_event(hp_hib_t *h, const hp_chunk_event_t *e);
/* Merges src into dst (same stack id). */
void hp_hib_merge(hp_hib_t *dst, const hp_hib_t *src);
/* Merges one chunk event into dst: exactly hp_hib_merge(dst, HIB of e),
 * without building that HIB (the free path's fast way). */
void hp_hib_add_event(hp_hib_t *dst, const hp_chunk_event_t *e);
/* hp_hib_add_event(dst, e) for an event that is not live, in two parts
 * whose sum is exact in any order (the per-thread cache's batching,
 * heapprof_hib_table.h):
 *   hp_hib_add_head: what depends on the event merged before (the pairwise
 *     counts, the last-event fields) and the plain sums (cycles, granules,
 *     pages, migrations), done at once;
 *   hp_hib_add_body: what depends only on the event's size, accesses,
 *     lifetime and continuation (counts, totals, ranges, densities with
 *     their two divisions), done for k such events at once.
 * Order does not matter for the body: its sums commute, and the ranges are
 * the min/max over the events that count an object (before the first such
 * event they hold hp_hib_from_event's values, which the first one
 * replaces). */
static HP_ALWAYS_INLINE void hp_hib_add_head(hp_hib_t *dst,
                                             const hp_chunk_event_t *e) {
  hp_mib_t *m = &dst->mib;
  /* Per-object counts, compared with the record's last event as upstream
   * does; a continuation counts none: its object was counted by the event
   * that counted it (heapprof_hib.c). */
  hp_hib_ext_t *x = &dst->ext;
  if (HP_LIKELY(!e->continuation)) {
    m->num_lifetime_overlaps += e->alloc_ts < m->dealloc_timestamp;
    m->num_same_alloc_cpu += e->alloc_cpu == m->alloc_cpu_id;
    m->num_same_dealloc_cpu += e->dealloc_cpu == m->dealloc_cpu_id;
    m->num_migrated_cpu += e->alloc_cpu != e->dealloc_cpu;
    hp_hib_add_object_lines(x, e);
  } else {
    hp_hib_add_continuation_lines(x, e->continuation, e->touched_granules,
                                  e->touched_pages);
  }
  m->alloc_timestamp = e->alloc_ts;
  m->dealloc_timestamp = e->dealloc_ts;
  m->alloc_cpu_id = e->alloc_cpu;
  m->dealloc_cpu_id = e->dealloc_cpu;
  x->temporary += e->temporary;
  if (HP_UNLIKELY(e->malloc_cycles | e->free_cycles)) {
    x->malloc_cycles += e->malloc_cycles;
    x->free_cycles += e->free_cycles;
    x->malloc_samples += e->malloc_cycles != 0;
    x->free_samples += e->free_cycles != 0;
  }
}
/* The lifetime hp_hib_add_body takes for an event. */
static HP_ALWAYS_INLINE u32 hp_event_lifetime(const hp_chunk_event_t *e) {
  return e->dealloc_ts >= e->alloc_ts ? e->dealloc_ts - e->alloc_ts : 0;
}
static HP_ALWAYS_INLINE u32 hp_clamp32(u64 v) {
  return v > UINT32_MAX ? UINT32_MAX : (u32)v;
}
/* The two densities of an object (size already 0 -> 1), by the formulas
 * at the top of heapprof_hib.c.  The divisions are skipped where their
 * result is known exactly: no accesses gives 0 for both (most objects of a
 * program that is not instrumented, or of a library that is not), and a
 * lifetime of 0 or 1 ms divides by 1 (most short-lived objects). */
static HP_ALWAYS_INLINE void hp_hib_densities(u64 accesses, u64 size,
                                              u32 lifetime, u64 *density,
                                              u64 *lt_density) {
  u64 d = 0, ld = 0;
  if (accesses) {
    d = accesses * 100 / size;
    ld = lifetime > 1 ? d * 1000 / lifetime : d * 1000;
  }
  *density = d;
  *lt_density = ld;
}
/* The lifetime the lifetime access density divides by.  A lifetime is
 * measured from a start read as the coarse clock's now to an end read as
 * now + res_ms (heapprof_clock.h), so that it is never short; for the
 * density, which clang's hot/cold classification compares with its
 * thresholds (docs/pgo.md), that bias is not harmless: every object freed
 * within a tick measured 4 ms, and its density came out a quarter of
 * upstream's (LLVM divides by max(lifetime_ms, 1)), so a context that
 * upstream's profile and the object's true lifetime make hot came out
 * notcold.  The end's tick less the start's (the measured lifetime less
 * res_ms) is the unbiased reading: 0 for most objects freed within a tick,
 * as upstream's millisecond clock reads them.  A continuation's piece
 * starts at the previous piece's end, read the same way as its own end:
 * its length is unbiased already. */
static HP_ALWAYS_INLINE u32 hp_density_lifetime(u32 lifetime,
                                                bool continuation) {
  if (continuation)
    return lifetime;
  return lifetime > hp_clock.res_ms ? lifetime - hp_clock.res_ms : 0;
}
/* The per-object ranges, min_<f> and max_<f>. */
#define HP_MIB_RANGES(X)                                                     \
  X(access_count) X(size) X(lifetime) X(access_density)                     \
  X(lifetime_access_density)
/* Inline: the cache's key merge (heapprof_hib_table.c) runs it on nearly
 * every free when a context's sizes vary; the call was 12 of its ~190
 * instructions (callgrind, larson). */
static HP_ALWAYS_INLINE void hp_hib_add_body(hp_hib_t *dst, u64 size,
                                             u64 accesses, u32 lifetime,
                                             bool continuation, u64 k) {
  if (!size)
    size = 1;
  u64 density, lt_density;
  hp_hib_densities(accesses, size, hp_density_lifetime(lifetime, continuation),
                   &density, &lt_density);
  hp_mib_t *d = &dst->mib;
  hp_hib_ext_t *x = &dst->ext;
  if (!continuation) {
    u64 v_access_count = accesses, v_size = hp_clamp32(size),
        v_lifetime = lifetime, v_access_density = hp_clamp32(density),
        v_lifetime_access_density = hp_clamp32(lt_density);
    if (!d->alloc_count) {
#define X(f) d->min_##f = d->max_##f = v_##f;
      HP_MIB_RANGES(X)
#undef X
    } else {
#define X(f)                                                                 \
  d->min_##f = HP_MIN(d->min_##f, v_##f), d->max_##f = HP_MAX(d->max_##f, v_##f);
      HP_MIB_RANGES(X)
#undef X
    }
    d->alloc_count += k;
    d->total_size += k * size;
    x->max_size64 = HP_MAX(x->max_size64, size);
    if (size <= 32)
      x->bytes_small += k * size;
    else if (size <= 256)
      x->bytes_medium += k * size;
    else if (size <= 2048)
      x->bytes_large += k * size;
    else
      x->bytes_xlarge += k * size;
  } else {
    x->continuations += k;
  }
  d->total_access_count += k * accesses;
  d->total_lifetime += k * lifetime;
  d->total_access_density += k * density;
  d->total_lifetime_access_density += k * lt_density;
}

#endif
