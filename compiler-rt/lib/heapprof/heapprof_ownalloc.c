/*===- heapprof_ownalloc.c - the runtime's own allocations through malloc ===
 *
 * Part of heapprof.  See heapprof_ownalloc.h.
 *===----------------------------------------------------------------------===*/
#include "heapprof_internal.h"

#include <dlfcn.h>

HP_TLS u32 hp_own_section;

/* The blocks handed out: a thread's vector each, and the runtime starts
 * one thread (again after each unshare or setns).  0: a free slot. */
#define HP_OWN_BLOCKS 16
static uptr blocks[HP_OWN_BLOCKS];
/* The number of non-zero slots; atomic, as the slots. */
u32 hp_own_live;

void hp_own_begin(void) {
  hp_own_section++;
  /* The plain path never asks (heapprof_allocator.c): off for the
   * section, for every thread (the general path serves them all alike). */
  __atomic_store_n(&hp_alloc_plain, false, __ATOMIC_RELEASE);
  hp_foreign_pass_begin();
}

void hp_own_end(void) {
  hp_foreign_pass_end();
  if (--hp_own_section == 0)
    hp_allocator_init_plain();
}

static bool remember(uptr p) {
  for (int i = 0; i < HP_OWN_BLOCKS; i++) {
    uptr empty = 0;
    if (__atomic_compare_exchange_n(&blocks[i], &empty, p, false,
                                    __ATOMIC_ACQ_REL, __ATOMIC_RELAXED)) {
      __atomic_add_fetch(&hp_own_live, 1, __ATOMIC_RELEASE);
      return true;
    }
  }
  return false;
}

/* Replaces p by q (0: forgets it); false if p is not remembered. */
static bool replace(uptr p, uptr q) {
  for (int i = 0; i < HP_OWN_BLOCKS; i++) {
    uptr want = p;
    if (__atomic_load_n(&blocks[i], __ATOMIC_ACQUIRE) == p &&
        __atomic_compare_exchange_n(&blocks[i], &want, q, false,
                                    __ATOMIC_ACQ_REL, __ATOMIC_RELAXED)) {
      if (!q)
        __atomic_sub_fetch(&hp_own_live, 1, __ATOMIC_RELEASE);
      return true;
    }
  }
  return false;
}

void *hp_own_allocate(uptr size, uptr align, bool zero) {
  if (align > 16)
    return NULL;
  void *p = zero ? __libc_calloc(1, size) : __libc_malloc(size ? size : 1);
  if (p && !remember((uptr)p)) {
    __libc_free(p);
    return NULL;
  }
  return p;
}

bool hp_own_block(uptr p) {
  if (!p)
    return false;
  for (int i = 0; i < HP_OWN_BLOCKS; i++)
    if (__atomic_load_n(&blocks[i], __ATOMIC_ACQUIRE) == p)
      return true;
  return false;
}

void hp_own_free(void *p) {
  if (replace((uptr)p, 0))
    __libc_free(p);
}

void *hp_own_realloc(void *p, uptr size) {
  /* glibc's realloc(p, 0) frees p and returns NULL. */
  void *q = __libc_realloc(p, size);
  if (q)
    replace((uptr)p, (uptr)q);
  else if (!size)
    replace((uptr)p, 0);
  return q;
}

void *hp_glibc_sym(const char *name) {
  static void *libc;
  void *h = __atomic_load_n(&libc, __ATOMIC_ACQUIRE);
  if (!h) {
    hp_own_begin();
    h = dlopen("libc.so.6", RTLD_NOLOAD | RTLD_LAZY);
    hp_own_end();
    if (!h)
      return NULL;
    void *none = NULL;
    if (!__atomic_compare_exchange_n(&libc, &none, h, false, __ATOMIC_ACQ_REL,
                                     __ATOMIC_ACQUIRE))
      h = none; /* another thread's: this count stays with the loader */
  }
  return dlsym(h, name);
}
