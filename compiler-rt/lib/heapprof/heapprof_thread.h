/*===- heapprof_thread.h - per-thread state -----------------------------===
 *
 * Part of heapprof.  Each thread gets an hp_thread_t (mmap'd, valid
 * zero-initialised) holding its allocator caches, statistics and stack
 * bounds; a TLS pointer finds it.  A pthread key destructor returns the
 * caches at thread exit.  While a thread's state is being set up or after it
 * was torn down, allocations use one shared, locked fallback state.
 *===----------------------------------------------------------------------===*/
#ifndef HEAPPROF_THREAD_H
#define HEAPPROF_THREAD_H

#include <pthread.h>

typedef struct hp_thread {
  hp_cache_t caches[HP_NUM_CLASSES];
  hp_stats_t stats;
  uptr stack_top;      /* frames at or above this are not the program's */
  uptr stack_lo;       /* [stack_lo, stack_top) lies in the thread's own
                        * stack, all readable down to a live frame: a
                        * frame below (or above) is on another stack (a
                        * coroutine's, a sigaltstack), walked by CFI alone
                        * (heapprof_stack.h).  A bound, not the bottom */
  uptr tls_tp;         /* its thread pointer (%fs:0): the leak check's
                        * roots include its TLS (heapprof_leaks.h) */
  uptr stack_bottom;   /* the lowest byte of a stack the program gave it
                        * (pthread_attr_setstack), else 0: the leak check
                        * reads its stack from there, not from the start of
                        * the mapping, which is the heap's then */
  u32 cycle_tick[HP_NUM_OPS]; /* calls of each op since its last sample */
  hp_hib_cache_t hibs; /* freed chunks' HIBs on their way to the table */
  hp_peak_thread_t peak; /* live bytes and live table (heapprof_peak.h) */
  u32 tid;
  u16 seq; /* 1, 2, ... in creation order, 16 bits (0 skipped): the
            * allocating thread of allocator=system|PATH's side table */
  struct hp_thread *next, *prev; /* registry, under the registry lock */
  hp_opc_table_t opc;  /* calls and cycles by operation class */
  /* Last: a recycled state is cleared up to here; the walks' caches stay
   * valid for the next thread (hp_stack_thread_exit). */
  hp_stack_thread_t walks;
} hp_thread_t;

void hp_thread_init(void);
/* The calling thread's thread pointer (x86-64: %fs:0, glibc's struct
 * pthread, below which the static TLS blocks lie). */
static HP_ALWAYS_INLINE uptr hp_thread_pointer(void) {
  uptr tp;
  __asm__("mov %%fs:0, %0" : "=r"(tp));
  return tp;
}
/* The calling thread's state, locked if it is the shared fallback; pair
 * with hp_thread_release.  Inline: every malloc and free asks.  The TLS
 * pointer holds the state, or 0 (none yet), 1 (being created) or 2 (torn
 * down), for which the slow path hands out the locked fallback. */
extern HP_TLS hp_thread_t *hp_tls_thread;
/* The thread's latest allocation (profiling): a free of it before the
 * thread's next is a temporary allocation's.  In TLS, not the state: a
 * thread without one (torn down, its key destructors running after
 * heapprof's) shares the fallback state with others, whose allocations in
 * between would make its objects not temporary, and would make an object
 * another thread frees temporary.  Kept complemented (~address): the
 * leak check reads every thread's TLS for pointers (heapprof_leaks.h),
 * and the latest allocation, dropped by the program, would be reachable
 * from here. */
extern HP_TLS uptr hp_last_alloc;
extern hp_thread_t hp_fallback_thread;
hp_thread_t *hp_thread_acquire_slow(void);
void hp_thread_release_fallback(void);
static HP_ALWAYS_INLINE hp_thread_t *hp_thread_acquire(void) {
  hp_thread_t *t = hp_tls_thread;
  if (HP_LIKELY((uptr)t > 2))
    return t;
  return hp_thread_acquire_slow();
}
/* The calling thread's own state, or NULL when it has none (not yet, or
 * torn down: hp_thread_acquire would hand it the shared fallback). */
static HP_ALWAYS_INLINE hp_thread_t *hp_thread_own(void) {
  hp_thread_t *t = hp_tls_thread;
  return HP_LIKELY((uptr)t > 2) ? t : NULL;
}
static HP_ALWAYS_INLINE void hp_thread_release(hp_thread_t *t) {
  if (HP_UNLIKELY(t == &hp_fallback_thread))
    hp_thread_release_fallback();
}
/* Adds up every thread's statistics (and those of exited threads). */
void hp_thread_sum_stats(hp_stats_t *out);
extern u32 hp_live_threads; /* written under the registry lock */
static HP_ALWAYS_INLINE u32 hp_thread_count(void) {
  return __atomic_load_n(&hp_live_threads, __ATOMIC_RELAXED);
}
/* Calls fn for every live thread's state and the shared fallback state,
 * under the registry lock (no thread exits meanwhile). */
void hp_thread_for_each(void (*fn)(hp_thread_t *t, void *arg), void *arg);
/* Bytes of free blocks in every thread's caches (read racily: statistics);
 * *freed gets those freed there (not fresh), *threads the number of
 * threads with state. */
u64 hp_thread_cached_bytes(u64 *freed, u64 *threads);
/* fork(): hold every thread-module lock; release in the parent; in the
 * child, release and forget the threads that did not survive the fork. */
void hp_thread_fork_prepare(void);
/* main runs under a wrapper (heapprof_start.c) whose frame is top: frames
 * at or above it are not the program's, as a thread's above the
 * pthread_create wrapper's are not.  Called on the main thread; again,
 * with the wrapper's caller's stack pointer after its return, once main
 * returned (see thread_start in heapprof_thread.c). */
void hp_thread_main_frame(uptr top);
/* Calls fn with the argument of every thread created through the
 * pthread_create wrapper that has not started yet (the leak check: until
 * it runs, only the wrapper holds it). */
void hp_thread_pending_args(void (*fn)(uptr arg, void *ctx), void *ctx);
/* Starts one of heapprof's own threads (the dump_signal thread) past the
 * pthread_create wrapper: it is no thread of the program's, so it is not
 * registered (the leak check's running threads and roots, the
 * serial/parallel axis of the operation classes), and what it allocates is
 * served by the fallback state.  Joinable into *joinable when that is not
 * NULL, else detached.  false if it could not be started. */
bool hp_thread_start_internal(void (*fn)(void), pthread_t *joinable);
/* Writes every thread's cached HIBs back into the table (profile writing). */
void hp_thread_flush_hibs(void);
/* The same, and then once more after every merge a flush sent under the
 * lock (hp_hib_cache_t's merging) has landed: for the last dump, which no
 * later dump follows to take such an event. */
void hp_thread_flush_hibs_settled(void);
void hp_thread_fork_parent(void);
void hp_thread_fork_child(void);

#endif
