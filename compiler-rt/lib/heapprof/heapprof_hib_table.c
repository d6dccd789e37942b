/*===- heapprof_hib_table.c - the set-associative HIB table -------------===
 *
 * Part of heapprof.
 *
 *   set s = stack_id % nsets:  lock[s]  | tag 0 | tag 1 | tag 2 | tag 3 |
 *   tag: { stack_id (0 = empty), record, last merge tick }  16 bytes
 *   records: hp_hib_t, taken from recs[] when a way is first filled
 *
 * The spill log is an array of evicted HIBs in mmap'd memory, appended to
 * at the moment of eviction and read back when a profile is written.  When
 * it is full it is first compacted: the records of one context merged into
 * its first (as the dump's map would merge them), so that it grows with
 * the contexts evicted, not with the evictions.
 *===----------------------------------------------------------------------===*/
#include "heapprof_internal.h"

#include <errno.h>
#include <sched.h>
#include <sys/mman.h>

hp_hib_table_t hp_hib_table;

void hp_hib_table_init(hp_hib_table_t *t, u32 sets, u32 ways) {
  if (t->tags)
    return;
  t->nsets = sets;
  t->nways = ways;
  t->tags = hp_mmap_noreserve((uptr)sets * ways * sizeof(hp_hib_tag_t),
                              "HIB table");
  t->recs = hp_mmap_noreserve((uptr)sets * ways * sizeof(hp_hib_t),
                              "HIB table");
  t->locks = hp_mmap_noreserve((uptr)sets * sizeof(hp_spinlock_t), "HIB table");
  t->used = hp_mmap_noreserve(sets, "HIB table");
}

/* Merges the spill log's records of each context into the context's first
 * record, in their order, keeping the first records in theirs: counts and
 * sums are the same whenever the dump merges them.  An index of positions
 * by stack id, open addressing at half load, mapped for the pass.  Without
 * the index's memory it leaves the log as it is. */
static void spill_compact(hp_hib_table_t *t) {
  u64 n = t->spill_len, cap = 1;
  while (cap < 2 * n)
    cap *= 2;
  u32 *index = hp_mmap(cap * sizeof(u32)); /* 0: empty, else position + 1 */
  if (!index)
    return;
  u64 kept = 0;
  for (u64 i = 0; i < n; i++) {
    hp_hib_t *h = &t->spill[i];
    u64 slot = (h->stack_id * 0x9E3779B97F4A7C15ull) >> 32 & (cap - 1);
    while (index[slot] && t->spill[index[slot] - 1].stack_id != h->stack_id)
      slot = (slot + 1) & (cap - 1);
    if (index[slot]) {
      hp_hib_merge(&t->spill[index[slot] - 1], h);
    } else {
      if (kept != i)
        hp_memcpy(&t->spill[kept], h, sizeof(*h));
      index[slot] = (u32)++kept;
    }
  }
  hp_munmap(index, cap * sizeof(u32));
  t->spill_len = kept;
  t->spill_compactions++;
}

/* An evicted record the log has no room for: its growth was refused (the
 * process at a memory limit, most often one it set itself, or at
 * vm.max_map_count).  It aborted the program ("out-of-memory: cannot map
 * ... for HIB spill log"), where without heapprof it ran on; now such
 * records are merged into one, in the context without frames (the stack
 * depot's, for the same cause), said once: the allocations stay counted,
 * not their contexts.  Lock held. */
static void spill_overflow(hp_hib_table_t *t, const hp_hib_t *h) {
  if (t->overflow_used) {
    hp_hib_merge(&t->overflow, h);
    return;
  }
  hp_memcpy(&t->overflow, h, sizeof(*h));
  t->overflow.stack_id = hp_stackdepot_put(NULL, 0);
  t->overflow_used = true;
  static bool said;
  hp_report_cannot_map_once(&said, "memory for the HIB spill log",
                            "records evicted from the HIB table are merged "
                            "into one context without frames until it can");
}

/* The overflow record, to fn and emptied; lock held. */
static void overflow_drain(hp_hib_table_t *t,
                           void (*fn)(const hp_hib_t *h, void *arg),
                           void *arg) {
  if (t->overflow_used) {
    fn(&t->overflow, arg);
    t->overflow_used = false;
  }
}

static void spill_append(hp_hib_table_t *t, const hp_hib_t *h) {
  hp_spin_lock(&t->spill_lock);
  /* A full log is compacted before it grows, and grows when that left it
   * more than half full: either way half of it is free, so a compaction is
   * paid for by as many appends. */
  if (t->spill_len == t->spill_cap) {
    if (t->spill_len >= 4096)
      spill_compact(t);
    /* Grown by mremap, but in the program's sandbox by a copy
     * (hp_grow_by_copy): a free evicts, and a filter that allows what a
     * malloc or free needs (mmap, munmap) may kill for mremap. */
    if (t->spill_len == t->spill_cap || t->spill_len > t->spill_cap / 2) {
      u64 was = t->spill_cap;
      if (hp_array_try_grow((void **)&t->spill, &t->spill_cap, t->spill_len,
                            sizeof(hp_hib_t), 256))
        __atomic_fetch_add(&t->spill_room, t->spill_cap - was,
                           __ATOMIC_RELAXED);
    }
    if (t->spill_len == t->spill_cap) {
      spill_overflow(t, h);
      hp_spin_unlock(&t->spill_lock);
      return;
    }
  }
  hp_memcpy(&t->spill[t->spill_len++], h, sizeof(*h));
  hp_spin_unlock(&t->spill_lock);
}

static hp_hib_t *record(hp_hib_table_t *t, const hp_hib_tag_t *w) {
  return &t->recs[w->rec - 1];
}

/* Finds stack_id's way in its set, with the set locked.  Returns it with
 * *hit set, or else a way to fill, with its record: an empty one, or the
 * least recently merged one after writing its HIB to the spill log (never
 * lost).  Ticks wrap: the oldest is the one with the largest age. */
static hp_hib_tag_t *find_way(hp_hib_table_t *t, u64 stack_id, u32 set,
                              u32 now, bool *hit) {
  hp_hib_tag_t *w = &t->tags[(uptr)set * t->nways];
  hp_hib_tag_t *empty = NULL, *lru = &w[0];
  for (u32 i = 0; i < t->nways; i++) {
    if (w[i].stack_id == stack_id) {
      *hit = true;
      return &w[i];
    }
    if (!w[i].stack_id) {
      if (!empty)
        empty = &w[i];
    } else if (now - w[i].tick > now - lru->tick) {
      lru = &w[i];
    }
  }
  *hit = false;
  if (empty) {
    if (!empty->rec)
      empty->rec = __atomic_add_fetch(&t->nrecs, 1, __ATOMIC_RELAXED);
    return empty;
  }
  spill_append(t, record(t, lru));
  __atomic_fetch_add(&t->evictions, 1, __ATOMIC_RELAXED);
  return lru;
}

void hp_hib_table_insert(hp_hib_table_t *t, const hp_hib_t *h) {
  u32 set = (u32)(h->stack_id % t->nsets);
  u32 now = __atomic_fetch_add(&t->tick, 1, __ATOMIC_RELAXED);
  bool hit;
  hp_spin_lock(&t->locks[set]);
  hp_hib_tag_t *w = find_way(t, h->stack_id, set, now, &hit);
  if (hit)
    hp_hib_merge(record(t, w), h);
  else
    hp_memcpy(record(t, w), h, sizeof(*h));
  w->stack_id = h->stack_id;
  w->tick = now;
  if (HP_UNLIKELY(!t->used[set]))
    __atomic_store_n(&t->used[set], 1, __ATOMIC_RELAXED);
  hp_spin_unlock(&t->locks[set]);
}

/* The sets' part of a drain: every entry to fn, the ways emptied. */
static void drain_sets(hp_hib_table_t *t,
                       void (*fn)(const hp_hib_t *h, void *arg), void *arg) {
  for (u32 s = 0; s < t->nsets; s++) {
    /* A set filled after this read is the next drain's, as if it had been
     * filled after the drain passed it. */
    if (!__atomic_load_n(&t->used[s], __ATOMIC_RELAXED))
      continue;
    hp_spin_lock(&t->locks[s]);
    hp_hib_tag_t *w = &t->tags[(uptr)s * t->nways];
    for (u32 i = 0; i < t->nways; i++) {
      if (w[i].stack_id) {
        fn(record(t, &w[i]), arg);
        w[i].stack_id = 0; /* the way keeps its record */
      }
    }
    __atomic_store_n(&t->used[s], 0, __ATOMIC_RELAXED);
    hp_spin_unlock(&t->locks[s]);
  }
}

void hp_hib_table_drain(hp_hib_table_t *t,
                        void (*fn)(const hp_hib_t *h, void *arg), void *arg) {
  drain_sets(t, fn, arg);
  hp_spin_lock(&t->spill_lock);
  overflow_drain(t, fn, arg);
  for (u64 i = 0; i < t->spill_len; i++)
    fn(&t->spill[i], arg);
  /* The log's pages go back to the kernel, which gives zero pages again
   * to the next evictions (the mapping stays).  In the program's sandbox
   * madvise may be a call its filter kills for: the pages stay. */
  if (t->spill_len && !hp_in_sandbox()) {
    int saved = errno;
    madvise(t->spill, HP_ROUND_DOWN(t->spill_cap * sizeof(hp_hib_t),
                                    HP_PAGE_SIZE),
            MADV_DONTNEED);
    errno = saved;
  }
  t->spill_len = 0;
  hp_spin_unlock(&t->spill_lock);
}

void hp_hib_table_drain_taking_log(hp_hib_table_t *t,
                                   void (*fn)(const hp_hib_t *h, void *arg),
                                   void *arg, hp_hib_log_t *log) {
  drain_sets(t, fn, arg);
  /* The log changes hands whole: evictions from here on start a new one
   * (spill_append grows it from nothing), so none of them writes over a
   * record the caller still reads. */
  hp_spin_lock(&t->spill_lock);
  overflow_drain(t, fn, arg);
  log->recs = t->spill;
  log->len = t->spill_len;
  log->cap = t->spill_cap; /* spill_room unchanged: the room changes hands */
  t->spill = NULL;
  t->spill_len = t->spill_cap = 0;
  hp_spin_unlock(&t->spill_lock);
}

void hp_hib_log_free(hp_hib_table_t *t, hp_hib_log_t *log) {
  if (log->recs) {
    hp_munmap(log->recs, log->cap * sizeof(hp_hib_t));
    __atomic_fetch_sub(&t->spill_room, log->cap, __ATOMIC_RELAXED);
  }
  hp_memset(log, 0, sizeof(*log));
}

static void drop(const hp_hib_t *h, void *arg) {
  (void)h;
  (void)arg;
}

void hp_hib_table_clear(hp_hib_table_t *t) {
  hp_hib_table_drain(t, drop, NULL);
  hp_spin_lock(&t->bins_lock);
  hp_memset(&t->bins, 0, sizeof(t->bins));
  hp_spin_unlock(&t->bins_lock);
}

void hp_hib_table_take_bins(hp_hib_table_t *t, hp_size_bins_t *out) {
  hp_spin_lock(&t->bins_lock);
  hp_size_bins_merge(out, &t->bins);
  hp_memset(&t->bins, 0, sizeof(t->bins));
  hp_spin_unlock(&t->bins_lock);
}

u64 hp_hib_table_evictions(const hp_hib_table_t *t) {
  return __atomic_load_n(&t->evictions, __ATOMIC_RELAXED);
}

void hp_hib_table_lock_all(hp_hib_table_t *t) {
  for (u32 s = 0; s < t->nsets; s++)
    hp_spin_lock(&t->locks[s]);
  hp_spin_lock(&t->spill_lock);
  hp_spin_lock(&t->bins_lock);
}

void hp_hib_table_unlock_all(hp_hib_table_t *t) {
  hp_spin_unlock(&t->bins_lock);
  hp_spin_unlock(&t->spill_lock);
  for (u32 s = 0; s < t->nsets; s++)
    hp_spin_unlock(&t->locks[s]);
}

/* ------------------------------------------------------------ size bins */

static HP_ALWAYS_INLINE void bins_add(hp_size_bins_t *b,
                                     const hp_chunk_event_t *e) {
  u64 bin = e->size > 1024 ? HP_SIZE_BIN_BIG : e->size;
  bool freed = !e->live && e->continuation != HP_EVENT_INHERITED;
  if (!e->continuation)
    b->allocs[bin]++;
  if (freed)
    b->frees[bin]++;
  if (HP_UNLIKELY(bin == HP_SIZE_BIN_BIG)) {
    b->big_bytes += e->continuation ? 0 : e->size;
    b->big_freed_bytes += freed ? e->size : 0;
  }
}

void hp_size_bins_add_event(hp_size_bins_t *b, const hp_chunk_event_t *e) {
  bins_add(b, e);
}

void hp_size_bins_merge(hp_size_bins_t *dst, const hp_size_bins_t *src) {
  for (u32 i = 0; i < HP_NUM_SIZE_BINS; i++) {
    dst->allocs[i] += src->allocs[i];
    dst->frees[i] += src->frees[i];
  }
  dst->big_bytes += src->big_bytes;
  dst->big_freed_bytes += src->big_freed_bytes;
}

u64 hp_size_bins_bytes(const hp_size_bins_t *b, u32 i, bool freed) {
  if (i == HP_SIZE_BIN_BIG)
    return freed ? b->big_freed_bytes : b->big_bytes;
  return (freed ? b->frees[i] : b->allocs[i]) * (i ? i : 1);
}

/* ------------------------------------------------------ per-thread cache */

static HP_ALWAYS_INLINE void bins_add_n(hp_size_bins_t *b, u64 size,
                                        u32 continuation, u64 k) {
  u64 bin = size > 1024 ? HP_SIZE_BIN_BIG : size;
  u64 freed = continuation == HP_EVENT_INHERITED ? 0 : k;
  if (!continuation)
    b->allocs[bin] += k;
  b->frees[bin] += freed;
  if (HP_UNLIKELY(bin == HP_SIZE_BIN_BIG)) {
    b->big_bytes += continuation ? 0 : k * size;
    b->big_freed_bytes += freed * size;
  }
}

/* Merges a pending key's events into slot, and their size bins into c's. */
static HP_ALWAYS_INLINE void key_apply(hp_hib_cache_t *c, hp_hib_t *slot,
                                       hp_hib_key_t *k) {
  hp_hib_add_body(slot, k->size, k->accesses, k->lifetime, k->continuation,
                  k->n);
  bins_add_n(&c->bins, k->size, k->continuation, k->n);
  k->n = 0;
}

static void pending_apply(hp_hib_cache_t *c, hp_hib_t *slot,
                          hp_hib_pending_t *p) {
  for (u32 i = 0; i < HP_HIB_KEYS; i++)
    if (p->k[i].n)
      key_apply(c, slot, &p->k[i]);
}

/* A hit on slot i whose key is not the first (hp_hib_cache_add_event has
 * merged its head), under the cache's lock.  The key used goes first; one
 * matching neither displaces the second, whose events are merged.  Keys
 * move whole, and the new one is built from the arguments, never read back
 * from fields just stored (heapprof_hib_table.h). */
void hp_hib_cache_add_key(hp_hib_cache_t *c, u32 i, u64 size, u64 accesses,
                          u32 lifetime, u32 continuation) {
  hp_hib_pending_t *p = &c->pending[i];
  hp_hib_key_t first = p->k[0];
  u64 n = 1;
  if (hp_hib_key_is(&p->k[1], size, accesses, lifetime, continuation))
    n += p->k[1].n;
  else if (p->k[1].n)
    key_apply(c, &c->slots[i], &p->k[1]);
  p->k[1] = first;
  p->k[0] = (hp_hib_key_t){size, accesses, lifetime, continuation, n};
}

/* The rest of hp_hib_cache_add_event (heapprof_hib_table.h), under the
 * cache's lock: a miss, or a live event (a dump's, merged whole). */
void hp_hib_cache_add_locked(hp_hib_cache_t *c, hp_hib_table_t *t,
                             const hp_chunk_event_t *e) {
  u32 i = (u32)(e->stack_id % HP_HIB_CACHE_SLOTS);
  hp_hib_t *slot = &c->slots[i];
  if (slot->stack_id) {
    pending_apply(c, slot, &c->pending[i]);
    if (slot->stack_id != e->stack_id)
      hp_hib_table_insert(t, slot);
  }
  bins_add(&c->bins, e);
  if (slot->stack_id == e->stack_id)
    hp_hib_add_event(slot, e);
  else
    hp_hib_from_event(slot, e);
}

u32 hp_hib_cache_foreign;

void hp_hib_cache_flush(hp_hib_cache_t *c, hp_hib_table_t *t) {
  __atomic_add_fetch(&hp_hib_cache_foreign, 1, __ATOMIC_SEQ_CST);
  hp_spin_lock(&c->lock);
  /* The owner's section (heapprof_hib_table.h); the owner's own flush
   * (thread exit) is never inside one. */
  for (unsigned i = 0; __atomic_load_n(&c->busy, __ATOMIC_ACQUIRE); i++) {
    if (i < 64)
      __builtin_ia32_pause();
    else
      sched_yield();
  }
  for (u32 i = 0; i < HP_HIB_CACHE_SLOTS; i++) {
    if (c->slots[i].stack_id) {
      pending_apply(c, &c->slots[i], &c->pending[i]);
      hp_hib_table_insert(t, &c->slots[i]);
      c->slots[i].stack_id = 0;
    }
  }
  hp_spin_lock(&t->bins_lock);
  hp_size_bins_merge(&t->bins, &c->bins);
  hp_spin_unlock(&t->bins_lock);
  hp_memset(&c->bins, 0, sizeof(c->bins));
  hp_spin_unlock(&c->lock);
  __atomic_sub_fetch(&hp_hib_cache_foreign, 1, __ATOMIC_RELEASE);
}

void hp_hib_cache_clear(hp_hib_cache_t *c) {
  for (u32 i = 0; i < HP_HIB_CACHE_SLOTS; i++) {
    c->slots[i].stack_id = 0;
    for (u32 j = 0; j < HP_HIB_KEYS; j++)
      c->pending[i].k[j].n = 0;
  }
  hp_memset(&c->bins, 0, sizeof(c->bins));
  c->lock.state = 0;
  c->busy = 0;
  c->merging = 0;
}
