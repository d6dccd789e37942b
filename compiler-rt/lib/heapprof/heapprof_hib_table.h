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
} hp_hib_table_t;

/* The runtime's table, sized from the flags at init. */
extern hp_hib_table_t hp_hib_table;

void hp_hib_table_init(hp_hib_table_t *t, u32 sets, u32 ways);
void hp_hib_table_insert(hp_hib_table_t *t, const hp_hib_t *h);
/* The same for one chunk event: merged in place, no HIB built. */
void hp_hib_table_add_event(hp_hib_table_t *t, const hp_chunk_event_t *e);
/* Hands every entry (and then every spilled HIB) to fn and empties the
 * table and the spill log. */
void hp_hib_table_drain(hp_hib_table_t *t,
                        void (*fn)(const hp_hib_t *h, void *arg), void *arg);
/* Empties without reporting (for __heapprof_reset). */
void hp_hib_table_clear(hp_hib_table_t *t);
u64 hp_hib_table_evictions(const hp_hib_table_t *t);
/* fork(): hold / release every lock of the table. */
void hp_hib_table_lock_all(hp_hib_table_t *t);
void hp_hib_table_unlock_all(hp_hib_table_t *t);

#endif
