/*===- heapprof_hib_table.h - the set-associative HIB table -------------===
 *
 * Part of heapprof.  HIBs merge into a table of hib_table_sets sets of
 * hib_table_ways entries; a context's set is its stack id mod the set count
 * (a prime near a power of two).  A hit merges; a miss takes an empty way,
 * or evicts the least recently merged entry of a full set into the spill log
 * at once, so nothing is lost however small the table.  Each set has its own
 * lock: frees on different threads rarely meet.
 *===----------------------------------------------------------------------===*/
#ifndef HEAPPROF_HIB_TABLE_H
#define HEAPPROF_HIB_TABLE_H

typedef struct hp_hib_way {
  hp_hib_t hib;
  u64 tick;
} hp_hib_way_t;

typedef struct hp_hib_table {
  u32 nsets, nways;          /* fixed at init */
  hp_hib_way_t *ways;        /* nsets * nways, entries under locks[set] */
  hp_spinlock_t *locks;
  u64 tick;                  /* atomic, relaxed: recency only */
  u64 evictions;             /* atomic */
  hp_spinlock_t spill_lock;  /* protects spill* */
  hp_hib_t *spill;
  u64 spill_len, spill_cap;
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
typedef struct hp_hib_cache {
  hp_spinlock_t lock;
  hp_hib_t slots[HP_HIB_CACHE_SLOTS]; /* stack_id 0 = empty */
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
/* Adds the written-back size bins into out and zeroes the table's. */
void hp_hib_table_take_bins(hp_hib_table_t *t, hp_size_bins_t *out);
void hp_hib_cache_add_event(hp_hib_cache_t *c, hp_hib_table_t *t,
                            const hp_chunk_event_t *e);
/* Writes every cached HIB and the bins back into t and empties the cache. */
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
