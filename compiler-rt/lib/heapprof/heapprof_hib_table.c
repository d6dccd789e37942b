/*===- heapprof_hib_table.c - the set-associative HIB table -------------===
 *
 * Part of heapprof.
 *
 *   set s = stack_id % nsets:  lock[s]  | way 0 | way 1 | way 2 | way 3 |
 *   way: { hp_hib_t (stack_id 0 = empty), last merge tick }
 *
 * The spill log is an append-only array of evicted HIBs in mmap'd memory,
 * written at the moment of eviction and read back when a profile is written.
 *===----------------------------------------------------------------------===*/
#include "heapprof_internal.h"

typedef struct way {
  hp_hib_t hib;
  u64 tick;
} way_t;

/* Sized once at init from the flags; entries protected by locks[set]. */
static u32 nsets, nways;
static way_t *ways;
static hp_spinlock_t *locks;
static u64 tick;          /* atomic, relaxed: recency only */
static u64 evictions;     /* atomic */

/* The spill log; protected by spill_lock. */
static hp_spinlock_t spill_lock;
static hp_hib_t *spill;
static u64 spill_len, spill_cap;

void hp_hib_table_init(void) {
  if (ways)
    return;
  nsets = (u32)hp_flags.hib_table_sets;
  nways = (u32)hp_flags.hib_table_ways;
  ways = hp_mmap_noreserve((uptr)nsets * nways * sizeof(way_t), "HIB table");
  locks = hp_mmap_noreserve((uptr)nsets * sizeof(hp_spinlock_t), "HIB table");
}

static void spill_append(const hp_hib_t *h) {
  hp_spin_lock(&spill_lock);
  if (spill_len == spill_cap) {
    u64 cap = spill_cap ? spill_cap * 2 : 256;
    hp_hib_t *n = hp_mmap_or_die(cap * sizeof(hp_hib_t), "HIB spill log");
    if (spill) {
      hp_memcpy(n, spill, spill_len * sizeof(hp_hib_t));
      hp_munmap(spill, spill_cap * sizeof(hp_hib_t));
    }
    spill = n;
    spill_cap = cap;
  }
  spill[spill_len++] = *h;
  hp_spin_unlock(&spill_lock);
}

void hp_hib_table_insert(const hp_hib_t *h) {
  u32 set = (u32)(h->stack_id % nsets);
  way_t *w = &ways[(uptr)set * nways];
  u64 now = __atomic_fetch_add(&tick, 1, __ATOMIC_RELAXED);
  hp_spin_lock(&locks[set]);
  way_t *empty = NULL, *lru = &w[0];
  for (u32 i = 0; i < nways; i++) {
    if (w[i].hib.stack_id == h->stack_id) {
      hp_hib_merge(&w[i].hib, h);
      w[i].tick = now;
      hp_spin_unlock(&locks[set]);
      return;
    }
    if (!w[i].hib.stack_id) {
      if (!empty)
        empty = &w[i];
    } else if (w[i].tick < lru->tick) {
      lru = &w[i];
    }
  }
  if (!empty) {
    /* Written to the spill log before the slot is reused: never lost. */
    spill_append(&lru->hib);
    __atomic_fetch_add(&evictions, 1, __ATOMIC_RELAXED);
    empty = lru;
  }
  empty->hib = *h;
  empty->tick = now;
  hp_spin_unlock(&locks[set]);
}

void hp_hib_table_drain(void (*fn)(const hp_hib_t *h, void *arg), void *arg) {
  for (u32 s = 0; s < nsets; s++) {
    hp_spin_lock(&locks[s]);
    way_t *w = &ways[(uptr)s * nways];
    for (u32 i = 0; i < nways; i++) {
      if (w[i].hib.stack_id) {
        fn(&w[i].hib, arg);
        w[i].hib.stack_id = 0;
      }
    }
    hp_spin_unlock(&locks[s]);
  }
  hp_spin_lock(&spill_lock);
  for (u64 i = 0; i < spill_len; i++)
    fn(&spill[i], arg);
  spill_len = 0;
  hp_spin_unlock(&spill_lock);
}

static void drop(const hp_hib_t *h, void *arg) {
  (void)h;
  (void)arg;
}

void hp_hib_table_clear(void) { hp_hib_table_drain(drop, NULL); }

u64 hp_hib_table_evictions(void) {
  return __atomic_load_n(&evictions, __ATOMIC_RELAXED);
}

u64 hp_hib_table_spilled_now(void) { return spill_len; }

void hp_hib_table_lock_all(void) {
  for (u32 s = 0; s < nsets; s++)
    hp_spin_lock(&locks[s]);
  hp_spin_lock(&spill_lock);
}

void hp_hib_table_unlock_all(void) {
  hp_spin_unlock(&spill_lock);
  for (u32 s = 0; s < nsets; s++)
    hp_spin_unlock(&locks[s]);
}
