/*===- heapprof_roots.c - memory the program names as leak-check roots --===
 *
 * Part of heapprof.  See heapprof_roots.h.
 *===----------------------------------------------------------------------===*/
#include "heapprof_internal.h"
#include "heapprof_roots.h"

/* A registered (start, size) pair and how many registrations it has. */
typedef struct {
  uptr beg, size;
  u64 count; /* 0: an empty slot */
} region_t;

/* Open addressing by (beg, size), linear probing, at most half full; a
 * removal shifts the run after it back, so no slot is a tombstone.  A
 * list searched from its end made unregistering linear: 100,000 regions
 * taken back in the order they came took 1.36 s. */
static struct {
  hp_spinlock_t lock;
  region_t *v;
  u64 cap, n; /* n: slots in use */
} set;

/* The set's lock (hp_spin_lock_unless_nested).  A bounded spin for every
 * call gave up under contention and dropped the call without a word (32
 * threads each registering 200 regions beside 100,000: 31 of the 6,400
 * were not registered, and their objects read as leaks). */
static bool set_lock(void) { return hp_spin_lock_unless_nested(&set.lock); }

/* A fork holds the lock across the copy, waiting for it without a bound
 * (its holder is another thread: a fork from a signal handler that
 * interrupted this thread inside the runtime runs no handler), as the
 * coroutine set's fork does: a child made while another thread held it
 * would find it held for good. */
static void fork_prepare(void) { hp_spin_lock(&set.lock); }

static void fork_release(void) { hp_spin_unlock(&set.lock); }

void hp_roots_init(void) {
  hp_atfork(fork_prepare, fork_release, fork_release);
}

static u64 slot_of(uptr beg, uptr size, u64 cap) {
  return ((u64)(beg ^ (size * 0xBF58476D1CE4E5B9ull)) * 0x9E3779B97F4A7C15ull >>
          20) &
         (cap - 1);
}

/* The slot holding (beg, size), or the empty slot where it would go. */
static u64 find(const region_t *v, u64 cap, uptr beg, uptr size) {
  u64 i = slot_of(beg, size, cap);
  while (v[i].count && (v[i].beg != beg || v[i].size != size))
    i = (i + 1) & (cap - 1);
  return i;
}

static bool grow(void) {
  u64 cap = set.cap ? 2 * set.cap : 256; /* a power of two */
  region_t *v = hp_mmap(cap * sizeof(region_t));
  if (!v)
    return false;
  for (u64 i = 0; i < set.cap; i++)
    if (set.v[i].count)
      v[find(v, cap, set.v[i].beg, set.v[i].size)] = set.v[i];
  if (set.v)
    hp_munmap(set.v, set.cap * sizeof(region_t));
  set.v = v;
  set.cap = cap;
  return true;
}

/* Empties slot i and moves back each later entry of its run that may sit
 * no later than its home slot (Knuth's algorithm R). */
static void remove_at(u64 i) {
  u64 mask = set.cap - 1;
  for (u64 j = (i + 1) & mask; set.v[j].count; j = (j + 1) & mask) {
    u64 home = slot_of(set.v[j].beg, set.v[j].size, set.cap);
    /* j's entry may move to i when its home is not in (i, j], cyclically. */
    if (((j - home) & mask) >= ((j - i) & mask)) {
      set.v[i] = set.v[j];
      i = j;
    }
  }
  set.v[i] = (region_t){0, 0, 0};
  set.n--;
}

HP_INTERFACE void __heapprof_register_root_region(const void *p, size_t size) {
  uptr beg = (uptr)p;
  if (!size)
    return;
  if (beg + size < beg) {
    hp_printf("HeapProf: WARNING: __heapprof_register_root_region(%p, %zu): "
              "the region wraps around the end of the address space; not "
              "registered\n",
              p, size);
    return;
  }
  if (!set_lock()) {
    hp_printf("HeapProf: WARNING: __heapprof_register_root_region(%p, %zu): "
              "called by a signal handler that interrupted heapprof on this "
              "thread; not registered\n",
              p, size);
    return;
  }
  bool ok = 2 * (set.n + 1) <= set.cap || grow();
  if (ok) {
    region_t *r = &set.v[find(set.v, set.cap, beg, size)];
    if (!r->count++) {
      r->beg = beg;
      r->size = size;
      set.n++;
    }
  }
  hp_spin_unlock(&set.lock);
  if (!ok)
    hp_printf("HeapProf: WARNING: __heapprof_register_root_region(%p, %zu): "
              "out of memory; not registered\n",
              p, size);
}

HP_INTERFACE void __heapprof_unregister_root_region(const void *p,
                                                    size_t size) {
  if (!size)
    return;
  bool found = false;
  if (!set_lock()) {
    hp_printf("HeapProf: WARNING: __heapprof_unregister_root_region(%p, %zu): "
              "called by a signal handler that interrupted heapprof on this "
              "thread; not unregistered\n",
              p, size);
    return;
  }
  if (set.n) {
    u64 i = find(set.v, set.cap, (uptr)p, size);
    found = set.v[i].count != 0;
    if (found && !--set.v[i].count)
      remove_at(i);
  }
  hp_spin_unlock(&set.lock);
  if (!found)
    hp_printf("HeapProf: WARNING: __heapprof_unregister_root_region(%p, %zu): "
              "no such region is registered; nothing done\n",
              p, size);
}

bool hp_roots_for_each(void (*fn)(uptr beg, uptr end, void *arg), void *arg) {
  if (!hp_spin_lock_patient(&set.lock))
    return false;
  for (u64 i = 0; i < set.cap; i++)
    if (set.v[i].count)
      fn(set.v[i].beg, set.v[i].beg + set.v[i].size, arg);
  hp_spin_unlock(&set.lock);
  return true;
}
