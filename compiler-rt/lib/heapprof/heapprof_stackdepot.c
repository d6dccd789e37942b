/*===- heapprof_stackdepot.c - stacks to stable ids ---------------------===
 *
 * Part of heapprof.
 *
 *   buckets[hash & mask] --> entry --> entry --> NULL     (singly linked)
 *   entry: | next | hash (u32) | id (u32) | size | shown | narrow | tail |
 *          pcs[0] (u64) | narrow - 1 offsets from pcs[0] (int32_t) |
 *          pad to 8 | pcs[narrow..size) (u64) | pcs shown, if not all |
 *   by_id[id] --> entry
 *
 * A stack is kept as its first PC and then, while they fit, each frame's
 * 4-byte offset from the first; from the first frame whose offset does not
 * fit in an int32_t (a call from one module into another 2 GiB away:
 * clang's executable and its libraries) on, the PCs themselves.  Frames of
 * one module are near each other: clang compiling sqlite3.c kept 224,579
 * stacks of up to 30 frames in 57.1 MiB as 8-byte PCs, 33.7 MiB so
 * (docs/performance.md, "The stack depot's encoding").  Lookups compare the
 * stack as they decode it and stop at the first difference;
 * hp_stackdepot_get decodes into the caller's buffer.
 *
 * A stack through one of heapprof's wrappers that call into libc
 * (pthread_create, a dlopen with RTLD_DEEPBIND: HP_WRAPPER) holds the
 * wrapper's frames; the entry keeps them for lookups and, after them, the
 * stack without them (as plain PCs), which hp_stackdepot_get gives out
 * (profiles, reports).
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
  u32 hash; /* the hash's upper half (the bucket is from its lower bits) */
  u32 id;
  u16 size;   /* frames (at most HP_MAX_STACK_DEPTH) */
  u16 shown;  /* == size: the stack as it is; else the shown ones follow */
  u16 narrow; /* frames 0..narrow-1 are pc0 and offsets; 0: no frames */
  u16 tail;   /* 8-byte words from the entry to pcs[narrow] */
  uptr pc0;
  int32_t off[]; /* pcs[i] = pc0 + off[i-1], 0 < i < narrow */
} entry_t;
_Static_assert(sizeof(entry_t) == 32, "entry header");
_Static_assert(HP_MAX_STACK_DEPTH < 65536 / 4, "sizes and offsets fit u16");

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

static HP_ALWAYS_INLINE const uptr *tail_of(const entry_t *e) {
  return (const uptr *)e + e->tail;
}

/* e holds exactly pcs[0..size) (e->size == size, and size > 0).  Two
 * frames a step, each one load, one add and one compare: with the offsets
 * from pcs[0] (not from the frame before) the frames do not wait for each
 * other, and bench/callgrind.sh bt counts no more instructions a lookup
 * than the 8-byte PCs' compare did. */
static HP_ALWAYS_INLINE bool same_entry(const entry_t *e, const uptr *pcs,
                                        u32 size) {
  uptr pc0 = e->pc0;
  if (pc0 != pcs[0])
    return false;
  u32 narrow = e->narrow, i = 1;
  if (!(narrow & 1)) { /* an odd number of offsets: one first */
    if (pc0 + (uptr)(s64)e->off[0] != pcs[1])
      return false;
    i = 2;
  }
  for (; i < narrow; i += 2)
    if (pc0 + (uptr)(s64)e->off[i - 1] != pcs[i] ||
        pc0 + (uptr)(s64)e->off[i] != pcs[i + 1])
      return false;
  if (HP_LIKELY(narrow == size))
    return true;
  return same(tail_of(e), pcs + narrow, size - narrow);
}

static entry_t *find(entry_t *e, u32 hash, const uptr *pcs, u32 size) {
  for (; e; e = __atomic_load_n(&e->next, __ATOMIC_ACQUIRE))
    if (e->hash == hash && e->size == size &&
        (!size || same_entry(e, pcs, size)))
      return e;
  return NULL;
}

/* How many leading frames take the short form: pcs[0], then each frame
 * whose offset from pcs[0] fits in an int32_t. */
static u32 narrow_count(const uptr *pcs, u32 size) {
  if (!size)
    return 0;
  u32 i = 1;
  while (i < size && (s64)(pcs[i] - pcs[0]) == (int32_t)(pcs[i] - pcs[0]))
    i++;
  return i;
}

/* NULL when the block cannot be mapped (the process at its memory limit,
 * or at vm.max_map_count). */
static entry_t *arena_alloc(size_t bytes) {
  bytes = HP_ROUND_UP(bytes, 8);
  if ((size_t)(arena_end - arena_pos) < bytes) {
    size_t block = HP_MAX(bytes, (size_t)ARENA_BLOCK);
    char *p = hp_mmap(block);
    if (!p)
      return NULL;
    arena_pos = p;
    arena_end = arena_pos + block;
    arena_bytes += block;
  }
  entry_t *e = (entry_t *)arena_pos;
  arena_pos += bytes;
  return e;
}

/* When the arena can take no more (the process at its memory limit): a
 * new stack gets the empty stack's entry (the report's "no frames"
 * marker), whose 32 bytes are this static one if the depot has none yet,
 * said once.  The allocation is counted, without its frames, where
 * aborting the program (as before) or failing the malloc would change
 * what it does; a later call maps again, and a stack that finds room then
 * gets its own entry. */
static entry_t empty_static;
static void say_depot_full(void) {
  static bool said;
  hp_report_cannot_map_once(&said, "memory for the stack depot",
                            "allocations from call stacks not seen before "
                            "are counted without their frames, in one "
                            "context, until it can");
}

#define FRONT_BITS 7
static HP_TLS u32 front[1u << FRONT_BITS];

static HP_ALWAYS_INLINE u32 front_slot(const uptr *pcs, u32 size) {
  u64 k = size ^ pcs[0] ^ pcs[size > 1] * 3 ^ pcs[size - 1] * 5; /* size > 0 */
  return (u32)((k * 0x9E3779B97F4A7C15ull) >> (64 - FRONT_BITS));
}

static HP_NOINLINE u32 put(const uptr *pcs, u32 size);

u32 hp_stackdepot_put(const uptr *pcs, u32 size) {
  if (HP_UNLIKELY(!size))
    return put(pcs, 0);
  u32 slot = front_slot(pcs, size);
  u32 id = front[slot];
  if (HP_LIKELY(id)) {
    entry_t *e = __atomic_load_n(&by_id[id], __ATOMIC_ACQUIRE);
    if (HP_LIKELY(e && e->size == size && same_entry(e, pcs, size)))
      return id;
  }
  id = put(pcs, size);
  front[slot] = id;
  return id;
}

static HP_NOINLINE u32 put(const uptr *pcs, u32 size) {
  u64 hash64 = hp_stack_hash(pcs, size);
  u32 hash = (u32)(hash64 >> 32);
  uptr *b = &buckets[hash64 & ((1u << BUCKET_BITS) - 1)];
  uptr head = __atomic_load_n(b, __ATOMIC_ACQUIRE);
  entry_t *e = find((entry_t *)head, hash, pcs, size);
  if (HP_LIKELY(e))
    return e->id;
  hp_spin_lock(&insert_lock);
  head = __atomic_load_n(b, __ATOMIC_RELAXED);
  e = find((entry_t *)head, hash, pcs, size);
  if (!e) {
    HP_CHECK(size <= HP_MAX_STACK_DEPTH);
    u32 shown = 0;
    for (u32 i = 0; i < size; i++)
      shown += !hp_in_wrapper(pcs[i]);
    u32 narrow = narrow_count(pcs, size);
    size_t tail = HP_ROUND_UP(sizeof(entry_t) + (narrow ? narrow - 1 : 0) *
                                                    sizeof(int32_t),
                              sizeof(uptr));
    e = arena_alloc(tail + (size - narrow + (shown < size ? shown : 0)) *
                               sizeof(uptr));
    if (HP_UNLIKELY(!e)) {
      say_depot_full();
      if (size) { /* the empty stack's entry instead */
        hp_spin_unlock(&insert_lock);
        return put(NULL, 0);
      }
      e = &empty_static; /* sizeof(entry_t): the size of an empty one */
    }
    u32 id = __atomic_fetch_add(&next_id, 1, __ATOMIC_RELAXED);
    HP_CHECK(id < MAX_IDS);
    e->next = (entry_t *)head;
    e->hash = hash;
    e->id = id;
    e->size = (u16)size;
    e->shown = (u16)shown;
    e->narrow = (u16)narrow;
    e->tail = (u16)(tail / sizeof(uptr));
    e->pc0 = size ? pcs[0] : 0;
    for (u32 i = 1; i < narrow; i++)
      e->off[i - 1] = (int32_t)(pcs[i] - pcs[0]);
    uptr *t = (uptr *)e + e->tail;
    hp_memcpy(t, pcs + narrow, (size - narrow) * sizeof(uptr));
    for (u32 i = 0, k = size - narrow; shown < size && i < size; i++)
      if (!hp_in_wrapper(pcs[i]))
        t[k++] = pcs[i];
    __atomic_store_n(&by_id[id], e, __ATOMIC_RELEASE);
    __atomic_store_n(b, (uptr)e, __ATOMIC_RELEASE);
  }
  hp_spin_unlock(&insert_lock);
  return e->id;
}

void hp_stackdepot_lock(void) { hp_spin_lock(&insert_lock); }
void hp_stackdepot_unlock(void) { hp_spin_unlock(&insert_lock); }

bool hp_stackdepot_get(u32 id, uptr *pcs, u32 *size) {
  if (!by_id || !id || id >= MAX_IDS)
    return false;
  const entry_t *e = __atomic_load_n(&by_id[id], __ATOMIC_ACQUIRE);
  if (!e)
    return false;
  u32 n = e->size, narrow = e->narrow;
  const uptr *t = tail_of(e);
  *size = e->shown;
  if (e->shown < n) { /* the copy without the wrappers' frames */
    hp_memcpy(pcs, t + (n - narrow), e->shown * sizeof(uptr));
    return true;
  }
  if (n)
    pcs[0] = e->pc0;
  for (u32 i = 1; i < narrow; i++)
    pcs[i] = e->pc0 + (uptr)(s64)e->off[i - 1];
  hp_memcpy(pcs + narrow, t, (n - narrow) * sizeof(uptr));
  return true;
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
