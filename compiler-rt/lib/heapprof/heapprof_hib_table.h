/*===- heapprof_hib_table.h - the set-associative HIB table -------------===
 *
 * Part of heapprof.  HIBs merge into a table of hib_table_sets sets of
 * hib_table_ways entries; a context's set is its stack id mod the set count
 * (a prime near a power of two).  A hit merges; a miss takes an empty way,
 * or evicts the least recently merged entry of a full set into the spill log
 * at once, so nothing is lost however small the table.  Each set has its own
 * lock: frees on different threads rarely meet.  A way is a 16-byte tag (a
 * set of four is one cache line); its HIB is a record taken from an arena
 * the first time the way is filled and kept by the way after that, so the
 * memory touched is the records of the ways ever used, not the table's
 * (13,000 contexts spread over nearly every set: 5 MB of records and 1 MB of
 * tags instead of 26 MB of ways).
 *===----------------------------------------------------------------------===*/
#ifndef HEAPPROF_HIB_TABLE_H
#define HEAPPROF_HIB_TABLE_H

/* mprof's allocation bin table, process-wide: one bin per requested size
 * 0..1024 and one (HP_SIZE_BIN_BIG) for anything larger.  An object counts
 * in allocs once, by the event that first counts it (not a continuation),
 * and in frees when its free is recorded (not a live event), so summing the
 * dumps of a process gives kept objects = allocs - frees.  The free of an
 * object a fork child inherited is not counted: its allocation is the
 * ancestor's, in the ancestor's bins, so that the bins of a parent and its
 * children add up the same way (each allocation and its free once).
 * Bytes of a bin up to 1024 are its size times its count (size 0 as 1
 * byte, as in TotalSize); only the big bin needs its bytes kept.
 * Per-thread copies sit in the HIB cache (updated under its lock, where the
 * free path already merges its event) and are added into the table's at
 * write-back; a dump adds its live chunks' events to its own copy.  Valid
 * zero-initialised. */
#define HP_SIZE_BIN_BIG 1025
#define HP_NUM_SIZE_BINS 1026
typedef struct hp_size_bins {
  u64 allocs[HP_NUM_SIZE_BINS], frees[HP_NUM_SIZE_BINS];
  u64 big_bytes, big_freed_bytes; /* HP_SIZE_BIN_BIG's bytes */
} hp_size_bins_t;

/* Counts one chunk event. */
void hp_size_bins_add_event(hp_size_bins_t *b, const hp_chunk_event_t *e);
/* Adds src into dst. */
void hp_size_bins_merge(hp_size_bins_t *dst, const hp_size_bins_t *src);
/* Bytes of bin i: allocated (freed=false) or freed. */
u64 hp_size_bins_bytes(const hp_size_bins_t *b, u32 i, bool freed);

typedef struct hp_hib_tag {
  u64 stack_id; /* 0: the way is empty */
  u32 rec;      /* 1 + the way's record in recs; 0: none taken yet */
  u32 tick;     /* of the last merge: recency, compared as an age */
} hp_hib_tag_t;

typedef struct hp_hib_table {
  u32 nsets, nways;          /* fixed at init */
  hp_hib_tag_t *tags;        /* nsets * nways, under locks[set] */
  hp_hib_t *recs;            /* room for nsets * nways, taken in order */
  u32 nrecs;                 /* atomic: records taken */
  hp_spinlock_t *locks;
  /* used[s]: set s has held a HIB since the last drain (written under
   * locks[s]).  A drain visits only those: reading the ways of an empty
   * set would fault its pages in, and on kernels that give read faults on
   * anonymous memory real pages (no shared zero page) that made every
   * profile cost the whole table's memory. */
  u8 *used;
  u32 tick;                  /* atomic, relaxed: recency only */
  u64 evictions;             /* atomic */
  hp_spinlock_t spill_lock;  /* protects spill* */
  hp_hib_t *spill;
  u64 spill_len, spill_cap;
  u64 spill_compactions;     /* under spill_lock: statistics */
  /* Under spill_lock: evicted records the log had no room for (its growth
   * refused: the process at its memory limit), merged into one, in the
   * context without frames; drained with the log. */
  hp_hib_t overflow;
  bool overflow_used;
  u64 spill_room;            /* atomic: records of room in the log and in
                              * logs taken (hp_hib_table_drain_taking_log)
                              * and not yet freed, the table's memory; one
                              * word, so a reader without the lock never
                              * sees a log counted twice or not at all */
  hp_spinlock_t bins_lock;   /* protects bins */
  hp_size_bins_t bins;       /* written-back caches' size bins */
} hp_hib_table_t;

/* A thread's write-back cache in front of the table: frees merge into a
 * small direct-mapped array under a lock only the owner thread and profile
 * writing take, so threads freeing into the same context don't fight over
 * one set lock.  A slot conflict, thread exit and every dump write the
 * cached HIBs back into the table.  The cache also counts the size bins of
 * its events (see hp_size_bins_t).  Valid zero-initialised. */
#define HP_HIB_CACHE_SLOTS 64
/* Batching (mprof's; PROMPT: the merge off the free path): a context's
 * frees in a loop mostly differ only in what is cheap to merge.  A hit
 * merges hp_hib_add_head at once (pairwise counts, last-event fields,
 * plain sums) and only counts the event under its key -- size, accesses,
 * lifetime, continuation -- in one of the slot's two pending keys; a key's
 * hp_hib_add_body (the divisions, ranges and totals) is merged once for
 * all its events, when the key is displaced or the slot is written back or
 * flushed.  Two keys, because a context's events often alternate between
 * two kinds (a tree's leaves and inner nodes). */
#define HP_HIB_KEYS 2
/* A key with n = 0 is unused, whatever its other fields hold: an event that
 * matches them may be counted under it all the same (n becomes 1, and the
 * fields are the event's), so the free path compares the fields only.  A
 * key is only ever written whole (heapprof_hib_table.c): the slow path
 * reads keys back right after writing them, and a 16-byte load of fields
 * just stored one by one waits for the stores (store-to-load forwarding
 * fails on a partial overlap). */
typedef struct hp_hib_key {
  u64 size, accesses;
  u32 lifetime;
  u32 continuation; /* the event's: 0, HP_EVENT_COUNTED or _INHERITED */
  u64 n;            /* events under this key not merged yet; 0 = unused */
} hp_hib_key_t;
typedef struct hp_hib_pending {
  hp_hib_key_t k[HP_HIB_KEYS];
} hp_hib_pending_t;
typedef struct hp_hib_cache {
  hp_spinlock_t lock;
  u32 busy; /* the owner is in a section (hp_hib_cache_enter) */
  /* The owner left its section to merge under the lock (a flush was on):
   * set before busy is cleared, cleared once merged.  The last dump waits
   * for it (hp_thread_flush_hibs_settled). */
  u32 merging;
  hp_hib_t slots[HP_HIB_CACHE_SLOTS]; /* stack_id 0 = empty */
  hp_hib_pending_t pending[HP_HIB_CACHE_SLOTS];
  hp_size_bins_t bins;
} hp_hib_cache_t;

/* The runtime's table, sized from the flags at init. */
extern hp_hib_table_t hp_hib_table;

void hp_hib_table_init(hp_hib_table_t *t, u32 sets, u32 ways);
void hp_hib_table_insert(hp_hib_table_t *t, const hp_hib_t *h);
/* Hands every entry (and then every spilled HIB) to fn and empties the
 * table and the spill log. */
void hp_hib_table_drain(hp_hib_table_t *t,
                        void (*fn)(const hp_hib_t *h, void *arg), void *arg);
/* A spill log handed over whole: its records, in eviction order, are the
 * taker's to read and merge into in place, and to unmap with
 * hp_hib_log_free.  Valid zero-initialised (no records). */
typedef struct hp_hib_log {
  hp_hib_t *recs;
  u64 len, cap;
} hp_hib_log_t;
/* hp_hib_table_drain, but the spill log is not handed to fn record by
 * record: it is taken whole into *log, and the table starts a new one (a
 * dump reads the records where they are instead of copying them; the
 * table's own records it must copy, since the ways keep them and other
 * threads fill the ways again). */
void hp_hib_table_drain_taking_log(hp_hib_table_t *t,
                                   void (*fn)(const hp_hib_t *h, void *arg),
                                   void *arg, hp_hib_log_t *log);
/* Unmaps a log taken from t. */
void hp_hib_log_free(hp_hib_table_t *t, hp_hib_log_t *log);
/* Adds the written-back size bins into out and zeroes the table's. */
void hp_hib_table_take_bins(hp_hib_table_t *t, hp_size_bins_t *out);
/* Merges a chunk event into the cache (every profiled free).  Inline: a
 * hit on the slot is the lock, hp_hib_add_head and, when (size, accesses,
 * lifetime, continuation) is the slot's first pending key, a count; a hit
 * with another key is hp_hib_cache_add_key, given the key's fields (no
 * copy of the event: varied sizes, larson's or a real program's, take it
 * on nearly every free); a miss or a live event is
 * hp_hib_cache_add_locked.  Both out of line, with the lock held. */
void hp_hib_cache_add_key(hp_hib_cache_t *c, u32 slot, u64 size, u64 accesses,
                          u32 lifetime, u32 continuation);
void hp_hib_cache_add_locked(hp_hib_cache_t *c, hp_hib_table_t *t,
                             const hp_chunk_event_t *e);
static HP_ALWAYS_INLINE bool hp_hib_key_is(const hp_hib_key_t *k, u64 size,
                                           u64 accesses, u32 lifetime,
                                           u32 continuation) {
  return k->size == size && k->accesses == accesses &&
         k->lifetime == lifetime && k->continuation == continuation;
}
static HP_ALWAYS_INLINE void hp_hib_cache_merge(hp_hib_cache_t *c,
                                                hp_hib_table_t *t,
                                                const hp_chunk_event_t *e) {
  u32 i = (u32)(e->stack_id % HP_HIB_CACHE_SLOTS);
  hp_hib_t *slot = &c->slots[i];
  hp_hib_key_t *k = &c->pending[i].k[0];
  if (HP_LIKELY(slot->stack_id == e->stack_id && !e->live)) {
    /* The key first: its fields are then dead before the head's (the
     * two touch different fields of the slot, so either order is the
     * same merge). */
    u32 lifetime = hp_event_lifetime(e);
    if (HP_LIKELY(hp_hib_key_is(k, e->size, e->accesses, lifetime,
                                e->continuation)))
      k->n++;
    else
      hp_hib_cache_add_key(c, i, e->size, e->accesses, lifetime,
                           e->continuation);
    hp_hib_add_head(slot, e);
  } else {
    /* A copy, so that the caller's event never has its address taken on
     * the common path and can live in registers. */
    hp_chunk_event_t copy = *e;
    hp_hib_cache_add_locked(c, t, &copy);
  }
}
static HP_ALWAYS_INLINE void hp_hib_cache_add_event(hp_hib_cache_t *c,
                                                    hp_hib_table_t *t,
                                                    const hp_chunk_event_t *e) {
  hp_spin_lock(&c->lock);
  hp_hib_cache_merge(c, t, e);
  hp_spin_unlock(&c->lock);
}

/* The owner's section: the free path merges without the lock's exchange.
 * The owner marks its cache busy with a plain store, and then needs a
 * locked instruction before it reads hp_hib_cache_foreign -- the free
 * path's compare-and-swap on the chunk's header is one (x86: a locked
 * instruction orders every earlier store before every later load).  A
 * thread that flushes another's cache (a dump) first counts itself in
 * hp_hib_cache_foreign with a locked add, takes the cache's lock and waits
 * for busy to clear.  Each side stores, fences, then loads what the other
 * stored, so at least one sees the other (Dekker): either the owner sees
 * the count and merges under the lock (busy cleared first, so the flusher
 * does not wait for it), or the flusher sees busy and waits until the
 * section ends.  The section counts as a held lock (hp_locks_held), so a
 * deadly signal in it is deferred like one in a locked merge; nothing in
 * the section may flush caches on its own thread (a report that can halt
 * leaves it first: hp_hib_cache_leave, then hp_hib_cache_enter_fenced). */
extern u32 hp_hib_cache_foreign; /* flushers of another thread's cache */
static HP_ALWAYS_INLINE void hp_hib_cache_enter(hp_hib_cache_t *c) {
  hp_locks_count_up();
  __atomic_store_n(&c->busy, 1, __ATOMIC_RELAXED);
}
/* Enter where no locked instruction follows before the merge. */
static HP_ALWAYS_INLINE void hp_hib_cache_enter_fenced(hp_hib_cache_t *c) {
  hp_hib_cache_enter(c);
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
}
static HP_ALWAYS_INLINE void hp_hib_cache_leave(hp_hib_cache_t *c) {
  __atomic_store_n(&c->busy, 0, __ATOMIC_RELEASE);
  hp_locks_count_down();
}
/* The merge in a section (after the locked instruction), which it ends. */
static HP_ALWAYS_INLINE void hp_hib_cache_add_entered(hp_hib_cache_t *c,
                                                      hp_hib_table_t *t,
                                                      const hp_chunk_event_t *e) {
  if (HP_LIKELY(!__atomic_load_n(&hp_hib_cache_foreign, __ATOMIC_RELAXED))) {
    hp_hib_cache_merge(c, t, e);
  } else {
    __atomic_store_n(&c->merging, 1, __ATOMIC_RELAXED);
    __atomic_store_n(&c->busy, 0, __ATOMIC_RELEASE);
    hp_spin_acquire(&c->lock); /* counted by hp_hib_cache_enter */
    hp_hib_cache_merge(c, t, e);
    __atomic_store_n(&c->merging, 0, __ATOMIC_RELEASE);
    hp_spin_release(&c->lock);
  }
  hp_hib_cache_leave(c);
}
/* Writes every cached HIB and the bins back into t and empties the cache;
 * from any thread (the owner's section is waited for). */
void hp_hib_cache_flush(hp_hib_cache_t *c, hp_hib_table_t *t);
/* Empties the cache without writing it back (fork child, reset). */
void hp_hib_cache_clear(hp_hib_cache_t *c);

/* Empties (bins too) without reporting (for __heapprof_reset). */
void hp_hib_table_clear(hp_hib_table_t *t);
u64 hp_hib_table_evictions(const hp_hib_table_t *t);
/* fork(): hold / release every lock of the table. */
void hp_hib_table_lock_all(hp_hib_table_t *t);
void hp_hib_table_unlock_all(hp_hib_table_t *t);

#endif
