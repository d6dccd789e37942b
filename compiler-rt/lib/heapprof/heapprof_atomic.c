/*===- heapprof_atomic.c - libatomic's generic entry points --------------===
 *
 * Part of heapprof.  An atomic operation no instruction can do -- on an
 * object of other than 1, 2, 4, 8 or 16 bytes (an _Atomic structure), or
 * on one aligned below its size (a member of a packed structure) -- is a
 * call to libatomic's generic __atomic_load, __atomic_store,
 * __atomic_exchange or __atomic_compare_exchange: clang makes the first
 * kind itself, the code generator the second.  libatomic copies such an
 * object under a lock with memcpy (and compares it with memcmp), which the
 * string interceptors would count, and only when it takes that path: a
 * misaligned 8-byte load that fits in an aligned 16-byte word is one
 * cmpxchg16b instead.  The count of one operation then depended on where
 * its object lay, and the pass counted the misaligned instruction on top
 * (1 + 2 for one 8-byte load across a word boundary).
 *
 * The static runtime defines the four here (exported with the string
 * functions; the preloaded runtime, which counts no accesses, has none).
 * Each operation counts one access of its object by the range rule (one
 * per 8-byte word it touches), as an atomic instruction counts 1, and the
 * pass leaves the instructions that become these calls to them
 * (docs/compiler.md, "What is counted").
 *
 * The operations themselves are libatomic's: an object of 1, 2, 4, 8 or 16
 * bytes aligned to its size by the instruction (lock-free, so they stay
 * atomic against the program's inline atomics on the same object), any
 * other under a lock per 64-byte line, taken in one order.  The locks are
 * heapprof's, not libatomic's; every call of these names in the process
 * reaches this file (the executable's definition preempts libatomic's for
 * every library), so all of them take the same locks.  They are weak, as
 * the string functions are: a definition of the program's own (compiler-
 * rt's builtins define them) wins, and then counts nothing.
 *===----------------------------------------------------------------------===*/
#include "heapprof_internal.h"

#include <stdbool.h>

/* Not in the preloaded runtime: it would not export them, and
 * heapprof_deepbind.c would then send a deep-bound library's calls here
 * while the rest of the program's went to libatomic, under other locks. */
#ifndef HEAPPROF_SHARED_RUNTIME

/* One lock per 64-byte line, by the line's number modulo the table's size;
 * an object across several lines takes each of its locks, lowest index
 * first, so no two callers wait on each other. */
#define HP_ATOMIC_LOCKS 64
static struct {
  hp_spinlock_t lock;
} __attribute__((aligned(64))) locks[HP_ATOMIC_LOCKS];

static u64 locks_of(uptr p, size_t n) {
  if (!n)
    return 0;
  uptr first = p / 64, last = (p + n - 1) / 64;
  if (last - first >= HP_ATOMIC_LOCKS - 1)
    return ~(u64)0;
  u64 mask = 0;
  for (uptr l = first; l <= last; l++)
    mask |= (u64)1 << (l % HP_ATOMIC_LOCKS);
  return mask;
}

/* Taking a lock is a full barrier (an xchg); releasing one is a store,
 * which a later load may pass: the fence after it makes the operation
 * sequentially consistent, as libatomic's barriers do. */
static void lock_all(u64 mask) {
  hp_locks_count_up();
  for (u64 m = mask; m; m &= m - 1)
    hp_spin_acquire(&locks[__builtin_ctzll(m)].lock);
}

static void unlock_all(u64 mask) {
  for (u64 m = mask; m; m &= m - 1)
    hp_spin_release(&locks[__builtin_ctzll(m)].lock);
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
  hp_locks_count_down();
}

/* The size an instruction can do atomically, or 0: 1, 2, 4, 8 or 16 bytes
 * on an address aligned to it. */
static size_t lock_free(const void *p, size_t n) {
  return (n == 1 || n == 2 || n == 4 || n == 8 || n == 16) &&
                 !((uptr)p & (n - 1))
             ? n
             : 0;
}

/* Copies between an object and a caller's buffer, lock-free when the
 * object allows (the buffer is the caller's own, aligned or not). */
#define LF_CASES(X)                                                          \
  X(1, u8) X(2, u16) X(4, u32) X(8, u64) X(16, unsigned __int128)

static void load_obj(size_t n, const void *obj, void *out) {
  switch (lock_free(obj, n)) {
#define X(N, T)                                                              \
  case N: {                                                                  \
    T v = __atomic_load_n((T *)obj, __ATOMIC_SEQ_CST);                       \
    hp_memcpy(out, &v, N);                                                   \
    return;                                                                  \
  }
    LF_CASES(X)
#undef X
  }
  u64 mask = locks_of((uptr)obj, n);
  lock_all(mask);
  hp_memcpy(out, obj, n);
  unlock_all(mask);
}

static void exchange_obj(size_t n, void *obj, const void *in, void *out) {
  switch (lock_free(obj, n)) {
#define X(N, T)                                                              \
  case N: {                                                                  \
    T v, old;                                                                \
    hp_memcpy(&v, in, N);                                                    \
    old = __atomic_exchange_n((T *)obj, v, __ATOMIC_SEQ_CST);                \
    if (out)                                                                 \
      hp_memcpy(out, &old, N);                                               \
    return;                                                                  \
  }
    LF_CASES(X)
#undef X
  }
  /* A byte at a time: the old byte is read before the new one is, so the
   * caller's buffers may be one. */
  u64 mask = locks_of((uptr)obj, n);
  u8 *o = obj, *r = out;
  const u8 *v = in;
  lock_all(mask);
  for (size_t i = 0; i < n; i++) {
    u8 old = o[i];
    o[i] = v[i];
    if (r)
      r[i] = old;
  }
  unlock_all(mask);
}

static bool compare_exchange_obj(size_t n, void *obj, void *expected,
                                 const void *desired) {
  switch (lock_free(obj, n)) {
#define X(N, T)                                                              \
  case N: {                                                                  \
    T e, d;                                                                  \
    hp_memcpy(&e, expected, N);                                              \
    hp_memcpy(&d, desired, N);                                               \
    if (__atomic_compare_exchange_n((T *)obj, &e, d, false,                  \
                                    __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))     \
      return true;                                                           \
    hp_memcpy(expected, &e, N);                                              \
    return false;                                                            \
  }
    LF_CASES(X)
#undef X
  }
  u64 mask = locks_of((uptr)obj, n);
  lock_all(mask);
  bool same = !hp_memcmp(obj, expected, n);
  if (same)
    hp_memcpy(obj, desired, n);
  else
    hp_memcpy(expected, obj, n);
  unlock_all(mask);
  return same;
}

/* libatomic's names are builtins of the C compiler, with other
 * parameters: the definitions take them through asm labels.  The memory
 * orders are not read: every operation is sequentially consistent, which
 * is at least what any order asks. */
#define HP_ATOMIC_ENTRY(name) HP_INTERFACE __attribute__((weak)) __asm__(name)

void hp_atomic_load(size_t n, void *obj, void *ret, int order)
    HP_ATOMIC_ENTRY("__atomic_load");
void hp_atomic_load(size_t n, void *obj, void *ret, int order) {
  hp_shadow_record_range((uptr)obj, n); /* 0 bytes: nothing */
  load_obj(n, obj, ret);
}

void hp_atomic_store(size_t n, void *obj, void *val, int order)
    HP_ATOMIC_ENTRY("__atomic_store");
void hp_atomic_store(size_t n, void *obj, void *val, int order) {
  hp_shadow_record_range((uptr)obj, n); /* 0 bytes: nothing */
  exchange_obj(n, obj, val, NULL);
}

void hp_atomic_exchange(size_t n, void *obj, void *val, void *ret, int order)
    HP_ATOMIC_ENTRY("__atomic_exchange");
void hp_atomic_exchange(size_t n, void *obj, void *val, void *ret,
                        int order) {
  hp_shadow_record_range((uptr)obj, n); /* 0 bytes: nothing */
  exchange_obj(n, obj, val, ret);
}

bool hp_atomic_compare_exchange(size_t n, void *obj, void *expected,
                                void *desired, int success, int failure)
    HP_ATOMIC_ENTRY("__atomic_compare_exchange");
bool hp_atomic_compare_exchange(size_t n, void *obj, void *expected,
                                void *desired, int success, int failure) {
  hp_shadow_record_range((uptr)obj, n); /* 0 bytes: nothing */
  return compare_exchange_obj(n, obj, expected, desired);
}

#endif /* !HEAPPROF_SHARED_RUNTIME */
