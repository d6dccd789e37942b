/*===- heapprof_roots.c - memory the program names as leak-check roots --===
 *
 * Part of heapprof.  See heapprof_roots.h.
 *===----------------------------------------------------------------------===*/
#include "heapprof_internal.h"
#include "heapprof_roots.h"

typedef struct {
  uptr beg, size;
} region_t;

/* In registration order; an unregistration moves the last one into the
 * hole. */
static struct {
  hp_spinlock_t lock;
  region_t *v;
  u64 cap, n;
} list;

/* The list's lock (hp_spin_lock_unless_nested).  A bounded spin for
 * every call gave up under contention and dropped the call without a word
 * (32 threads each registering 200 regions beside a list of 100,000: 31 of
 * the 6,400 were not registered, and their objects read as leaks). */
static bool list_lock(void) { return hp_spin_lock_unless_nested(&list.lock); }

/* A fork holds the lock across the copy, waiting for it without a bound
 * (its holder is another thread: a fork from a signal handler that
 * interrupted this thread inside the runtime runs no handler), as the
 * coroutine set's fork does: a child made while another thread held it
 * would find it held for good. */
static void fork_prepare(void) { hp_spin_lock(&list.lock); }

static void fork_release(void) { hp_spin_unlock(&list.lock); }

void hp_roots_init(void) {
  hp_atfork(fork_prepare, fork_release, fork_release);
}

static bool grow(void) {
  u64 cap = list.cap ? 2 * list.cap : HP_PAGE_SIZE / sizeof(region_t);
  region_t *v = hp_mmap(cap * sizeof(region_t));
  if (!v)
    return false;
  if (list.v) {
    hp_memcpy(v, list.v, list.n * sizeof(region_t));
    hp_munmap(list.v, list.cap * sizeof(region_t));
  }
  list.v = v;
  list.cap = cap;
  return true;
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
  if (!list_lock()) {
    hp_printf("HeapProf: WARNING: __heapprof_register_root_region(%p, %zu): "
              "called by a signal handler that interrupted heapprof on this "
              "thread; not registered\n",
              p, size);
    return;
  }
  bool ok = list.n < list.cap || grow();
  if (ok)
    list.v[list.n++] = (region_t){beg, size};
  hp_spin_unlock(&list.lock);
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
  if (!list_lock()) {
    hp_printf("HeapProf: WARNING: __heapprof_unregister_root_region(%p, %zu): "
              "called by a signal handler that interrupted heapprof on this "
              "thread; not unregistered\n",
              p, size);
    return;
  }
  for (u64 i = list.n; i-- > 0;)
    if (list.v[i].beg == (uptr)p && list.v[i].size == size) {
      list.v[i] = list.v[--list.n];
      found = true;
      break;
    }
  hp_spin_unlock(&list.lock);
  if (!found)
    hp_printf("HeapProf: WARNING: __heapprof_unregister_root_region(%p, %zu): "
              "no such region is registered; nothing done\n",
              p, size);
}

void hp_roots_for_each(void (*fn)(uptr beg, uptr end, void *arg), void *arg) {
  if (!hp_spin_lock_bounded(&list.lock))
    return;
  for (u64 i = 0; i < list.n; i++)
    fn(list.v[i].beg, list.v[i].beg + list.v[i].size, arg);
  hp_spin_unlock(&list.lock);
}
