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

void hp_hib_table_init(void);
void hp_hib_table_insert(const hp_hib_t *h);
/* Hands every entry (and then every spilled HIB) to fn and empties the
 * table and the spill log.  fn may not allocate. */
void hp_hib_table_drain(void (*fn)(const hp_hib_t *h, void *arg), void *arg);
/* Empties without reporting (for __heapprof_reset). */
void hp_hib_table_clear(void);
u64 hp_hib_table_evictions(void);
u64 hp_hib_table_spilled_now(void);
void hp_hib_table_lock_all(void);
void hp_hib_table_unlock_all(void);

#endif
