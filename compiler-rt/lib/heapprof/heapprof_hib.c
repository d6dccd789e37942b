/*===- heapprof_hib.c - Heap Info Blocks --------------------------------===
 *
 * Part of heapprof.  Per-chunk values and the merge follow LLVM 19's
 * MemInfoBlock definitions (so llvm-profdata's averages mean what they say),
 * with one deliberate difference: NumMigratedCpu accumulates across merges
 * (upstream keeps only the first block's).
 *
 *   access density            = accesses * 100 / size        (size 0 -> 1)
 *   lifetime access density   = access density * 1000 / max(lifetime_ms, 1)
 *===----------------------------------------------------------------------===*/
#include "heapprof_internal.h"

static u32 clamp32(u64 v) { return v > UINT32_MAX ? UINT32_MAX : (u32)v; }

/* The per-object figures of an event, as hp_hib_from_event computes them. */
typedef struct object_figures {
  u64 size, density, lt_density;
  u32 lifetime;
} object_figures_t;

static HP_ALWAYS_INLINE void figures(const hp_chunk_event_t *e,
                                     object_figures_t *f) {
  f->size = e->size ? e->size : 1;
  f->lifetime = e->dealloc_ts >= e->alloc_ts ? e->dealloc_ts - e->alloc_ts : 0;
  f->density = e->accesses * 100 / f->size;
  f->lt_density = f->density * 1000 / (f->lifetime ? f->lifetime : 1);
}

void hp_hib_add_event(hp_hib_t *dst, const hp_chunk_event_t *e) {
  hp_mib_t *d = &dst->mib;
  object_figures_t f;
  figures(e, &f);
  u32 size32 = clamp32(f.size), dens32 = clamp32(f.density),
      ltd32 = clamp32(f.lt_density);
  if (!e->continuation) {
    if (!d->alloc_count) {
      d->min_access_count = d->max_access_count = e->accesses;
      d->min_size = d->max_size = size32;
      d->min_lifetime = d->max_lifetime = f.lifetime;
      d->min_access_density = d->max_access_density = dens32;
      d->min_lifetime_access_density = d->max_lifetime_access_density = ltd32;
    } else {
      d->min_access_count = HP_MIN(d->min_access_count, e->accesses);
      d->max_access_count = HP_MAX(d->max_access_count, e->accesses);
      d->min_size = HP_MIN(d->min_size, size32);
      d->max_size = HP_MAX(d->max_size, size32);
      d->min_lifetime = HP_MIN(d->min_lifetime, f.lifetime);
      d->max_lifetime = HP_MAX(d->max_lifetime, f.lifetime);
      d->min_access_density = HP_MIN(d->min_access_density, dens32);
      d->max_access_density = HP_MAX(d->max_access_density, dens32);
      d->min_lifetime_access_density =
          HP_MIN(d->min_lifetime_access_density, ltd32);
      d->max_lifetime_access_density =
          HP_MAX(d->max_lifetime_access_density, ltd32);
    }
  }
  d->num_lifetime_overlaps += e->alloc_ts < d->dealloc_timestamp;
  d->num_same_alloc_cpu += e->alloc_cpu == d->alloc_cpu_id;
  d->num_same_dealloc_cpu += e->dealloc_cpu == d->dealloc_cpu_id;
  d->num_migrated_cpu += e->alloc_cpu != e->dealloc_cpu;
  d->alloc_count += !e->continuation;
  d->total_access_count += e->accesses;
  d->total_size += e->continuation ? 0 : f.size;
  d->total_lifetime += f.lifetime;
  d->total_access_density += f.density;
  d->total_lifetime_access_density += f.lt_density;
  d->alloc_timestamp = e->alloc_ts;
  d->dealloc_timestamp = e->dealloc_ts;
  d->alloc_cpu_id = e->alloc_cpu;
  d->dealloc_cpu_id = e->dealloc_cpu;
  hp_hib_ext_t *x = &dst->ext;
  x->granules += e->granules;
  x->touched_granules += e->touched_granules;
  x->pages += e->pages;
  x->touched_pages += e->touched_pages;
  x->malloc_cycles += e->malloc_cycles;
  x->free_cycles += e->free_cycles;
  x->continuations += e->continuation;
  x->live_at_dump += e->live;
  if (!e->continuation)
    x->max_size64 = HP_MAX(x->max_size64, f.size);
  x->malloc_samples += e->malloc_cycles != 0;
  x->free_samples += e->free_cycles != 0;
}

void hp_hib_from_event(hp_hib_t *h, const hp_chunk_event_t *e) {
  hp_memset(h, 0, sizeof(*h));
  hp_mib_t *m = &h->mib;
  h->stack_id = e->stack_id;
  u64 size = e->size ? e->size : 1;
  u32 lifetime = e->dealloc_ts >= e->alloc_ts ? e->dealloc_ts - e->alloc_ts : 0;
  u64 density = e->accesses * 100 / size;
  u64 lt_density = density * 1000 / (lifetime ? lifetime : 1);
  m->alloc_count = e->continuation ? 0 : 1;
  m->total_access_count = m->min_access_count = m->max_access_count = e->accesses;
  m->total_size = e->continuation ? 0 : size;
  m->min_size = m->max_size = clamp32(size);
  m->alloc_timestamp = e->alloc_ts;
  m->dealloc_timestamp = e->dealloc_ts;
  m->total_lifetime = m->min_lifetime = m->max_lifetime = lifetime;
  m->alloc_cpu_id = e->alloc_cpu;
  m->dealloc_cpu_id = e->dealloc_cpu;
  m->num_migrated_cpu = e->alloc_cpu != e->dealloc_cpu;
  m->total_access_density = density;
  m->min_access_density = m->max_access_density = clamp32(density);
  m->total_lifetime_access_density = lt_density;
  m->min_lifetime_access_density = m->max_lifetime_access_density =
      clamp32(lt_density);
  hp_hib_ext_t *x = &h->ext;
  x->granules = e->granules;
  x->touched_granules = e->touched_granules;
  x->pages = e->pages;
  x->touched_pages = e->touched_pages;
  x->malloc_cycles = e->malloc_cycles;
  x->free_cycles = e->free_cycles;
  x->continuations = e->continuation;
  x->live_at_dump = e->live;
  x->max_size64 = e->continuation ? 0 : size;
  x->malloc_samples = e->malloc_cycles != 0;
  x->free_samples = e->free_cycles != 0;
}

#define MERGE_MIN(f) d->f = HP_MIN(d->f, s->f)
#define MERGE_MAX(f) d->f = HP_MAX(d->f, s->f)

void hp_hib_merge(hp_hib_t *dst, const hp_hib_t *src) {
  hp_mib_t *d = &dst->mib;
  const hp_mib_t *s = &src->mib;
  /* Per-object figures (min/max) come only from records that count an
   * object; a continuation adds to the totals. */
  bool s_obj = s->alloc_count > 0, d_obj = d->alloc_count > 0;
  if (s_obj && !d_obj) {
    d->min_access_count = s->min_access_count;
    d->max_access_count = s->max_access_count;
    d->min_size = s->min_size;
    d->max_size = s->max_size;
    d->min_lifetime = s->min_lifetime;
    d->max_lifetime = s->max_lifetime;
    d->min_access_density = s->min_access_density;
    d->max_access_density = s->max_access_density;
    d->min_lifetime_access_density = s->min_lifetime_access_density;
    d->max_lifetime_access_density = s->max_lifetime_access_density;
  } else if (s_obj) {
    MERGE_MIN(min_access_count);
    MERGE_MAX(max_access_count);
    MERGE_MIN(min_size);
    MERGE_MAX(max_size);
    MERGE_MIN(min_lifetime);
    MERGE_MAX(max_lifetime);
    MERGE_MIN(min_access_density);
    MERGE_MAX(max_access_density);
    MERGE_MIN(min_lifetime_access_density);
    MERGE_MAX(max_lifetime_access_density);
  }
  d->num_lifetime_overlaps += s->alloc_timestamp < d->dealloc_timestamp;
  d->num_same_alloc_cpu += s->alloc_cpu_id == d->alloc_cpu_id;
  d->num_same_dealloc_cpu += s->dealloc_cpu_id == d->dealloc_cpu_id;
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
#define X(name, desc) dst->ext.name += src->ext.name;
  HP_HIB_EXT_FIELDS(X)
#undef X
  dst->ext.max_size64 = HP_MAX(dst->ext.max_size64 - src->ext.max_size64,
                               src->ext.max_size64);
}
