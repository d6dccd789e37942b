/*===- heapprof_allocator_secondary.c - large chunks --------------------===
 *
 * Part of heapprof.  Chunks too big for the primary get their own mapping:
 *
 *   | hp_large_t ... | pad | header (32) | user bytes ...........|
 *   ^ map_beg (page)                    ^ user_beg = first page boundary
 *                                         (or alignment) past map_beg + 32
 *
 * A registry (open-addressing hash set of live chunks, keyed by user_beg)
 * makes free() conclusive: a pointer is a large chunk only if registered.
 * A ring of recently unmapped chunks (mapping and user_beg) tells a double
 * free, or a free of a pointer into a freed chunk, from a wild pointer.
 * A freed chunk is unmapped at once: its memory always goes back to the
 * kernel (release_freed_pages concerns the primary only).  A realloc from
 * large to large resizes the mapping with mremap, as glibc does: the
 * kernel moves page tables where a copy would touch every byte.  Large
 * allocations are rare, so one lock is fine; no system call is made under
 * it.
 *===----------------------------------------------------------------------===*/
#include "heapprof_internal.h"

#include <sys/mman.h>

#define LARGE_MAGIC 0x656772616c706800ull /* "\0hplarge" */
#define TOMBSTONE ((hp_large_t *)1)
#define RECENT 1024

/* All protected by lock. */
static hp_spinlock_t lock;
static hp_large_t **table;
static uptr table_cap, table_used, table_live;
typedef struct recent_chunk {
  uptr map_beg, map_end, user_beg;
} recent_chunk_t;
static recent_chunk_t recent[RECENT];
static u32 recent_pos;
static u64 mapped_bytes;
static u64 max_live, max_mapped; /* high-water marks (malloc_stats) */

static void note_high_nolock(void) {
  max_live = HP_MAX(max_live, (u64)table_live);
  max_mapped = HP_MAX(max_mapped, mapped_bytes);
}

static uptr hash_ptr(uptr p, uptr cap) {
  return (uptr)(((u64)p >> 12) * 0x9E3779B97F4A7C15ull >> 20) & (cap - 1);
}

static void insert_nolock(hp_large_t *l);

/* False when the new table cannot be mapped (the process at a memory
 * limit the program set itself): the old one stays. */
static bool grow_nolock(void) {
  uptr old_cap = table_cap;
  hp_large_t **old = table;
  uptr cap = old_cap ? old_cap * 2 : 1024;
  hp_large_t **t = hp_sys_mmap(cap * sizeof(*table));
  if (!t)
    return false;
  table = t;
  table_cap = cap;
  table_used = table_live = 0;
  for (uptr i = 0; i < old_cap; i++)
    if (old[i] && old[i] != TOMBSTONE)
      insert_nolock(old[i]);
  if (old)
    hp_sys_munmap(old, old_cap * sizeof(*old));
  return true;
}

/* The table grows at half full; if it cannot, it fills further (the
 * probes stay right while a slot is empty), and only a full one refuses
 * the chunk: its allocation fails with ENOMEM, where the registry's
 * mapping aborted the program. */
static bool can_insert_nolock(void) {
  return (table_used + 1) * 2 <= table_cap || grow_nolock() ||
         table_used + 1 < table_cap;
}

static void insert_nolock(hp_large_t *l) {
  uptr i = hash_ptr(l->user_beg, table_cap);
  while (table[i] && table[i] != TOMBSTONE)
    i = (i + 1) & (table_cap - 1);
  if (!table[i])
    table_used++;
  table[i] = l;
  table_live++;
}

static uptr find_slot_nolock(uptr user_beg) {
  if (!table_cap)
    return (uptr)-1;
  uptr i = hash_ptr(user_beg, table_cap);
  for (uptr n = 0; n < table_cap && table[i]; n++) {
    if (table[i] != TOMBSTONE && table[i]->user_beg == user_beg)
      return i;
    i = (i + 1) & (table_cap - 1);
  }
  return (uptr)-1;
}

/* A mapping that no longer holds the chunk at user_beg, into the ring. */
static void remember_freed_nolock(uptr map_beg, uptr map_size,
                                  uptr user_beg) {
  recent_chunk_t *rc = &recent[recent_pos++ % RECENT];
  rc->map_beg = map_beg;
  rc->map_end = map_beg + map_size;
  rc->user_beg = user_beg;
}

uptr hp_secondary_alloc(uptr size, uptr align) {
  if (align < HP_PAGE_SIZE)
    align = HP_PAGE_SIZE;
  /* Room for hp_large_t and the header before user_beg, plus alignment. */
  uptr need = HP_PAGE_SIZE + (align > HP_PAGE_SIZE ? align : 0) + size;
  if (need < size)
    return 0;
  uptr map_size = HP_ROUND_UP(need, HP_PAGE_SIZE);
  void *m = hp_sys_mmap(map_size);
  if (!m)
    return 0;
  uptr map_beg = (uptr)m;
  uptr user_beg = HP_ROUND_UP(map_beg + sizeof(hp_large_t) + HP_CHUNK_HEADER_SIZE, align);
  hp_large_t *l = (hp_large_t *)map_beg;
  l->magic = LARGE_MAGIC;
  l->map_beg = map_beg;
  l->map_size = map_size;
  l->user_beg = user_beg;
  l->requested_size = size;
  hp_spin_lock(&lock);
  if (HP_UNLIKELY(!can_insert_nolock())) {
    hp_spin_unlock(&lock);
    hp_sys_munmap(m, map_size);
    return 0;
  }
  insert_nolock(l);
  mapped_bytes += map_size;
  note_high_nolock();
  hp_spin_unlock(&lock);
  return user_beg;
}

void hp_secondary_free(uptr user_beg) {
  hp_spin_lock(&lock);
  uptr i = find_slot_nolock(user_beg);
  HP_CHECK(i != (uptr)-1);
  hp_large_t *l = table[i];
  table[i] = TOMBSTONE;
  table_live--;
  remember_freed_nolock(l->map_beg, l->map_size, user_beg);
  mapped_bytes -= l->map_size;
  uptr beg = l->map_beg, sz = l->map_size;
  hp_spin_unlock(&lock);
  hp_sys_munmap((void *)beg, sz);
}

/* The chunk leaves the registry while the kernel resizes its mapping (a
 * lookup of it meanwhile finds nothing: only a racing free or realloc of
 * the same pointer, a bug of the program's, could look), and comes back
 * under its new address.  A mapping that moved leaves its old range in the
 * ring of freed chunks: a later free of the old pointer is a double free. */
hp_large_t *hp_secondary_remap(uptr user_beg, uptr size) {
  hp_spin_lock(&lock);
  uptr i = find_slot_nolock(user_beg);
  HP_CHECK(i != (uptr)-1);
  hp_large_t *l = table[i];
  uptr off = user_beg - l->map_beg;
  uptr map_size = HP_ROUND_UP(off + size, HP_PAGE_SIZE);
  if (off + size < size || map_size < size) {
    hp_spin_unlock(&lock);
    return NULL;
  }
  if (map_size == l->map_size) {
    l->requested_size = size;
    hp_spin_unlock(&lock);
    return l;
  }
  table[i] = TOMBSTONE;
  table_live--;
  uptr old_beg = l->map_beg, old_size = l->map_size;
  hp_spin_unlock(&lock);

  void *m = hp_sys_mremap((void *)old_beg, old_size, map_size);

  hp_spin_lock(&lock);
  if (!m) {
    insert_nolock(l); /* into a tombstone, its own or another's */
    hp_spin_unlock(&lock);
    return NULL;
  }
  l = (hp_large_t *)m;
  l->map_beg = (uptr)m;
  l->map_size = map_size;
  l->user_beg = (uptr)m + off;
  l->requested_size = size;
  mapped_bytes += map_size - old_size; /* wraps right when shrinking */
  if (l->map_beg != old_beg)
    remember_freed_nolock(old_beg, old_size, user_beg);
  insert_nolock(l);
  note_high_nolock();
  hp_spin_unlock(&lock);
  return l;
}

hp_large_t *hp_secondary_find(uptr user_beg) {
  hp_spin_lock(&lock);
  uptr i = find_slot_nolock(user_beg);
  hp_large_t *l = i == (uptr)-1 ? NULL : table[i];
  hp_spin_unlock(&lock);
  return l;
}

hp_large_t *hp_secondary_find_containing(uptr p) {
  hp_large_t *found = NULL;
  hp_spin_lock(&lock);
  for (uptr i = 0; i < table_cap; i++) {
    hp_large_t *l = table[i];
    if (l && l != TOMBSTONE && p >= l->map_beg && p < l->map_beg + l->map_size) {
      found = l;
      break;
    }
  }
  hp_spin_unlock(&lock);
  return found;
}

uptr hp_secondary_recently_freed(uptr p) {
  uptr r = 0;
  hp_spin_lock(&lock);
  /* Newest first: a later mapping at the same address wins. */
  for (u32 k = 1; k <= RECENT && !r; k++) {
    const recent_chunk_t *rc = &recent[(recent_pos - k) % RECENT];
    if (p >= rc->map_beg && p < rc->map_end)
      r = rc->user_beg;
  }
  hp_spin_unlock(&lock);
  return r;
}

void hp_secondary_for_each(void (*fn)(hp_large_t *l, void *arg), void *arg) {
  /* Called with the lock held (hp_secondary_lock) during dumps. */
  for (uptr i = 0; i < table_cap; i++)
    if (table[i] && table[i] != TOMBSTONE)
      fn(table[i], arg);
}

void hp_secondary_lock(void) { hp_spin_lock(&lock); }
void hp_secondary_unlock(void) { hp_spin_unlock(&lock); }
u64 hp_secondary_mapped_bytes(void) { return mapped_bytes; }
u64 hp_secondary_live_chunks(void) { return table_live; }
u64 hp_secondary_max_chunks(void) { return max_live; }
u64 hp_secondary_max_mapped_bytes(void) { return max_mapped; }
