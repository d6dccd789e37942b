/*===- heapprof_hib.c - Heap Info Blocks --------------------------------===
 *
 * Part of heapprof.  Per-chunk values and the merge follow LLVM 19's
 * MemInfoBlock definitions (so llvm-profdata's averages mean what they say),
 * with deliberate differences in the per-object counts (NumMigratedCpu,
 * NumLifetimeOverlaps, NumSameAllocCpu, NumSameDeallocCpu):
 *   - a record merged into another adds its own counts (upstream merges
 *     only one-object blocks, and compares each with the block before; a
 *     record of many objects -- a thread's cached record, a dump's -- lost
 *     its counts: two threads' 9 + 9 overlaps came out 10), plus the one
 *     comparison at the seam (s's last event after d's), when s counts
 *     objects;
 *   - a continuation counts none (its object was counted by the event that
 *     counted it: every checkpoint added an overlap per live object).
 *
 *   access density            = accesses * 100 / size        (size 0 -> 1)
 *   lifetime access density   = access density * 1000 / max(lifetime_ms, 1)
 * where the density's lifetime_ms leaves out the clock's bias
 * (hp_density_lifetime in heapprof_hib.h).
 *===----------------------------------------------------------------------===*/
#include "heapprof_internal.h"

/* The MemInfoBlock of one chunk event. */
static HP_ALWAYS_INLINE void event_mib(hp_mib_t *m, const hp_chunk_event_t *e,
                                       u64 *size_out) {
  u64 size = e->size ? e->size : 1;
  u32 lifetime = e->dealloc_ts >= e->alloc_ts ? e->dealloc_ts - e->alloc_ts : 0;
  u64 density, lt_density;
  hp_hib_densities(e->accesses, size,
                   hp_density_lifetime(lifetime, e->continuation), &density,
                   &lt_density);
  m->alloc_count = e->continuation ? 0 : 1;
  m->total_access_count = m->min_access_count = m->max_access_count = e->accesses;
  m->total_size = e->continuation ? 0 : size;
  m->min_size = m->max_size = hp_clamp32(size);
  m->alloc_timestamp = e->alloc_ts;
  m->dealloc_timestamp = e->dealloc_ts;
  m->total_lifetime = m->min_lifetime = m->max_lifetime = lifetime;
  m->alloc_cpu_id = e->alloc_cpu;
  m->dealloc_cpu_id = e->dealloc_cpu;
  m->num_migrated_cpu = !e->continuation && e->alloc_cpu != e->dealloc_cpu;
  m->num_lifetime_overlaps = m->num_same_alloc_cpu = m->num_same_dealloc_cpu = 0;
  m->data_type_id = 0;
  m->total_access_density = density;
  m->min_access_density = m->max_access_density = hp_clamp32(density);
  m->total_lifetime_access_density = lt_density;
  m->min_lifetime_access_density = m->max_lifetime_access_density =
      hp_clamp32(lt_density);
  m->access_histogram_size = 0;
  m->access_histogram = 0;
  *size_out = size;
}

/* Merges MemInfoBlock s into d by LLVM's rules, except for the per-object
 * counts (the top of the file).  Per-object ranges come only from records
 * that count an object; a continuation adds to the totals. */
static HP_ALWAYS_INLINE void merge_mib(hp_mib_t *d, const hp_mib_t *s) {
  if (s->alloc_count && !d->alloc_count) {
#define X(f) d->min_##f = s->min_##f, d->max_##f = s->max_##f;
    HP_MIB_RANGES(X)
#undef X
  } else if (s->alloc_count) {
#define X(f)                                                                 \
  d->min_##f = HP_MIN(d->min_##f, s->min_##f),                               \
  d->max_##f = HP_MAX(d->max_##f, s->max_##f);
    HP_MIB_RANGES(X)
#undef X
  }
  u32 seam = s->alloc_count != 0; /* s's last event may be an object's */
  d->num_lifetime_overlaps += s->num_lifetime_overlaps +
                              (seam & (s->alloc_timestamp < d->dealloc_timestamp));
  d->num_same_alloc_cpu +=
      s->num_same_alloc_cpu + (seam & (s->alloc_cpu_id == d->alloc_cpu_id));
  d->num_same_dealloc_cpu +=
      s->num_same_dealloc_cpu +
      (seam & (s->dealloc_cpu_id == d->dealloc_cpu_id));
  d->num_migrated_cpu += s->num_migrated_cpu;
  d->alloc_count += s->alloc_count;
  d->total_access_count += s->total_access_count;
  d->total_size += s->total_size;
  d->total_lifetime += s->total_lifetime;
  d->total_access_density += s->total_access_density;
  d->total_lifetime_access_density += s->total_lifetime_access_density;
  d->alloc_timestamp = s->alloc_timestamp;
  d->dealloc_timestamp = s->dealloc_timestamp;
  d->alloc_cpu_id = s->alloc_cpu_id;
  d->dealloc_cpu_id = s->dealloc_cpu_id;
}

HP_NOINLINE void hp_hib_add_continuation_lines(hp_hib_ext_t *x,
                                               u8 continuation,
                                               u64 touched_granules,
                                               u64 touched_pages) {
  if (continuation == HP_EVENT_COUNTED) {
    x->touched_granules += touched_granules;
    x->touched_pages += touched_pages;
  }
}

/* heapprof's extension of one chunk event, added into x. */
static HP_ALWAYS_INLINE void add_event_ext(hp_hib_ext_t *x,
                                           const hp_chunk_event_t *e,
                                           u64 size) {
  if (!e->continuation)
    hp_hib_add_object_lines(x, e);
  else
    hp_hib_add_continuation_lines(x, e->continuation, e->touched_granules,
                                  e->touched_pages);
  x->malloc_cycles += e->malloc_cycles;
  x->free_cycles += e->free_cycles;
  x->continuations += e->continuation != 0;
  x->live_at_dump += e->live;
  x->temporary += e->temporary;
  if (!e->continuation)
    x->max_size64 = HP_MAX(x->max_size64, size);
  x->malloc_samples += e->malloc_cycles != 0;
  x->free_samples += e->free_cycles != 0;
  /* mprof's size classes, of the event's size (0 counted as 1). */
  u64 add = e->continuation ? 0 : size, live = e->live ? size : 0;
  x->live_bytes += live;
  if (size <= 32)
    x->bytes_small += add, x->live_bytes_small += live;
  else if (size <= 256)
    x->bytes_medium += add, x->live_bytes_medium += live;
  else if (size <= 2048)
    x->bytes_large += add, x->live_bytes_large += live;
  else
    x->bytes_xlarge += add, x->live_bytes_xlarge += live;
  if (HP_UNLIKELY(e->live)) {
    x->live_lines += e->live_lines;
    x->live_touched_lines += e->live_touched_lines;
    x->live_line_bytes += e->live_line_bytes;
    x->live_pages += e->live_pages;
    x->live_touched_pages += e->live_touched_pages;
    x->live_page_bytes += e->live_page_bytes;
  }
}

void hp_hib_from_event(hp_hib_t *h, const hp_chunk_event_t *e) {
  hp_memset(h, 0, sizeof(*h));
  h->stack_id = e->stack_id;
  u64 size;
  event_mib(&h->mib, e, &size);
  add_event_ext(&h->ext, e, size);
}

void hp_hib_add_event(hp_hib_t *dst, const hp_chunk_event_t *e) {
  hp_mib_t one;
  u64 size;
  event_mib(&one, e, &size);
  merge_mib(&dst->mib, &one);
  add_event_ext(&dst->ext, e, size);
}

void hp_hib_merge(hp_hib_t *dst, const hp_hib_t *src) {
  merge_mib(&dst->mib, &src->mib);
#define X(name, desc) dst->ext.name += src->ext.name;
  HP_HIB_EXT_FIELDS(X)
#undef X
  dst->ext.max_size64 = HP_MAX(dst->ext.max_size64 - src->ext.max_size64,
                               src->ext.max_size64);
}
