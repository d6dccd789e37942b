/*===- heapprof_allocator.c - the allocation front end ------------------===
 *
 * Part of heapprof.  What every malloc/free does besides finding a block:
 *
 *   allocate: coarse clock (timestamp), cpu -> unwind into a stack buffer ->
 *     StackDepot id -> block -> header -> zero the chunk's shadow counters
 *     -> publish state ALLOCATED.
 *   free: validate the pointer against the allocator's own metadata (never
 *     trusting the memory it points to) -> atomically ALLOCATED->AVAILABLE
 *     (a second free fails here: double free) -> read the chunk's counters
 *     -> return the block -> merge the chunk's event into the thread's HIB
 *     cache (written back to the table on conflict, exit and dumps).
 *
 * phkmalloc's debugging options, as flags (docs/flags.md maps the letters):
 * junk_fill writes HP_JUNK_ALLOC over a chunk's bytes at allocation and
 * HP_JUNK_FREE over them at free; zero_fill makes every allocation zero;
 * realloc_in_place keeps a chunk whose new size needs the same size class.
 * These are the runtime's own writes (hp_memset, not instrumented): they
 * never reach the shadow counters.
 *
 * Word 0 of the header (state, from_memalign, alloc_kind, flags) is read
 * and written as one atomic u32 so that a dump marking a live chunk
 * REPORTED and a concurrent free agree on who counts it.
 *===----------------------------------------------------------------------===*/
#include "heapprof_internal.h"

#include <errno.h>
#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>

/* Larger requests fail like libc's would on this machine. */
#define HP_MAX_ALLOCATION (1ull << 40)

u32 hp_fork_gen; /* heapprof_chunk.h */
u32 hp_fork_ms;

/* The plain path.  malloc/free test a dozen flags and states on every call
 * for features that are off in the default mode (pmu_events,
 * false_sharing, zero_fill, junk_fill, max_allocation_size_mb, op_classes=0,
 * allocator=system|PATH, sampled mode, init not yet run).  hp_alloc_plain
 * is set once init has run and found all of them off (their flags and
 * states never change afterwards); then hp_allocate and hp_deallocate take
 * allocate()/deallocate() with general=false, where every such test is
 * compiled out, and otherwise the general form.  Written once by
 * hp_allocator_init_plain (end of init), read by every call. */
bool hp_alloc_plain;

void hp_allocator_init_plain(void) {
  bool plain = hp_rtl.inited && hp_foreign_state == HP_FOREIGN_OFF &&
               !hp_pmu_on && !hp_flags.false_sharing && !hp_flags.zero_fill &&
               !hp_flags.junk_fill && !hp_flags.max_allocation_size_mb &&
               hp_flags.op_classes;
  __atomic_store_n(&hp_alloc_plain, plain, __ATOMIC_RELEASE);
}

/* A test for a feature the plain path has off. */
#define GENERAL(general, cond) ((general) && HP_UNLIKELY(cond))

static HP_ALWAYS_INLINE u32 *word0(hp_chunk_header_t *h) { return (u32 *)h; }
static HP_ALWAYS_INLINE u32 make_word0(u8 state, u8 memalign, u8 kind, u8 flags) {
  return (u32)state | (u32)memalign << 8 | (u32)kind << 16 | (u32)flags << 24;
}

/* A failed allocation counted; whether it is reported (else NULL and
 * ENOMEM). */
static bool count_failed(void) {
  /* calloc/reallocarray/pvalloc overflow can be a program's first call into
   * the allocator: the flags and thread caches must be set up first. */
  if (HP_UNLIKELY(!hp_rtl.inited))
    hp_rtl_init();
  hp_thread_t *t = hp_thread_acquire();
  t->stats.failed_allocs++;
  hp_thread_release(t);
  hp_syscalls_charge_outside(); /* the failed mmap, if any */
  return !hp_flags.allocator_may_return_null;
}

void *hp_allocation_failed(uptr size, uptr fp, const char *why, u8 kind) {
  /* operator new handles its own failures (new_handler, nothrow). */
  if (count_failed() && kind == HP_ALLOC_MALLOC)
    hp_report_out_of_memory(size, fp, why);
  errno = ENOMEM;
  return NULL;
}

void *hp_allocation_overflow(uptr n, uptr size, uptr fp, const char *why) {
  if (count_failed())
    hp_report_overflow(n, size, fp, why);
  errno = ENOMEM;
  return NULL;
}

/* One call in cycle_sample_every of each operation kind (malloc, calloc,
 * ..., free, delete: heapprof_opclass.h) gets its cycles measured: a tick
 * per kind, so a program that strictly alternates malloc and free, or
 * cycles through several kinds, still has every kind sampled.  Decided at
 * the call's start, so that only a measured call reads the TSC (a
 * thread-local count: the thread's state is not at hand yet there).  The
 * halves of a moving realloc are never sampled: hp_reallocate measures the
 * whole call. */
static HP_TLS u32 cycle_tick[HP_NUM_OPS];
static HP_ALWAYS_INLINE bool sample_cycles(bool profiling, u8 op) {
  if (!HP_LIKELY(profiling) || op >= HP_NUM_OPS ||
      ++cycle_tick[op] < (u32)hp_flags.cycle_sample_every)
    return false;
  cycle_tick[op] = 0;
  return true;
}

/* Op classes (heapprof_opclass.h): every call is counted in its class; a
 * measured one adds its cycles there too, unless it is the first call of
 * its thread (that one sets up the thread's state: an mmap, and for the
 * first thread the rest of the runtime's lazy setup).  The system calls
 * the call made (heapprof_syscalls.h) are charged to the class. */
static HP_ALWAYS_INLINE void count_op(hp_thread_t *t, u8 op, bool large,
                                      u32 block, u64 cycles, bool general) {
  bool sys = hp_sys_pending;
  if (GENERAL(general, !hp_flags.op_classes) && HP_LIKELY(!sys) &&
      HP_LIKELY(!hp_pmu_on))
    return;
  u32 cls = HP_OPC_CLASS(op, large, block, hp_thread_count() > 1);
  if (HP_UNLIKELY(sys))
    hp_syscalls_charge(cls);
  if (GENERAL(general, hp_pmu_on))
    hp_pmu_end(cls);
  if (GENERAL(general, !hp_flags.op_classes))
    return;
  hp_opclass_count(&t->opc, cls);
  if (HP_UNLIKELY(cycles) && t->stats.mallocs + t->stats.frees > 1)
    hp_opclass_sample(&t->opc, cls, cycles);
}

/* The cycles of an allocating call measured since t0 (at least 1), added
 * to the thread's totals and kept in h as the chunk's alloc_cycles; 0 when
 * the call is not sampled. */
static HP_ALWAYS_INLINE u64 alloc_call_cycles(hp_thread_t *t,
                                              hp_chunk_header_t *h,
                                              bool sampled, u64 t0) {
  if (HP_LIKELY(!sampled))
    return 0;
  u64 cycles = hp_rdtsc() - t0;
  cycles += !cycles;
  t->stats.malloc_cycles += cycles;
  t->stats.cycle_samples++;
  h->alloc_cycles = cycles > UINT32_MAX ? UINT32_MAX : (u32)cycles;
  return cycles;
}

/* cold: a hot/cold new hinted cold; the block comes from the cold twin of
 * its class (heapprof_allocator_primary.c).  Large chunks are mmap'd on
 * their own pages anyway. */
static HP_ALWAYS_INLINE void *allocate(uptr size, uptr align, u8 kind,
                                       uptr fp, bool zero, bool cold, u8 op,
                                       u32 *block_out, bool general) {
  if (GENERAL(general, !hp_rtl.inited))
    hp_rtl_init();
  if (GENERAL(general, hp_pmu_on))
    hp_pmu_begin(op);
  /* profiling=0 (the allocator alone) reads no clock. */
  bool profiling = hp_flags.profiling;
  bool sampled = sample_cycles(profiling, op);
  u64 t0 = HP_UNLIKELY(sampled) ? hp_rdtsc() : 0;
  u32 now_ms = HP_LIKELY(profiling) ? hp_now_ms() : 0;
  u32 cpu = HP_LIKELY(profiling) ? hp_cpu_id() : 0;
  if (align < HP_MIN_ALIGNMENT)
    align = HP_MIN_ALIGNMENT;
  uptr max_mb = (uptr)hp_flags.max_allocation_size_mb;
  if (HP_UNLIKELY(size > HP_MAX_ALLOCATION ||
                  GENERAL(general, max_mb && size > max_mb << 20)))
    return hp_allocation_failed(size, fp, "allocation-size-too-big", kind);
  /* A valid but impossible alignment (posix_memalign(&p, 1ull << 62, n)):
   * ENOMEM, as glibc and POSIX have it. */
  if (HP_UNLIKELY(align > HP_MAX_ALLOCATION))
    return hp_allocation_failed(size, fp, "alignment-too-big", kind);

  hp_thread_t *t = hp_thread_acquire();
  u32 stack_id = 0, fs_pos = 0;
  if (HP_LIKELY(profiling)) {
    stack_id = hp_stack_id(fp, t->stack_lo, t->stack_top,
                           (u32)hp_flags.malloc_context_size,
                           hp_flags.fold_recursion);
    if (GENERAL(general, hp_flags.false_sharing))
      fs_pos = hp_fshare_alloc(t->tid, stack_id, size);
  }

  /* At least one user byte: an aligned size-0 chunk must not start at its
   * block's end, where free() would find the next block instead. */
  uptr need = (size ? size : 1) + HP_CHUNK_HEADER_SIZE +
              (align - HP_MIN_ALIGNMENT);
  u32 c = hp_size_to_class(need);
  uptr user_beg, block = 0, block_end;
  bool fresh = false;
  if (HP_LIKELY(c)) {
    if (HP_UNLIKELY(cold)) {
      block = hp_primary_alloc_cold(c, &fresh, &t->stats);
      t->stats.cold_allocs += block != 0;
    } else {
      block = hp_primary_alloc(t->caches, c, &fresh, &t->stats);
    }
    if (HP_UNLIKELY(!block)) {
      hp_thread_release(t);
      return hp_allocation_failed(size, fp, "out-of-memory", kind);
    }
    user_beg = HP_ROUND_UP(block + HP_CHUNK_HEADER_SIZE, align);
    block_end = block + hp_class_size(c);
    if (HP_UNLIKELY(user_beg != block + HP_CHUNK_HEADER_SIZE)) {
      hp_memalign_tag_t *tag = (hp_memalign_tag_t *)block;
      tag->magic = HP_MEMALIGN_MAGIC;
      tag->user_beg = user_beg;
    }
  } else {
    user_beg = hp_secondary_alloc(size, align);
    /* Refused under a limit the program set itself: the heap's free pages
     * go back first (they count against it until they do:
     * heapprof_rlimit.c), and the mapping is tried once more, as a refill
     * is. */
    if (HP_UNLIKELY(!user_beg) &&
        hp_rlimit_program_holds() &&
        hp_primary_trim(&t->stats))
      user_beg = hp_secondary_alloc(size, align);
    if (HP_UNLIKELY(!user_beg)) {
      hp_thread_release(t);
      return hp_allocation_failed(size, fp, "out-of-memory", kind);
    }
    fresh = true;
    block_end = user_beg + size;
    t->stats.large_mallocs++;
  }

  hp_chunk_header_t *h = hp_chunk_header(user_beg);
  h->requested_size = size >= HP_SIZE_IN_LARGE ? HP_SIZE_IN_LARGE : (u32)size;
  h->timestamp_ms = now_ms;
  h->cpu_id = cpu;
  h->alloc_context_id = stack_id;
  h->fork_gen = hp_fork_gen;
  h->data_type_id = fs_pos; /* false_sharing's place for it; else 0 */
  /* No stale counts from the block's previous life: zero the counters of
   * every granule this chunk can own. */
  if (HP_LIKELY(profiling))
    hp_shadow_clear(user_beg, HP_MAX(block_end, user_beg + 1));
  if (zero || GENERAL(general, hp_flags.zero_fill)) {
    if (!fresh)
      hp_memset((void *)user_beg, 0, size);
  } else if (GENERAL(general, hp_flags.junk_fill)) {
    hp_memset((void *)user_beg, HP_JUNK_ALLOC, size);
  }
  t->stats.mallocs++;
  t->stats.malloced_bytes += size;
  hp_last_alloc = ~user_beg; /* a store, cheaper than testing profiling */
  bool arm = hp_peak.on && hp_peak_alloc(&t->peak, stack_id, size, now_ms);
  /* 0 means "not sampled"; a measured call takes at least 1 cycle.  A
   * moving realloc's halves are measured as one call by hp_reallocate. */
  h->alloc_cycles = 0;
  if (HP_LIKELY(profiling && op != HP_OP_IN_REALLOC))
    count_op(t, op, !c, fresh ? HP_BLOCK_NEW : HP_BLOCK_REUSED,
             alloc_call_cycles(t, h, sampled, t0), general);
  if (block_out)
    *block_out = fresh ? HP_BLOCK_NEW : HP_BLOCK_REUSED;
  __atomic_store_n(word0(h),
                   make_word0(HP_CHUNK_ALLOCATED,
                              user_beg != block + HP_CHUNK_HEADER_SIZE && c, kind, 0),
                   __ATOMIC_RELEASE);
  hp_thread_release(t);
  if (HP_UNLIKELY(arm))
    hp_peak_arm();
  return (void *)user_beg;
}

static HP_NOINLINE void *allocate_general(uptr size, uptr align, u8 kind,
                                           uptr fp, bool zero) {
  if (HP_FOREIGN_HOOK())
    return hp_foreign_allocate(size, align, kind, fp, zero);
  /* The runtime's own (its section clears hp_alloc_plain). */
  if (HP_UNLIKELY(hp_own_here())) {
    void *p = hp_own_allocate(size, align, zero);
    if (p)
      return p;
  }
  return allocate(size, align, kind, fp, zero, false,
                  hp_op_of_alloc(kind, align, zero), NULL, true);
}

void *hp_allocate(uptr size, uptr align, u8 kind, uptr fp, bool zero) {
  if (HP_LIKELY(__atomic_load_n(&hp_alloc_plain, __ATOMIC_ACQUIRE)))
    return allocate(size, align, kind, fp, zero, false,
                    hp_op_of_alloc(kind, align, zero), NULL, false);
  return allocate_general(size, align, kind, fp, zero);
}

void *hp_allocate_hinted(uptr size, uptr align, u8 kind, uptr fp, u8 hint) {
  if (HP_FOREIGN_HOOK())
    return hp_foreign_allocate(size, align, kind, fp, false);
  return allocate(size, align, kind, fp, false, hint < HP_COLD_HINT_LIMIT,
                  HP_OP_NEW, NULL, true);
}

/* Where a pointer handed to free/realloc stands. */
typedef enum {
  LOOKUP_OK,
  LOOKUP_NOT_OURS,
  LOOKUP_INTERIOR,      /* inside (or before) a live chunk, not its start */
  LOOKUP_FREED_LARGE,   /* the start of a large chunk unmapped recently */
  LOOKUP_INTERIOR_FREED, /* inside (or before) a chunk already freed */
} lookup_result_t;

typedef struct lookup {
  hp_chunk_header_t *h;
  uptr block;       /* primary block, or 0 */
  u32 class_id;
  hp_large_t *large;
  uptr chunk_beg;   /* for LOOKUP_INTERIOR*: the chunk's user_beg */
} lookup_t;

/* The state byte of a chunk whose header is not trusted to be live: a
 * block whose pages release_freed_pages handed back reads as 0. */
static lookup_result_t interior_kind(const lookup_t *l) {
  u8 st = (u8)(__atomic_load_n(word0(hp_chunk_header(l->chunk_beg)),
                               __ATOMIC_ACQUIRE) & 0xff);
  if (st == HP_CHUNK_ALLOCATED)
    return LOOKUP_INTERIOR;
  if (st == HP_CHUNK_AVAILABLE ||
      (st == 0 && hp_primary_block_released(l->class_id)))
    return LOOKUP_INTERIOR_FREED;
  return LOOKUP_NOT_OURS; /* a block handed out to a cache, never used */
}

static HP_NOINLINE lookup_result_t lookup_rest(uptr u, lookup_t *l);

/* Inline: the common case, the start of a primary chunk without alignment
 * padding, costs the region lookup and one comparison. */
static HP_ALWAYS_INLINE lookup_result_t lookup(uptr u, lookup_t *l) {
  u32 c = 0;
  uptr block = hp_primary_block_of(u, &c);
  if (HP_LIKELY(block && u == block + HP_CHUNK_HEADER_SIZE)) {
    l->h = (hp_chunk_header_t *)block;
    l->block = block;
    l->class_id = c;
    l->large = NULL;
    l->chunk_beg = 0;
    return LOOKUP_OK;
  }
  return lookup_rest(u, l);
}

static lookup_result_t lookup_rest(uptr u, lookup_t *l) {
  hp_memset(l, 0, sizeof(*l));
  l->block = hp_primary_block_of(u, &l->class_id);
  if (l->block) {
    if (u == l->block + HP_CHUNK_HEADER_SIZE) {
      l->h = (hp_chunk_header_t *)l->block;
      return LOOKUP_OK;
    }
    hp_memalign_tag_t *tag = (hp_memalign_tag_t *)l->block;
    if (tag->magic == HP_MEMALIGN_MAGIC && tag->user_beg == u) {
      l->h = hp_chunk_header(u);
      return LOOKUP_OK;
    }
    l->chunk_beg = tag->magic == HP_MEMALIGN_MAGIC
                       ? tag->user_beg
                       : l->block + HP_CHUNK_HEADER_SIZE;
    return interior_kind(l);
  }
  if (hp_primary_owns(u))
    return LOOKUP_NOT_OURS;
  l->large = hp_secondary_find(u);
  if (l->large) {
    l->h = hp_chunk_header(u);
    return LOOKUP_OK;
  }
  hp_large_t *c = hp_secondary_find_containing(u);
  if (c) {
    l->chunk_beg = c->user_beg;
    return LOOKUP_INTERIOR;
  }
  l->chunk_beg = hp_secondary_recently_freed(u);
  if (l->chunk_beg)
    return l->chunk_beg == u ? LOOKUP_FREED_LARGE : LOOKUP_INTERIOR_FREED;
  return LOOKUP_NOT_OURS;
}

/* A block of glibc's: lookup() found it in no mapping of heapprof's, and a
 * library opened with RTLD_DEEPBIND may have taken it from glibc's malloc
 * before its calls were redirected here (heapprof_deepbind.c).  (The
 * runtime's own blocks from glibc are told apart before: own_block.) */
static bool glibcs(lookup_result_t r, uptr u) {
  return r == LOOKUP_NOT_OURS && hp_deepbind_any() && !hp_primary_owns(u);
}

/* A block the runtime took from glibc for itself (heapprof_ownalloc.h). */
static bool own_block(lookup_result_t r, uptr u) {
  return r == LOOKUP_NOT_OURS && hp_own_block(u);
}

/* Reports a pointer lookup() refused; false when the caller must leave the
 * pointer alone (halt_on_error=0). */
static void report_lookup(lookup_result_t r, const lookup_t *l, uptr u,
                          uptr fp, const char *op) {
  hp_thread_t *t = hp_thread_acquire();
  t->stats.invalid_frees++;
  hp_thread_release(t);
  switch (r) {
  case LOOKUP_INTERIOR:
    hp_report_invalid_free(u, fp, op, l->chunk_beg);
    break;
  case LOOKUP_FREED_LARGE:
    hp_report_double_free(u, fp, op, NULL, 0);
    break;
  case LOOKUP_INTERIOR_FREED: {
    /* A primary chunk's header survives its free (unless its page was
     * released); a large chunk's mapping is gone. */
    const hp_chunk_header_t *h = NULL;
    if (l->block) {
      h = hp_chunk_header(l->chunk_beg);
      if ((h->state) != HP_CHUNK_AVAILABLE)
        h = NULL;
    }
    hp_report_double_free(u, fp, op, h, l->chunk_beg);
    break;
  }
  default:
    hp_report_invalid_free(u, fp, op, 0);
  }
}

/* free, delete or realloc of the start of a chunk (lookup() said so) whose
 * header is not ALLOCATED: a double free, or a header something else
 * wrote over (a state that is neither of heapprof's), or the start of a
 * block never handed out (0, unless its pages were released). */
static HP_NOINLINE void report_state(const lookup_t *l, uptr u, uptr fp,
                                     const char *op, u8 st) {
  hp_thread_t *t = hp_thread_acquire();
  t->stats.invalid_frees++;
  hp_thread_release(t);
  bool released =
      st == 0 && l->block && hp_primary_block_released(l->class_id);
  if (st == HP_CHUNK_AVAILABLE || released) {
    hp_report_double_free(u, fp, op, released ? NULL : l->h, 0);
    return;
  }
  if (st == 0) {
    hp_report_invalid_free(u, fp, op, 0);
    return;
  }
  /* The live chunk in the block below, if any (a primary chunk's blocks
   * follow one another in its size class's region). */
  const hp_chunk_header_t *below = NULL;
  uptr below_beg = 0;
  u32 c;
  u64 idx;
  if (l->block && hp_primary_block_index(l->block, &c, &idx) && idx > 0) {
    uptr b = hp_primary_block_addr(c, idx - 1);
    below_beg = hp_block_user_beg(b, hp_class_size(c));
    const hp_chunk_header_t *bh = hp_chunk_header(below_beg);
    if (bh->state == HP_CHUNK_ALLOCATED &&
        bh->requested_size != HP_SIZE_IN_LARGE &&
        below_beg + bh->requested_size <= l->block)
      below = bh;
  }
  hp_report_corrupt_header(u, fp, op, st, below_beg, below);
}

/* A free of a pointer lookup() refused: a block of glibc's (the
 * runtime's own, or a deep-bound library's), or a report.  Out of line:
 * the free path's code stays as it was without it. */
static HP_NOINLINE void free_not_found(lookup_result_t r, const lookup_t *l,
                                       uptr u, uptr fp, const char *op) {
  if (own_block(r, u))
    hp_own_free((void *)u);
  else if (glibcs(r, u))
    hp_deepbind_glibc_free((void *)u);
  else
    report_lookup(r, l, u, fp, op);
}

static const char *kind_alloc_name(u8 k) {
  return k == HP_ALLOC_NEW ? "operator new"
         : k == HP_ALLOC_NEW_ARRAY ? "operator new []" : "malloc";
}
static const char *kind_free_name(u8 k) {
  return k == HP_ALLOC_NEW ? "operator delete"
         : k == HP_ALLOC_NEW_ARRAY ? "operator delete []" : "free";
}
/* The call a deallocation's report names: realloc(p, 0) is a realloc. */
static const char *op_free_name(u8 kind, u8 op) {
  return op == HP_OP_REALLOC ? "realloc" : kind_free_name(kind);
}

/* Fills a chunk event from a header whose word 0 was w and the scan of its
 * counters.  Inline: every profiled free builds one for
 * hp_hib_cache_add_event, which mostly reads only some of its fields. */
static HP_ALWAYS_INLINE void chunk_event_of(hp_chunk_event_t *e,
                                            hp_chunk_header_t *h, u32 w,
                                            uptr size,
                                            const hp_shadow_scan_t *s,
                                            u32 now_ms, u32 now_cpu) {
  e->stack_id = h->alloc_context_id;
  e->size = size;
  e->accesses = s->accesses;
  e->granules = s->granules;
  e->touched_granules = s->touched_granules;
  e->pages = s->pages;
  e->touched_pages = s->touched_pages;
  e->alloc_ts = h->timestamp_ms;
  e->dealloc_ts = now_ms;
  e->alloc_cpu = h->cpu_id;
  e->dealloc_cpu = now_cpu;
  bool inherited = hp_chunk_inherited(h);
  u8 counted =
      hp_event_continuation(inherited, (w >> 24) & HP_CHUNK_REPORTED);
  /* Only a continuation can be inherited: the common free tests no more. */
  if (HP_UNLIKELY(counted))
    e->alloc_ts = hp_lifetime_start(e->alloc_ts, inherited);
  e->malloc_cycles = counted ? 0 : h->alloc_cycles;
  e->free_cycles = 0;
  e->continuation = counted;
  e->live = false;
  e->temporary = false;
}

/* The chunk a dump is folding now (hp_fold_live_chunk), or NULL, and the
 * thread of that dump (hp_fold_begin). */
static hp_chunk_header_t *folding;
static int folding_tid;

/* A free or realloc whose compare-and-swap took a REPORTED chunk: if a dump
 * is folding that chunk at this moment, waits until the fold is done (it
 * reads the counters, writes their baselines and the header), so that the
 * two never count the same accesses and the block is not handed out while
 * the fold writes.  The fold publishes the chunk before its own
 * compare-and-swap, and this reads it after ours (both full barriers): of
 * a fold and a free of one chunk, either the fold's compare-and-swap fails
 * or the free sees it.  Not when the dump runs on this very thread (a
 * handler of a signal the thread raised itself, the one kind a dump does
 * not hold, freeing during its checkpoint), whose fold cannot end first:
 * that free counts what the fold counts too. */
static HP_NOINLINE void wait_for_fold(const hp_chunk_header_t *h) {
  if (__atomic_load_n(&folding, __ATOMIC_SEQ_CST) != h ||
      __atomic_load_n(&folding_tid, __ATOMIC_RELAXED) ==
          (int)syscall(SYS_gettid))
    return;
  for (u32 spins = 0; __atomic_load_n(&folding, __ATOMIC_ACQUIRE) == h;
       spins++) {
    if (spins < 1000)
      __builtin_ia32_pause();
    else
      sched_yield(); /* a large chunk: its fold reads many counters */
  }
}

/* The event of a chunk freed (or reallocated) now, whose word 0 was w. */
static HP_ALWAYS_INLINE void chunk_event(hp_chunk_event_t *e,
                                         hp_chunk_header_t *h, u32 w,
                                         uptr user_beg, uptr size, u32 now_ms,
                                         u32 now_cpu) {
  hp_shadow_scan_t s;
  if (HP_UNLIKELY((w >> 24) & HP_CHUNK_REPORTED)) {
    /* A dump folded it: what it did since, and its baselines back to 0. */
    wait_for_fold(h);
    hp_shadow_unfold(user_beg, size, &s);
  } else {
    hp_shadow_scan(user_beg, size, &s);
  }
  chunk_event_of(e, h, w, size, &s, now_ms, now_cpu);
}

/* op: free or delete, realloc for realloc(p, 0), HP_OP_IN_REALLOC for a
 * moving realloc's free half. */
static HP_ALWAYS_INLINE void deallocate(void *p, u8 kind, uptr fp, u8 op,
                                        bool general) {
  if (!p)
    return;
  /* At a top of the heap: snapshot it while this chunk is still live. */
  if (HP_UNLIKELY(__atomic_load_n(&hp_peak.armed, __ATOMIC_RELAXED)))
    hp_peak_at_top();
  if (GENERAL(general, hp_pmu_on))
    hp_pmu_begin(op);
  bool profiling = hp_flags.profiling;
  bool sampled = sample_cycles(profiling, op);
  u64 t0 = HP_UNLIKELY(sampled) ? hp_rdtsc() : 0;
  u32 cpu = HP_LIKELY(profiling) ? hp_cpu_id() : 0;
  uptr u = (uptr)p;
  lookup_t l;
  lookup_result_t r = lookup(u, &l);
  if (HP_UNLIKELY(r != LOOKUP_OK)) {
    free_not_found(r, &l, u, fp, op_free_name(kind, op));
    return;
  }
  hp_chunk_header_t *h = l.h;
  /* The HIB cache's owner section (heapprof_hib_table.h) begins before the
   * header's compare-and-swap, the fence it needs. */
  hp_thread_t *own = HP_LIKELY(profiling) ? hp_thread_own() : NULL;
  hp_hib_cache_t *sec = own ? &own->hibs : NULL;
  if (HP_LIKELY(sec))
    hp_hib_cache_enter(sec);
  u32 w = __atomic_load_n(word0(h), __ATOMIC_ACQUIRE);
  /* Another family's chunk, reported while it is still ALLOCATED: the
   * profile the report writes before it aborts (from this thread, out of
   * the section) has the chunk live, where after the compare-and-swap
   * below it was neither live nor freed and left the profile altogether.
   * A moving realloc's free half: hp_reallocate checked the family.  (Out
   * of the loop below: inside it, the pair cost 10 instructions more.) */
  if (HP_UNLIKELY((u8)(w >> 16) != kind) &&
      (w & 0xff) == HP_CHUNK_ALLOCATED && op != HP_OP_IN_REALLOC &&
      hp_flags.check_dealloc_mismatch) {
    if (sec)
      hp_hib_cache_leave(sec);
    hp_report_dealloc_mismatch(u, fp, kind_alloc_name((u8)(w >> 16)),
                               op_free_name(kind, op));
    if (sec)
      hp_hib_cache_enter_fenced(sec);
    w = __atomic_load_n(word0(h), __ATOMIC_ACQUIRE);
  }
  for (;;) {
    if (HP_UNLIKELY((w & 0xff) != HP_CHUNK_ALLOCATED)) {
      if (sec)
        hp_hib_cache_leave(sec);
      report_state(&l, u, fp, op_free_name(kind, op), (u8)(w & 0xff));
      return;
    }
    u32 nw = (w & ~0xffu) | HP_CHUNK_AVAILABLE;
    if (__atomic_compare_exchange_n(word0(h), &w, nw, false, __ATOMIC_ACQ_REL,
                                    __ATOMIC_ACQUIRE))
      break;
  }
  uptr size = l.large ? l.large->requested_size : h->requested_size;
  hp_chunk_event_t e;
  if (HP_LIKELY(profiling))
    chunk_event(&e, h, w, u, size, hp_end_ms(hp_now_ms()), cpu);

  if (GENERAL(general, hp_flags.junk_fill) && l.block)
    hp_memset(p, HP_JUNK_FREE, size); /* a large chunk is unmapped below */

  hp_thread_t *t = hp_thread_acquire();
  /* Freed before its thread allocated again.  A moving realloc's old half
   * (HP_OP_IN_REALLOC) never is, without a test of op: hp_reallocate
   * allocates the new chunk first, at another address, so hp_last_alloc
   * names that one (TestCases/temporary.c's "first").  Unguarded: e is
   * unused without profiling, and a branch here cost more than the
   * compare. */
  e.temporary = hp_last_alloc == ~u;
  /* Before the block goes: a large chunk's header goes with its mapping.
   * A moving realloc's old half left the peak before its new chunk came
   * (hp_reallocate). */
  if (hp_peak.on && op != HP_OP_IN_REALLOC)
    hp_peak_free(&t->peak, h->alloc_context_id, size);
  if (l.block)
    hp_primary_free(t->caches, l.class_id, l.block, &t->stats);
  else
    hp_secondary_free(u);
  t->stats.frees++;
  t->stats.freed_bytes += size;
  u64 cycles = 0;
  if (HP_UNLIKELY(sampled)) {
    cycles = hp_rdtsc() - t0;
    cycles += !cycles;
    t->stats.free_cycles += cycles;
    t->stats.cycle_samples++;
  }
  if (HP_LIKELY(profiling)) {
    e.free_cycles = cycles;
    if (HP_UNLIKELY((w >> 24) & HP_CHUNK_LAST)) {
      if (sec) /* the last profile has it live: no event */
        hp_hib_cache_leave(sec);
    } else if (HP_LIKELY(sec)) {
      hp_hib_cache_add_entered(sec, &hp_hib_table, &e);
    } else {
      hp_hib_cache_add_event(&t->hibs, &hp_hib_table, &e);
    }
    if (HP_LIKELY(op != HP_OP_IN_REALLOC))
      count_op(t, op, l.large != NULL, HP_BLOCK_NONE, cycles, general);
  }
  hp_thread_release(t);
}

static HP_NOINLINE void deallocate_general(void *p, u8 kind, uptr fp) {
  if (p && HP_FOREIGN_HOOK()) {
    hp_foreign_free(p, kind, fp);
    return;
  }
  deallocate(p, kind, fp, kind == HP_ALLOC_MALLOC ? HP_OP_FREE : HP_OP_DELETE,
             true);
}

void hp_deallocate(void *p, u8 kind, uptr fp) {
  if (HP_LIKELY(__atomic_load_n(&hp_alloc_plain, __ATOMIC_ACQUIRE)))
    deallocate(p, kind, fp,
               kind == HP_ALLOC_MALLOC ? HP_OP_FREE : HP_OP_DELETE, false);
  else
    deallocate_general(p, kind, fp);
}

/* realloc_in_place (phkmalloc keeps a chunk whose new size is in the same
 * size class; its R option always moves): true when allocating size bytes
 * would pick the block p already has.  A large chunk stays when the new
 * size needs the same number of pages. */
static bool fits_in_place(const lookup_t *l, uptr u, uptr size) {
  /* A size near SIZE_MAX would wrap the sums below to a small one; no such
   * size fits anywhere (the moving way fails it with ENOMEM). */
  if (size > HP_MAX_ALLOCATION)
    return false;
  if (l->block) {
    u32 c = l->class_id >= HP_NUM_CLASSES ? l->class_id - HP_NUM_CLASSES
                                          : l->class_id;
    /* The header and any alignment padding stay where they are. */
    return hp_size_to_class(size + (u - l->block)) == c;
  }
  uptr map_end = l->large->map_beg + l->large->map_size;
  return hp_size_to_class(size + HP_CHUNK_HEADER_SIZE) == 0 &&
         size <= map_end - u && map_end - u - size < HP_PAGE_SIZE;
}

/* A large chunk's realloc to a size still large: mremap (when
 * realloc_in_place is on; phkmalloc's R always copies).  A size over the
 * limits goes the moving way, whose allocation reports it. */
static bool remaps(const lookup_t *l, uptr size) {
  uptr max_mb = (uptr)hp_flags.max_allocation_size_mb;
  return l->large && hp_size_to_class(size + HP_CHUNK_HEADER_SIZE) == 0 &&
         size <= HP_MAX_ALLOCATION && !(max_mb && size > max_mb << 20);
}

/* A realloc that keeps its block, or resizes a large chunk's mapping
 * (remap), profiled exactly as a moving one: the old chunk's life ends here
 * (its event goes to its allocation context's HIB) and a new chunk of the
 * realloc call's context begins, with every counter of the block zeroed --
 * the bytes it grows into included.  NULL if another thread freed p
 * meanwhile (reported), or if the kernel refused the mremap (*refused set:
 * the chunk is as it was, the caller moves it by copying). */
static void *realloc_keep(const lookup_t *l, uptr u, uptr old, uptr size,
                          uptr fp, bool remap, bool *refused) {
  if (HP_UNLIKELY(size < old && __atomic_load_n(&hp_peak.armed, __ATOMIC_RELAXED)))
    hp_peak_at_top();
  bool profiling = hp_flags.profiling;
  bool sampled = sample_cycles(profiling, HP_OP_REALLOC);
  u64 t0 = HP_UNLIKELY(sampled) ? hp_rdtsc() : 0;
  u32 cpu = HP_LIKELY(profiling) ? hp_cpu_id() : 0;
  hp_chunk_header_t *h = l->h;
  u32 w = __atomic_load_n(word0(h), __ATOMIC_ACQUIRE);
  for (;;) {
    if (HP_UNLIKELY((w & 0xff) != HP_CHUNK_ALLOCATED)) {
      hp_thread_t *t = hp_thread_acquire();
      t->stats.invalid_frees++;
      hp_thread_release(t);
      hp_report_double_free(u, fp, "realloc", h, 0);
      return NULL;
    }
    /* AVAILABLE while the chunk is between lives: a dump skips it, a
     * concurrent free reports a double free. */
    u32 nw = (w & ~0xffu) | HP_CHUNK_AVAILABLE;
    if (__atomic_compare_exchange_n(word0(h), &w, nw, false, __ATOMIC_ACQ_REL,
                                    __ATOMIC_ACQUIRE))
      break;
  }
  /* Before a remap can move the header a fold may be writing. */
  if (HP_UNLIKELY((w >> 24) & HP_CHUNK_REPORTED))
    wait_for_fold(h);
  /* The old chunk's counters stay at its old addresses: the shadow is
   * indexed by address, not by mapping. */
  uptr old_end = l->block ? l->block + hp_class_size(l->class_id)
                          : l->large->map_beg + l->large->map_size;
  hp_large_t *large = l->large;
  uptr nu = u;
  if (remap) {
    large = hp_secondary_remap(u, size);
    if (!large) {
      __atomic_store_n(word0(h), w, __ATOMIC_RELEASE);
      *refused = true;
      return NULL;
    }
    /* l->large and h pointed into the old mapping, which may be gone. */
    nu = large->user_beg;
    h = hp_chunk_header(nu);
  }
  u32 now_ms = HP_LIKELY(profiling) ? hp_now_ms() : 0;
  hp_chunk_event_t e;
  if (HP_LIKELY(profiling))
    chunk_event(&e, h, w, u, old, hp_end_ms(now_ms), cpu);

  hp_thread_t *t = hp_thread_acquire();
  t->stats.frees++;
  t->stats.freed_bytes += old;
  u32 stack_id = 0;
  if (HP_LIKELY(profiling)) {
    e.free_cycles = 0;
    if (!((w >> 24) & HP_CHUNK_LAST)) /* else the last profile has it live */
      hp_hib_cache_add_event(&t->hibs, &hp_hib_table, &e);
    stack_id = hp_stack_id(fp, t->stack_lo, t->stack_top,
                           (u32)hp_flags.malloc_context_size,
                           hp_flags.fold_recursion);
  }
  uptr block_end = l->block ? l->block + hp_class_size(l->class_id)
                            : large->map_beg + large->map_size;
  u32 old_id = h->alloc_context_id;
  h->requested_size = size >= HP_SIZE_IN_LARGE ? HP_SIZE_IN_LARGE : (u32)size;
  if (large)
    large->requested_size = size;
  h->timestamp_ms = now_ms;
  h->cpu_id = cpu;
  h->alloc_context_id = stack_id;
  h->fork_gen = hp_fork_gen;
  h->data_type_id = 0;
  if (HP_LIKELY(profiling))
    hp_shadow_clear(nu, block_end);
  /* Pages a remap added are fresh (zero): zero_fill clears only the old
   * mapping's slack; junk_fill's free junk goes only where bytes remain. */
  if (size > old && hp_flags.zero_fill)
    hp_memset((char *)nu + old, 0, HP_MIN(size, old_end - u) - old);
  else if (size > old && HP_UNLIKELY(hp_flags.junk_fill))
    hp_memset((char *)nu + old, HP_JUNK_ALLOC, size - old);
  else if (size < old && HP_UNLIKELY(hp_flags.junk_fill))
    hp_memset((char *)nu + size, HP_JUNK_FREE,
              HP_MIN(old, block_end - nu) - size);
  t->stats.mallocs++;
  t->stats.malloced_bytes += size;
  if (HP_LIKELY(profiling))
    hp_last_alloc = ~nu; /* a new chunk of the call's context */
  t->stats.reallocs++;
  if (remap)
    t->stats.mremap_reallocs++;
  else
    t->stats.inplace_reallocs++;
  /* The chunk moves from its old context to the call's. */
  bool arm = false;
  if (hp_peak.on) {
    hp_peak_free(&t->peak, old_id, old);
    arm = hp_peak_alloc(&t->peak, stack_id, size, now_ms);
  }
  h->alloc_cycles = 0;
  /* A remap that moved counts as a new block, one that stayed as reused. */
  if (HP_LIKELY(profiling))
    count_op(t, HP_OP_REALLOC, large != NULL,
             nu != u ? HP_BLOCK_NEW : HP_BLOCK_REUSED,
             alloc_call_cycles(t, h, sampled, t0), true);
  __atomic_store_n(word0(h),
                   make_word0(HP_CHUNK_ALLOCATED, (u8)(w >> 8), HP_ALLOC_MALLOC, 0),
                   __ATOMIC_RELEASE);
  hp_thread_release(t);
  if (HP_UNLIKELY(arm))
    hp_peak_arm();
  return (void *)nu;
}

/* A moving realloc's old chunk (context id, size requested bytes) leaves
 * the peak (away) before the new chunk is made, or comes back when that
 * failed. */
static HP_NOINLINE void peak_realloc_old(u32 id, uptr size, bool away) {
  if (away && __atomic_load_n(&hp_peak.armed, __ATOMIC_RELAXED))
    hp_peak_at_top();
  hp_thread_t *t = hp_thread_acquire();
  bool arm = false;
  if (away)
    hp_peak_free(&t->peak, id, size);
  else
    arm = hp_peak_alloc(&t->peak, id, size, hp_now_ms());
  hp_thread_release(t);
  if (HP_UNLIKELY(arm))
    hp_peak_arm();
}

void *hp_reallocate(void *p, uptr size, uptr fp) {
  bool plain = __atomic_load_n(&hp_alloc_plain, __ATOMIC_ACQUIRE);
  if (!plain && HP_FOREIGN_HOOK())
    return hp_foreign_realloc(p, size, fp);
  /* realloc(NULL, n) is how some programs allocate (Lua's allocator does
   * nothing else): the plain path too. */
  if (!p && !plain && HP_UNLIKELY(hp_own_here())) {
    void *q = hp_own_allocate(size, 0, false);
    if (q)
      return q;
  }
  if (!p)
    return plain ? allocate(size, 0, HP_ALLOC_MALLOC, fp, false, false,
                            HP_OP_REALLOC, NULL, false)
                 : allocate(size, 0, HP_ALLOC_MALLOC, fp, false, false,
                            HP_OP_REALLOC, NULL, true);
  if (size == 0) {
    /* glibc: realloc(p, 0) frees p and returns NULL. */
    deallocate(p, HP_ALLOC_MALLOC, fp, HP_OP_REALLOC, true);
    return NULL;
  }
  if (HP_UNLIKELY(hp_pmu_on))
    hp_pmu_begin(HP_OP_REALLOC);
  uptr u = (uptr)p;
  lookup_t l;
  lookup_result_t r = lookup(u, &l);
  if (HP_UNLIKELY(r != LOOKUP_OK)) {
    if (own_block(r, u))
      return hp_own_realloc(p, size);
    if (glibcs(r, u))
      return hp_deepbind_glibc_realloc(p, size);
    report_lookup(r, &l, u, fp, "realloc");
    errno = ENOMEM;
    return NULL;
  }
  u32 w = __atomic_load_n(word0(l.h), __ATOMIC_ACQUIRE);
  if (HP_UNLIKELY((w & 0xff) != HP_CHUNK_ALLOCATED)) {
    report_state(&l, u, fp, "realloc", (u8)(w & 0xff));
    errno = ENOMEM;
    return NULL;
  }
  /* Before either path takes the chunk out of the heap, so that a report
   * that aborts writes a profile with it live (the moving path's free
   * half skips the check). */
  u8 alloc_kind = (u8)(w >> 16);
  if (HP_UNLIKELY(alloc_kind != HP_ALLOC_MALLOC &&
                  hp_flags.check_dealloc_mismatch))
    hp_report_dealloc_mismatch(u, fp, kind_alloc_name(alloc_kind), "realloc");
  uptr old = l.large ? l.large->requested_size : l.h->requested_size;
  bool remap = false, refused = false;
  if (hp_flags.realloc_in_place &&
      (fits_in_place(&l, u, size) || (remap = remaps(&l, size)))) {
    void *n = realloc_keep(&l, u, old, size, fp, remap, &refused);
    if (n)
      return n;
    if (!refused) {
      /* The chunk was freed by another thread meanwhile: reported. */
      errno = ENOMEM;
      return NULL;
    }
    /* The kernel would not resize the mapping: copy, as glibc does. */
  }
  /* Move: the new chunk belongs to the realloc call's context and its
   * counters start at zero; the copy is the runtime's, not counted.  The
   * whole call is one realloc: measured from here (when its tick says so)
   * to the end, its cycles the new chunk's alloc_cycles. */
  bool profiling = hp_flags.profiling;
  bool sampled = sample_cycles(profiling, HP_OP_REALLOC);
  u64 t0 = HP_UNLIKELY(sampled) ? hp_rdtsc() : 0;
  /* The program holds the old bytes or the new ones, never both (realloc
   * is one operation, and the in-place path moves the chunk from one to
   * the other): the old chunk leaves the peak before the new one comes,
   * not after the copy, which counted both (a 40000-byte buffer grown to
   * 60000 made a 100000-byte peak).  A top the old chunk was part of is
   * taken first. */
  u32 old_id = l.h->alloc_context_id;
  if (hp_peak.on)
    peak_realloc_old(old_id, old, true);
  u32 moved_block;
  void *n = allocate(size, 0, HP_ALLOC_MALLOC, fp, false, false,
                     HP_OP_IN_REALLOC, &moved_block, true);
  if (!n) {
    if (hp_peak.on)
      peak_realloc_old(old_id, old, false); /* p stays */
    return NULL; /* p untouched, errno = ENOMEM */
  }
  hp_chunk_header_t *nh = hp_chunk_header((uptr)n);
  bool large = !hp_primary_owns((uptr)n);
  hp_memcpy(n, p, HP_MIN(old, size)); /* zero/junk fill covered the rest */
  deallocate(p, HP_ALLOC_MALLOC, fp, HP_OP_IN_REALLOC, true);
  hp_thread_t *t = hp_thread_acquire();
  t->stats.reallocs++;
  if (HP_LIKELY(profiling))
    count_op(t, HP_OP_REALLOC, large, moved_block,
             alloc_call_cycles(t, nh, sampled, t0), true);
  hp_thread_release(t);
  return n;
}

uptr hp_usable_size(const void *p) {
  if (HP_FOREIGN_HOOK())
    return hp_foreign_usable_size(p);
  if (!p)
    return 0;
  lookup_t l;
  lookup_result_t r = lookup((uptr)p, &l);
  if (glibcs(r, (uptr)p))
    return hp_deepbind_glibc_usable_size((void *)p);
  if (r != LOOKUP_OK ||
      (__atomic_load_n(word0(l.h), __ATOMIC_ACQUIRE) & 0xff) != HP_CHUNK_ALLOCATED)
    return 0;
  /* The requested size, as ASan's and MemProf's: a program that writes the
   * whole usable size (Redis's sds strings grow into it) has those bytes
   * kept by realloc, which copies the requested size.  The block's end
   * would promise the class's slack, which a moving realloc drops. */
  return l.large ? l.large->requested_size : l.h->requested_size;
}

/* ---------------------------------------------------------------- books */

static void books_region(u32 class_id, uptr beg, uptr carved, u64 nfree,
                         u32 size, void *arg) {
  (void)class_id;
  (void)beg;
  hp_alloc_books_t *b = arg;
  b->carved += carved;
  b->free_bytes += nfree * size;
  b->free_blocks += nfree;
}

void hp_allocator_books(hp_alloc_books_t *b) {
  hp_memset(b, 0, sizeof(*b));
  hp_primary_for_each_region(books_region, b);
  u64 freed, threads;
  b->free_bytes = HP_MIN(b->carved, b->free_bytes +
                                        hp_thread_cached_bytes(&freed, &threads));
  hp_secondary_lock();
  b->large = hp_secondary_live_chunks();
  b->large_bytes = hp_secondary_mapped_bytes();
  b->large_max = hp_secondary_max_chunks();
  b->large_bytes_max = hp_secondary_max_mapped_bytes();
  hp_secondary_unlock();
}

u64 hp_allocator_trim(void) {
  hp_thread_t *t = hp_thread_acquire();
  hp_primary_flush(t->caches, &t->stats);
  u64 pages = hp_primary_trim(&t->stats);
  hp_thread_release(t);
  hp_syscalls_charge_outside(); /* its madvise calls are nobody's call */
  return pages;
}

/* ---------------------------------------------------------- chunk walk */

typedef struct walk {
  hp_chunk_fn fn;
  void *arg;
} walk_t;

static void walk_block(uptr block, u32 size, void *arg) {
  walk_t *w = arg;
  uptr user_beg = hp_block_user_beg(block, size);
  hp_chunk_header_t *h = hp_chunk_header(user_beg);
  if (h->state == HP_CHUNK_ALLOCATED)
    w->fn(h, user_beg, h->requested_size, w->arg);
}

static void walk_large(hp_large_t *l, void *arg) {
  walk_t *w = arg;
  hp_chunk_header_t *h = hp_chunk_header(l->user_beg);
  if (h->state == HP_CHUNK_ALLOCATED)
    w->fn(h, l->user_beg, l->requested_size, w->arg);
}

void hp_for_each_live_chunk(hp_chunk_fn fn, void *arg) {
  walk_t w = {fn, arg};
  hp_primary_for_each_block(walk_block, &w);
  hp_secondary_lock();
  hp_secondary_for_each(walk_large, &w);
  hp_secondary_unlock();
  hp_foreign_for_each_live(fn, arg); /* allocator=system|PATH */
}

void hp_for_each_live_nonprimary_held(hp_chunk_fn fn, void *arg) {
  walk_t w = {fn, arg};
  hp_secondary_for_each(walk_large, &w);
  hp_foreign_for_each_live(fn, arg);
}

/* Whether this dump's folds move the baselines: not in the last profile,
 * which no dump follows (no 16 TiB reserved, no baseline written at
 * exit).  Under the dump lock. */
static bool fold_moves;
void hp_fold_begin(bool last) {
  fold_moves = !last;
  if (fold_moves)
    hp_shadow_baseline_init();
  __atomic_store_n(&folding_tid, (int)syscall(SYS_gettid), __ATOMIC_RELAXED);
}

/* Folds a live chunk into a dump: as if freed now, then marked REPORTED with
 * its timestamp restarted and its counters' baselines (heapprof_shadow.h)
 * set to what they hold, so the next dump or the free adds only what
 * happens after this one. */
bool hp_fold_live_chunk(hp_chunk_header_t *h, uptr user_beg, uptr size,
                        u32 now_ms, u32 now_cpu, hp_chunk_event_t *e) {
  __atomic_store_n(&folding, h, __ATOMIC_SEQ_CST); /* wait_for_fold */
  u32 w = __atomic_load_n(word0(h), __ATOMIC_ACQUIRE);
  for (;;) {
    if ((w & 0xff) != HP_CHUNK_ALLOCATED) {
      __atomic_store_n(&folding, NULL, __ATOMIC_RELEASE);
      return false; /* freed meanwhile: its free reports it */
    }
    u32 nw = w | (u32)(HP_CHUNK_REPORTED | (fold_moves ? 0 : HP_CHUNK_LAST))
                     << 24;
    if (__atomic_compare_exchange_n(word0(h), &w, nw, false, __ATOMIC_ACQ_REL,
                                    __ATOMIC_ACQUIRE))
      break;
  }
  hp_shadow_scan_t s;
  if (fold_moves) {
    hp_shadow_fold(user_beg, size, &s);
  } else {
    hp_shadow_scan_folded(user_beg, size, &s);
    /* Another allocator packs objects: the first and last granule may be a
     * live neighbour's too.  A checkpoint's fold moves their baselines, so
     * the neighbour read next finds nothing new there; the last profile
     * moves none, and both neighbours counted the granule (100 live
     * 16-byte objects on glibc, 16 stores each: 3168 accesses).  Clearing
     * the edges counts it once, for the object read first, as the
     * checkpoints and the frees do; no dump follows to miss them. */
    if (hp_foreign_state == HP_FOREIGN_ON) {
      uptr end = user_beg + (size ? size : 1);
      uptr first = HP_ROUND_DOWN(user_beg, HP_GRANULE_SIZE);
      uptr last = HP_ROUND_DOWN(end - 1, HP_GRANULE_SIZE);
      hp_shadow_clear(first, first + HP_GRANULE_SIZE);
      if (last != first)
        hp_shadow_clear(last, last + HP_GRANULE_SIZE);
    }
  }
  /* The next piece of its life starts where this one ends: read from the
   * coarse clock as hp_end_ms (at least the true time), so that the pieces
   * over a series of checkpoints add up to one lifetime (restarting at
   * now_ms added up to res_ms, 4 ms, per checkpoint: 100 checkpoints made
   * 116 ms lives 556 ms). */
  u32 end = hp_end_ms(now_ms);
  chunk_event_of(e, h, w, size, &s, end, now_cpu);
  e->live = true;
  h->timestamp_ms = end;
  h->cpu_id = now_cpu;
  __atomic_store_n(&folding, NULL, __ATOMIC_RELEASE);
  return true;
}
