/*===- heapprof_stackdepot.h - stacks to stable ids ---------------------===
 *
 * Part of heapprof.  Maps a stack (array of PCs) to a small u32 id, 1, 2, 3...
 * in order of first appearance; id 0 means "no stack".  Lookups take no lock;
 * an insertion takes the depot's lock.  Stacks are never removed.  A stack
 * has at most HP_MAX_STACK_DEPTH frames.
 *===----------------------------------------------------------------------===*/
#ifndef HEAPPROF_STACKDEPOT_H
#define HEAPPROF_STACKDEPOT_H

/* Ids are below this (the depot's id index is reserved for it). */
#define HP_STACKDEPOT_MAX_IDS (1u << 26)

void hp_stackdepot_init(void);
/* Returns the id of the stack, inserting it if new.  size may be 0. */
u32 hp_stackdepot_put(const uptr *pcs, u32 size);
/* Copies the PCs of id into pcs (room for HP_MAX_STACK_DEPTH) and their
 * count into *size; false for an unknown id.  Async-signal-safe. */
bool hp_stackdepot_get(u32 id, uptr *pcs, u32 *size);
/* Number of ids handed out so far (ids are 1..count). */
u32 hp_stackdepot_count(void);
/* Bytes of the entries' arena (mapped as it fills). */
u64 hp_stackdepot_bytes(void);
/* The hash buckets and the id index: reserved whole, touched as used (the
 * peak's overhead counts their resident pages). */
void hp_stackdepot_tables(uptr *buckets, uptr *buckets_size, uptr *ids,
                          uptr *ids_size);
u64 hp_stack_hash(const uptr *pcs, u32 size);
/* fork(): hold / release the insertion lock. */
void hp_stackdepot_lock(void);
void hp_stackdepot_unlock(void);

#endif
