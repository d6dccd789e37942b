/*===- heapprof_stackdepot.c - stacks to stable ids ---------------------===
 *
 * Part of heapprof.
 *
 *   buckets[hash & mask] --> entry --> entry --> NULL     (singly linked)
 *   entry: | next | hash (u64) | id (u32) | size (u32) | shown (u32) |
 *          pcs[size] | pcs shown, if not all |
 *   by_id[id] --> entry
 *
 * A stack through one of heapprof's wrappers that call into libc
 * (pthread_create, a dlopen with RTLD_DEEPBIND: HP_WRAPPER) holds the
 * wrapper's frames; the entry keeps them for lookups and, after them, the
 * stack without them, which hp_stackdepot_get gives out (profiles, reports).
 *
 * Entries live in an append-only arena carved from mmap'd blocks and are
 * immutable once linked, so readers walk chains with acquire loads and no
 * lock.  Insertions (a stack seen for the first time: rare once a program
 * warms up) take one global lock, re-walk the chain and publish the new
 * head with a release store; one lock is also what fork() must hold.
 *
 * In front, per thread: the ids of its recent stacks, direct-mapped on a
 * cheap hash of the size and three PCs (the first two and the last, which
 * tell binary trees' few folded stacks apart).  A slot's id is only a
 * guess, checked against that id's entry, PC by PC: a stale slot, or one a
 * signal handler overwrote in the middle of a put, costs a lookup, never a
 * wrong id.  It saves the full hash and the bucket's cache miss when a
 * thread's stacks are few, as a folding program's are.  128 slots: with 32,
 * whether binary trees' stacks collided depended on where the linker put
 * its code (docs/design.md, "Stacks").
 *===----------------------------------------------------------------------===*/
#include "heapprof_internal.h"

typedef struct entry {
  struct entry *next;
  u64 hash;
  u32 id;
  u32 size;
  u32 shown; /* == size: pcs as they are; else the shown ones follow */
  uptr pcs[];
} entry_t;

/* 2^18 buckets, 2 MB of address space: a chain is one entry or less on
 * average up to 262,144 stacks (recursion folding keeps programs far below:
 * clang compiling a file, 13,000).  2^20 buckets were touched all over by
 * such a program, two faults a page (the read of an empty bucket maps the
 * zero page, the insert copies it): 4,000 of its 22,000 page faults. */
#define BUCKET_BITS 18
#define MAX_IDS HP_STACKDEPOT_MAX_IDS
#define ARENA_BLOCK (1u << 20)

/* buckets and by_id: reserved once at init (NORESERVE); written under the
 * bucket bit lock / after an atomic id grab. */
static uptr *buckets;
static entry_t **by_id;
static u32 next_id = 1;           /* atomic */
static hp_spinlock_t insert_lock; /* protects insertion and arena_* */
static char *arena_pos, *arena_end;
static u64 arena_bytes;

void hp_stackdepot_init(void) {
  if (buckets)
    return;
  buckets = hp_mmap_noreserve(sizeof(uptr) << BUCKET_BITS, "stack depot");
  by_id = hp_mmap_noreserve(sizeof(entry_t *) * (size_t)MAX_IDS, "stack depot");
  hp_stack_cache_init();
}

u64 hp_stack_hash(const uptr *pcs, u32 size) {
  /* 64-bit multiplicative mixing; the same stack always gets the same hash. */
  u64 h = 0x9E3779B97F4A7C15ull ^ size;
  for (u32 i = 0; i < size; i++) {
    h ^= pcs[i];
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 32;
  }
  return h ^ (h >> 29);
}

static HP_ALWAYS_INLINE bool same(const uptr *a, const uptr *b, u32 n) {
  for (u32 i = 0; i < n; i++)
    if (a[i] != b[i])
      return false;
  return true;
}

static entry_t *find(entry_t *e, u64 hash, const uptr *pcs, u32 size) {
  for (; e; e = __atomic_load_n(&e->next, __ATOMIC_ACQUIRE))
    if (e->hash == hash && e->size == size && same(e->pcs, pcs, size))
      return e;
  return NULL;
}

static entry_t *arena_alloc(size_t bytes) {
  bytes = HP_ROUND_UP(bytes, 16);
  if ((size_t)(arena_end - arena_pos) < bytes) {
    size_t block = HP_MAX(bytes, (size_t)ARENA_BLOCK);
    arena_pos = hp_mmap_or_die(block, "stack depot");
    arena_end = arena_pos + block;
    arena_bytes += block;
  }
  entry_t *e = (entry_t *)arena_pos;
  arena_pos += bytes;
  return e;
}

#define FRONT_BITS 7
static HP_TLS u32 front[1u << FRONT_BITS];

static HP_ALWAYS_INLINE u32 front_slot(const uptr *pcs, u32 size) {
  u64 k = size;
  if (size)
    k ^= pcs[0] ^ pcs[size > 1] * 3 ^ pcs[size - 1] * 5;
  return (u32)((k * 0x9E3779B97F4A7C15ull) >> (64 - FRONT_BITS));
}

static HP_NOINLINE u32 put(const uptr *pcs, u32 size);

u32 hp_stackdepot_put(const uptr *pcs, u32 size) {
  u32 slot = front_slot(pcs, size);
  u32 id = front[slot];
  if (HP_LIKELY(id)) {
    entry_t *e = __atomic_load_n(&by_id[id], __ATOMIC_ACQUIRE);
    if (HP_LIKELY(e && e->size == size && same(e->pcs, pcs, size)))
      return id;
  }
  id = put(pcs, size);
  front[slot] = id;
  return id;
}

static HP_NOINLINE u32 put(const uptr *pcs, u32 size) {
  u64 hash = hp_stack_hash(pcs, size);
  uptr *b = &buckets[hash & ((1u << BUCKET_BITS) - 1)];
  uptr head = __atomic_load_n(b, __ATOMIC_ACQUIRE);
  entry_t *e = find((entry_t *)head, hash, pcs, size);
  if (HP_LIKELY(e))
    return e->id;
  hp_spin_lock(&insert_lock);
  head = __atomic_load_n(b, __ATOMIC_RELAXED);
  e = find((entry_t *)head, hash, pcs, size);
  if (!e) {
    u32 id = __atomic_fetch_add(&next_id, 1, __ATOMIC_RELAXED);
    HP_CHECK(id < MAX_IDS);
    u32 shown = 0;
    for (u32 i = 0; i < size; i++)
      shown += !hp_in_wrapper(pcs[i]);
    e = arena_alloc(sizeof(entry_t) +
                    (size + (shown < size ? shown : 0)) * sizeof(uptr));
    e->next = (entry_t *)head;
    e->hash = hash;
    e->id = id;
    e->size = size;
    e->shown = shown;
    hp_memcpy(e->pcs, pcs, size * sizeof(uptr));
    for (u32 i = 0, k = size; shown < size && i < size; i++)
      if (!hp_in_wrapper(pcs[i]))
        e->pcs[k++] = pcs[i];
    __atomic_store_n(&by_id[id], e, __ATOMIC_RELEASE);
    __atomic_store_n(b, (uptr)e, __ATOMIC_RELEASE);
  }
  hp_spin_unlock(&insert_lock);
  return e->id;
}

void hp_stackdepot_lock(void) { hp_spin_lock(&insert_lock); }
void hp_stackdepot_unlock(void) { hp_spin_unlock(&insert_lock); }

const uptr *hp_stackdepot_get(u32 id, u32 *size) {
  if (!by_id || !id || id >= MAX_IDS)
    return NULL;
  entry_t *e = __atomic_load_n(&by_id[id], __ATOMIC_ACQUIRE);
  if (!e)
    return NULL;
  *size = e->shown;
  return e->shown == e->size ? e->pcs : e->pcs + e->size;
}

u32 hp_stackdepot_count(void) {
  return __atomic_load_n(&next_id, __ATOMIC_RELAXED) - 1;
}

u64 hp_stackdepot_bytes(void) { return arena_bytes; }

void hp_stackdepot_tables(uptr *b, uptr *b_size, uptr *ids, uptr *ids_size) {
  *b = (uptr)buckets;
  *b_size = buckets ? sizeof(uptr) << BUCKET_BITS : 0;
  *ids = (uptr)by_id;
  *ids_size = by_id ? (uptr)__atomic_load_n(&next_id, __ATOMIC_RELAXED) *
                          sizeof(entry_t *)
                    : 0;
}
