/*===- heapprof_liveset.h - live objects sorted by address --------------===
 *
 * Part of heapprof.  Passes over the live heap that need objects in address
 * order (false sharing on the real layout, the leak check at exit) collect
 * them here: an mmap'd array that grows by doubling, sorted by a radix
 * sort.  No malloc, so it may run while the program's allocator is busy.
 *===----------------------------------------------------------------------===*/
#ifndef HEAPPROF_LIVESET_H
#define HEAPPROF_LIVESET_H

#include "heapprof_internal.h"

typedef struct hp_live_obj {
  u64 beg, end; /* end: beg + size, exactly (beg for a 0-byte object; the
                   bytes it occupies end at hp_live_obj_end: the leak
                   check's 1-byte objects had the 0-byte end, beg + 1, and
                   counted 0 bytes) */
  u32 stack_id;
  u32 aux; /* the pass's own word (false sharing: the thread) */
} hp_live_obj_t;

/* hp_liveset_find's index, built by hp_liveset_sort: the objects' begs
 * alone, and every HP_LIVESET_FANOUT-th of them (small enough to stay in
 * cache on a heap of millions: a search misses the cache on one block of
 * begs, not at every step). */
#define HP_LIVESET_FANOUT 64

typedef struct hp_live_set {
  hp_live_obj_t *v;
  u64 n, cap;
  u64 *begs, *top; /* n and ceil(n / FANOUT) entries; NULL before sort */
  bool failed; /* out of memory: the set is incomplete */
} hp_live_set_t;

/* The end of the bytes an object occupies: a 0-byte object has one. */
static HP_ALWAYS_INLINE uptr hp_obj_end(uptr beg, uptr size) {
  return beg + (size ? size : 1);
}

/* The same for a set's object: where a pointer still finds it, and what a
 * bound on the set's addresses must cover (the leak check's highest end
 * was a 0-byte object's beg once, and a pointer to it was discarded). */
static HP_ALWAYS_INLINE uptr hp_live_obj_end(const hp_live_obj_t *o) {
  return hp_obj_end(o->beg, o->end - o->beg);
}

/* Appends an object (sets failed when no memory is left). */
void hp_liveset_add(hp_live_set_t *s, uptr beg, uptr size, u32 stack_id,
                    u32 aux);
/* Sorts s->v by beg and builds the index.  false if out of memory. */
bool hp_liveset_sort(hp_live_set_t *s);
/* The index of the object holding address a, or -1. */
s64 hp_liveset_find(const hp_live_set_t *s, uptr a);
void hp_liveset_free(hp_live_set_t *s);

#endif
