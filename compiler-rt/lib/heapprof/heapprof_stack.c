/*===- heapprof_stack.c - frame-pointer unwinding -----------------------===
 *
 * Part of heapprof.  The walks never read outside [fp, stack_top) of the
 * current thread's stack.  hp_unwind_fp follows frame pointers only, so a
 * frame without one (libc) ends it instead of faulting; hp_unwind steps
 * over such frames with their CFI (heapprof_cfi.c), and on another stack
 * than the thread's own (below its stack_lo, or above its top) reads only
 * where the CFI says.
 *===----------------------------------------------------------------------===*/
#include "heapprof_internal.h"

#include <ucontext.h>

static HP_ALWAYS_INLINE bool frame_ok(uptr f, uptr below, uptr top) {
  return f > below && !(f & 7) && f + 2 * sizeof(uptr) <= top;
}

/* The folding rule: is pc among the last HP_FOLD_WINDOW PCs of the walk?
 * ring holds them (walked counts them; pc is added).  All 8 are compared
 * at once, two per SSE2 compare, without a branch: comparing one by one
 * with an early exit was about half of a deep walk's instructions.  The
 * ring starts as zeros, which no PC is (a PC is a return address - 1, and
 * return addresses below 4096 end the walk). */
typedef u64 hp_v2u64 __attribute__((vector_size(16)));
typedef union fold {
  hp_v2u64 v[HP_FOLD_WINDOW / 2];
  uptr s[HP_FOLD_WINDOW];
} fold_t;

static HP_ALWAYS_INLINE void fold_init(fold_t *f) {
  for (u32 i = 0; i < HP_FOLD_WINDOW / 2; i++)
    f->v[i] = (hp_v2u64){0, 0};
}

static HP_ALWAYS_INLINE bool fold_repeat(fold_t *f, u32 walked, uptr pc) {
  hp_v2u64 p = {pc, pc};
  hp_v2u64 m = (f->v[0] == p) | (f->v[1] == p) | (f->v[2] == p) |
               (f->v[3] == p);
  f->s[walked % HP_FOLD_WINDOW] = pc;
  return (m[0] | m[1]) != 0;
}

/* The folding table: where each PC was last walked, so that most frames
 * are judged by one comparison instead of eight.  Positions count the
 * frames of all the thread's walks (a walk's frame t is at base + t, the
 * next walk's base HP_FOLD_WINDOW + 1 past its last frame, so no walk sees
 * another's frames in its window); a slot, indexed by a hash of the PC,
 * holds the PC and position of the last frame stored there, and every
 * frame a table walk takes is stored.  So a slot holding pc has pc's last
 * position: a repeat iff it is within the window.  A slot holding another
 * PC holds one stored after pc's last position: if that was 8 or more
 * frames back, pc's is further back, outside the window, not a repeat;
 * otherwise pc may have been pushed out by a PC of the window, and the
 * ring decides (binary trees: 5 % of frames, their few return addresses
 * rarely share a slot).  Per thread, written only by its own table walks
 * (busy set around each): a walk in a signal handler that interrupted one
 * finds busy set and folds with the ring alone, leaving the table alone.
 * In the thread's state (hp_stack_thread_t.fold); valid zero-initialised:
 * no frame's PC is 0. */
static HP_ALWAYS_INLINE bool fold_repeat_tab(hp_stack_thread_t *w,
                                             fold_t *ring, u32 walked,
                                             uptr pc, u64 pos) {
  u32 h = (u32)((pc * 0x9E3779B97F4A7C15ull) >> (64 - HP_FOLD_TAB_BITS));
  uptr last = w->fold.pc[h];
  u64 dist = pos - w->fold.at[h];
  w->fold.pc[h] = pc;
  w->fold.at[h] = pos;
  if (HP_LIKELY(last == pc || dist >= HP_FOLD_WINDOW)) {
    ring->s[walked % HP_FOLD_WINDOW] = pc;
    return last == pc && dist <= HP_FOLD_WINDOW;
  }
  return fold_repeat(ring, walked, pc);
}

/* One step of either walk: keeps pc unless it folds as a repeat; false
 * when the walk must stop (max frames kept, or HP_MAX_WALK walked).  With
 * tab, folds through w's folding table, this walk's frames at base on. */
static HP_ALWAYS_INLINE bool take_frame(uptr *pcs, u32 *n, u32 max,
                                        fold_t *ring, u32 *walked, uptr pc,
                                        bool fold, hp_stack_thread_t *w,
                                        bool tab, u64 base) {
  bool repeat = fold && (tab ? fold_repeat_tab(w, ring, *walked, pc,
                                               base + *walked)
                             : fold_repeat(ring, *walked, pc));
  ++*walked;
  if (!repeat) {
    pcs[(*n)++] = pc;
    if (*n >= max)
      return false;
  }
  return *walked < HP_MAX_WALK;
}

/* Frame at fp: fp[0] = caller's frame pointer, fp[1] = return address into
 * the caller.  The return address of a frame is kept only when the caller's
 * own frame lies inside the stack too; so the walk stops below the thread's
 * top (a wrapper frame placed there, or libc's start-up code) instead of
 * recording a PC in it. */
u32 hp_unwind_fp(uptr *pcs, u32 max, uptr fp, uptr stack_top, bool fold) {
  u32 n = 0, walked = 0;
  fold_t ring; /* the last frames walked, for folding */
  if (!max || !frame_ok(fp, 0, stack_top))
    return 0;
  if (fold)
    fold_init(&ring);
  for (;;) {
    const uptr *frame = (const uptr *)fp;
    uptr ret = frame[1];
    if (ret < 4096)
      break;
    if (!take_frame(pcs, &n, max, &ring, &walked, ret - 1, fold, NULL,
                    false, 0))
      break;
    uptr next = frame[0];
    if (!frame_ok(next, fp, stack_top) ||
        !frame_ok(((const uptr *)next)[0], next, stack_top))
      break;
    fp = next;
  }
  return n;
}

/* The recipe cache: per thread, direct-mapped on the return address.  An
 * entry is written tag last, so a signal handler that allocates on this
 * thread in the middle of an update sees the old entry or none.
 *
 * Two levels, both found through the thread's state (hp_stack_thread_t;
 * a walk without one computes every recipe).  The first, HP_CFI_CACHE_BITS
 * entries, is in the state itself.  A big program's allocations return
 * through more addresses than it holds (cc1plus: a tenth of a compile's
 * time went to recomputing recipes), so its misses go to a second level
 * of CFI_L2_BITS entries (256 KiB, resident as written: random slots
 * touch every page soon), mapped for the thread once it computed
 * CFI_L2_AFTER recipes, a first level's worth, and unmapped at its exit.
 * A thread that seldom misses, as in a pool of many, never pays for one.
 * Before that, or when the mapping fails, misses are computed. */
#define CFI_L2_BITS 14
#define CFI_L2_AFTER (1u << HP_CFI_CACHE_BITS)
typedef struct hp_cfi_l2 {
  uptr tag;
  u64 recipe;
} cfi_l2_t;
#define CFI_L2_BYTES (sizeof(cfi_l2_t) << CFI_L2_BITS)

/* The calling thread's caches of the walks, or NULL when it has no state. */
static HP_ALWAYS_INLINE hp_stack_thread_t *my_walks(void) {
  hp_thread_t *t = hp_thread_own();
  return t ? &t->walks : NULL;
}

static cfi_l2_t *cfi_l2(hp_stack_thread_t *w) {
  cfi_l2_t *l2 = __atomic_load_n(&w->cfi.l2, __ATOMIC_RELAXED);
  if (l2)
    return l2;
  if (++w->cfi.misses < CFI_L2_AFTER)
    return NULL;
  cfi_l2_t *fresh = hp_mmap(CFI_L2_BYTES);
  if (!fresh)
    return NULL; /* tried again at the next miss */
  /* A signal handler that missed meanwhile may have installed its own. */
  if (!__atomic_compare_exchange_n(&w->cfi.l2, &l2, fresh, false,
                                   __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
    hp_munmap(fresh, CFI_L2_BYTES);
    return l2;
  }
  return fresh;
}

bool hp_stack_cfi_l2_mapped(void) {
  hp_stack_thread_t *w = my_walks();
  return w && __atomic_load_n(&w->cfi.l2, __ATOMIC_RELAXED);
}

u64 hp_stack_cache_fills(void) {
  hp_stack_thread_t *w = my_walks();
  return w ? w->cache_fills : 0;
}

/* Called once hp_tls_thread no longer leads to w: no walk of this thread
 * reaches it any more. */
void hp_stack_thread_exit(hp_stack_thread_t *w) {
  cfi_l2_t *l2 = __atomic_exchange_n(&w->cfi.l2, NULL, __ATOMIC_RELAXED);
  if (l2)
    hp_munmap(l2, CFI_L2_BYTES);
  w->cfi.misses = 0;
  w->fold.busy = false;
}

static HP_NOINLINE u64 cfi_miss(hp_stack_thread_t *w, uptr pc, u32 i) {
  if (!w)
    return hp_cfi_compute(pc);
  cfi_l2_t *l2 = cfi_l2(w), *e = NULL;
  u64 r;
  if (l2) {
    e = &l2[(u32)((pc * 0x9E3779B97F4A7C15ull) >> (64 - CFI_L2_BITS))];
    if (e->tag == pc) {
      __atomic_signal_fence(__ATOMIC_SEQ_CST);
      r = e->recipe;
      goto fill;
    }
  }
  r = hp_cfi_compute(pc);
  if (e) {
    e->tag = 0;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    e->recipe = r;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    e->tag = pc;
  }
fill:
  w->cfi.tag[i] = 0;
  __atomic_signal_fence(__ATOMIC_SEQ_CST);
  w->cfi.recipe[i] = r;
  __atomic_signal_fence(__ATOMIC_SEQ_CST);
  w->cfi.tag[i] = pc;
  return r;
}

/* w may be NULL (no state): every recipe is computed. */
static HP_ALWAYS_INLINE u64 cfi_lookup(hp_stack_thread_t *w, uptr pc) {
  u32 i = (u32)((pc * 0x9E3779B97F4A7C15ull) >> (64 - HP_CFI_CACHE_BITS));
  if (HP_LIKELY(w && w->cfi.tag[i] == pc)) {
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    return w->cfi.recipe[i];
  }
  return cfi_miss(w, pc, i);
}

u64 hp_cfi_recipe(uptr pc) { return cfi_lookup(my_walks(), pc); }

/* Where the interrupted registers are in the ucontext_t a signal frame
 * holds (the kernel's struct sigcontext, glibc's gregs). */
#define UC_RBP offsetof(ucontext_t, uc_mcontext.gregs[REG_RBP])
#define UC_RSP offsetof(ucontext_t, uc_mcontext.gregs[REG_RSP])
#define UC_RIP offsetof(ucontext_t, uc_mcontext.gregs[REG_RIP])
_Static_assert(UC_RBP == 120 && UC_RSP == 160 && UC_RIP == 168,
               "the x86-64 kernel's signal frame layout");

/* The walk with CFI recipes.  A frame's state is its return address ra
 * (into the caller), the caller's rsp after the return (sp) and its rbp
 * (bp).  The caller's own step is computed before ra is kept: ra is kept
 * only when the caller's frame (its CFA) lies inside the stack, the rule
 * the frame-pointer walk has too, so a thread's wrapper frame at stack_top
 * is never recorded.  A walk that reaches the outermost frame (_start, a
 * thread's clone) drops libc's start-up frames: the one the end called
 * (__libc_start_main, start_thread) and on the main thread
 * __libc_start_call_main, as the frame-pointer walk never had them.  Not
 * every trailing frame in libc: a pthread key destructor that runs after
 * heapprof's own tore the thread's state down is walked to the thread's
 * clone, and was left without its caller __nptl_deallocate_tsd. */
uptr hp_stack_call_main_pc;
/* What a walk read from the stack, in order (see the stack-id cache
 * below); NULL when nobody records. */
#define SC_READS 62
typedef struct walk_rec {
  u32 n;          /* reads; more than SC_READS: too long to record */
  bool uncached;  /* the result depends on more than the reads */
  u64 unused;     /* bit k: read k was a saved rbp the walk never used */
  uptr addr[SC_READS], val[SC_READS];
} walk_rec_t;

/* The main thread's outermost frames (__libc_start_call_main,
 * __libc_start_main, then _start's END) are the same for every walk from
 * main and are dropped at its end, yet stepping through them by CFI cost
 * as much as several frames of the program.  The first walk that reaches
 * the end records that tail: the state (ra, rbp, rsp) of its first libc
 * frame, the words stepping through it read, and how many frames it took.
 * A later walk in that exact state, whose words are still the same, and
 * with room for those frames under max and HP_MAX_WALK, would take the
 * same libc frames and reach the end, where they are dropped: it stops
 * there as if it had.  Written once (state 0 -> 1 by CAS -> 2 ready). */
#define TAIL_READS 8
typedef struct walk_tail {
  bool active;
  u32 k, n;
  uptr ra, bp, sp, top;
  uptr addr[TAIL_READS], val[TAIL_READS];
} walk_tail_t;
static walk_tail_t tail;
static u32 tail_state; /* 0 unknown, 1 being written, 2 ready, 3 given up */
static u32 tail_tries;

static HP_ALWAYS_INLINE uptr rd(walk_rec_t *rec, walk_tail_t *trk,
                                uptr addr) {
  uptr v = *(const uptr *)addr;
  if (rec) {
    if (rec->n < SC_READS) {
      rec->addr[rec->n] = addr;
      rec->val[rec->n] = v;
    }
    rec->n++;
  }
  if (trk && trk->active) {
    if (trk->n < TAIL_READS) {
      trk->addr[trk->n] = addr;
      trk->val[trk->n] = v;
    }
    trk->n++;
  }
  return v;
}

/* Does the recorded tail start at this state, with its words unchanged
 * and room for its frames?  Its reads go to rec like the walk's own. */
static HP_ALWAYS_INLINE bool tail_here(uptr ra, uptr bp, uptr sp,
                                       uptr stack_top, u32 n, u32 max,
                                       u32 walked, walk_rec_t *rec,
                                       bool *cmp_bp) {
  if (__atomic_load_n(&tail_state, __ATOMIC_ACQUIRE) != 2 || ra != tail.ra ||
      sp != tail.sp)
    return false;
  *cmp_bp = true;
  if (bp != tail.bp || stack_top != tail.top ||
      n + tail.k >= max ||
      walked + tail.k >= HP_MAX_WALK)
    return false;
  for (u32 i = 0; i < tail.n; i++) {
    uptr a = tail.addr[i];
    if (a < sp || a + sizeof(uptr) > stack_top ||
        *(const uptr *)a != tail.val[i])
      return false;
  }
  for (u32 i = 0; i < tail.n; i++)
    rd(rec, NULL, tail.addr[i]);
  return true;
}

static HP_NOINLINE void tail_publish(const walk_tail_t *trk) {
  u32 s = 0;
  if (!__atomic_compare_exchange_n(&tail_state, &s, 1, false,
                                   __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
    return;
  tail = *trk;
  __atomic_store_n(&tail_state, 2, __ATOMIC_RELEASE);
}

/* w: the thread's caches (NULL: none; then not tab).  foreign: fp is on
 * another stack than the thread's own (then not trk). */
static HP_ALWAYS_INLINE u32 walk(uptr *pcs, u32 max, uptr fp, uptr stack_top,
                                 bool fold, walk_rec_t *rec,
                                 walk_tail_t *trk, hp_stack_thread_t *w,
                                 bool tab, bool foreign) {
  u32 n = 0, walked = 0;
  fold_t ring;
  if (!max || !frame_ok(fp, 0, stack_top))
    return 0;
  if (fold)
    fold_init(&ring);
  u64 base = tab ? w->fold.next : 0;
  uptr ra = rd(rec, NULL, fp + sizeof(uptr)), bp = rd(rec, NULL, fp),
       sp = fp + 2 * sizeof(uptr);
  /* Which read the current rbp came from (bp_read, 64: none) and which
   * saved rbps no step has used yet (unused): code without frame pointers
   * keeps data in rbp, so a saved rbp differs from call to call on the
   * same path, and a walk that only carries it up to the next frame that
   * restores rbp again does not depend on it (see the cache below). */
  u64 unused = 0;
  u32 bp_read = 64;
#define BP_FROM_READ()                                                       \
  do {                                                                       \
    if (rec && rec->n - 1 < 64) {                                            \
      next_bp_read = rec->n - 1;                                             \
      unused |= 1ull << next_bp_read;                                        \
    }                                                                        \
  } while (0)
#define BP_USED()                                                            \
  do {                                                                       \
    if (rec && bp_read < 64)                                                 \
      unused &= ~(1ull << bp_read);                                          \
  } while (0)
  if (rec && rec->n - 1 < 64) {
    bp_read = rec->n - 1;
    unused |= 1ull << bp_read;
  }
  bool reached_end = false, via_tail = false;
  for (;;) {
    if (ra < 4096)
      break;
    u64 r = cfi_lookup(w, ra - 1);
    u64 kind = r & HP_CFI_KIND_MASK;
    if (trk && kind != HP_CFI_END) {
      /* Recording the tail: a run of frames in libc up to the end. */
      uptr pc = ra - 1, lo = hp_cfi_libc_lo,
           hi = __atomic_load_n(&hp_cfi_libc_hi, __ATOMIC_ACQUIRE);
      if (!(pc >= lo && pc < hi)) {
        trk->active = false;
      } else if (!trk->active) {
        trk->active = true;
        trk->k = trk->n = 0;
        trk->ra = ra;
        trk->bp = bp;
        trk->sp = sp;
        trk->top = stack_top;
      }
    }
    uptr next_ra, next_bp, next_sp;
    u32 next_bp_read = 64;
    bool tail_bp = false; /* tail_here compared bp */
    if (HP_LIKELY(r == HP_CFI_FRAME_POINTER)) {
      /* The common case, a function with a frame pointer: written as the
       * frame-pointer step so the CPU need not wait for the recipe. */
      BP_USED();
      if (!frame_ok(bp, sp - 2 * sizeof(uptr), stack_top))
        break;
      next_ra = rd(rec, trk, bp + sizeof(uptr));
      next_bp = rd(rec, trk, bp);
      BP_FROM_READ();
      next_sp = bp + 2 * sizeof(uptr);
    } else if (!trk && tail_here(ra, bp, sp, stack_top, n, max, walked, rec,
                                 &tail_bp)) {
      BP_USED();
      reached_end = via_tail = true;
      break;
    } else if (kind == HP_CFI_STEP) {
      if (tail_bp)
        BP_USED();
      if (r & HP_CFI_CFA_RBP)
        BP_USED();
      uptr cfa = ((r & HP_CFI_CFA_RBP) ? bp : sp) + (uptr)(u32)(r >> 32);
      if (cfa < sp + sizeof(uptr) || cfa > stack_top || (cfa & 7))
        break;
      next_ra = rd(rec, trk, cfa - sizeof(uptr));
      next_sp = cfa;
      u32 rule = (u32)(r >> 3) & 3;
      if (rule == 0) {
        next_bp = bp;
        next_bp_read = bp_read;
      } else if (rule == 1) {
        uptr at = cfa + (uptr)(s64)(int16_t)(u16)(r >> 16);
        if (at < sp || at + sizeof(uptr) > stack_top)
          break;
        next_bp = rd(rec, trk, at);
        BP_FROM_READ();
      } else {
        next_bp = 0;
      }
    } else if (kind == HP_CFI_END) {
      if (tail_bp)
        BP_USED();
      reached_end = true;
      break;
    } else if (r == HP_CFI_SIGNAL) {
      if (tail_bp)
        BP_USED();
      /* A handler's frame returns into the signal trampoline with rsp at
       * the ucontext_t the kernel filled: the caller is the interrupted
       * code, at its rsp, rbp and rip.  rip is where the signal landed,
       * not a return address, so ra is rip + 1: the frame's PC and its
       * recipe are rip's own.  Before, the frame-pointer step here took
       * the interrupted rbp as a frame: it lost the interrupted function
       * (raise's caller), and on a sigaltstack below the stack it read
       * whatever rbp held in the gap between (SIGSEGV). */
      if (sp + UC_RIP + sizeof(uptr) > stack_top)
        break;
      next_bp = rd(rec, trk, sp + UC_RBP);
      next_sp = rd(rec, trk, sp + UC_RSP);
      next_ra = rd(rec, trk, sp + UC_RIP) + 1;
      if (next_sp <= sp || next_sp > stack_top)
        break;
    } else {
      /* The frame-pointer step, with the checks of hp_unwind_fp: the
       * caller's frame (bp) inside the stack, above this one.  Not from
       * another stack than the thread's own (a coroutine's): all of
       * [sp, stack_top) is mapped only on that one, and bp may hold
       * anything (code without CFI may use rbp as it likes: an address in
       * the unmapped gap between the two stacks was SIGSEGV in malloc).
       * A coroutine makecontext started ends here too: its first frame
       * returns to the very start of __start_context, whose return
       * address - 1 has no CFI, and the rbp getcontext saved (a frame of
       * the code that made the coroutine) was taken for its caller. */
      BP_USED();
      if (foreign || !frame_ok(bp, sp - 2 * sizeof(uptr), stack_top))
        break;
      next_ra = rd(rec, trk, bp + sizeof(uptr));
      next_bp = rd(rec, trk, bp);
      BP_FROM_READ();
      next_sp = bp + 2 * sizeof(uptr);
    }
    if (!take_frame(pcs, &n, max, &ring, &walked, ra - 1, fold, w, tab,
                    base))
      break;
    if (trk && trk->active)
      trk->k++;
    ra = next_ra;
    bp = next_bp;
    bp_read = next_bp_read;
    sp = next_sp;
  }
#undef BP_FROM_READ
#undef BP_USED
  if (rec)
    rec->unused = unused;
  if (tab)
    w->fold.next = base + walked + HP_FOLD_WINDOW;
  if (reached_end) {
    uptr lo = hp_cfi_libc_lo,
         hi = __atomic_load_n(&hp_cfi_libc_hi, __ATOMIC_ACQUIRE);
    if (rec && !hi) /* libc not located yet: a later walk may trim more */
      rec->uncached = true;
    /* The start-up frames (above); a walk that stopped at the recorded
     * tail has none of them, the tail being just those frames. */
    u32 drop = 0;
    if (!via_tail && n > 0 && pcs[n - 1] >= lo && pcs[n - 1] < hi) {
      drop = 1;
      if (n > 1 && pcs[n - 2] == hp_stack_call_main_pc)
        drop = 2;
    }
    /* A tail is the run of libc frames up to the end: usable only when
     * the walk drops all of it. */
    if (trk && trk->active && trk->k && trk->k == drop &&
        trk->n <= TAIL_READS && hi)
      tail_publish(trk);
    n -= drop;
  }
  return n;
}

/* Walks recording the tail, until one is found (or 4096 walks did not
 * find one: a program whose main thread never allocates). */
static HP_NOINLINE u32 walk_tracked(uptr *pcs, u32 max, uptr fp,
                                    uptr stack_top, bool fold,
                                    walk_rec_t *rec) {
  walk_tail_t trk;
  trk.active = false;
  if (__atomic_add_fetch(&tail_tries, 1, __ATOMIC_RELAXED) >= 4096) {
    u32 s = 0;
    __atomic_compare_exchange_n(&tail_state, &s, 3, false, __ATOMIC_RELAXED,
                                __ATOMIC_RELAXED);
  }
  hp_stack_thread_t *w = my_walks();
  return rec ? walk(pcs, max, fp, stack_top, fold, rec, &trk, w, false, false)
             : walk(pcs, max, fp, stack_top, fold, NULL, &trk, w, false,
                    false);
}

/* The walk, folding through the thread's folding table unless it has
 * none or a walk this signal handler interrupted is using it. */
static HP_ALWAYS_INLINE u32 walk_fast(uptr *pcs, u32 max, uptr fp,
                                      uptr stack_top, bool fold,
                                      walk_rec_t *rec, bool foreign) {
  hp_stack_thread_t *w = my_walks();
  if (!fold || !w || w->fold.busy)
    return walk(pcs, max, fp, stack_top, fold, rec, NULL, w, false, foreign);
  w->fold.busy = true;
  __atomic_signal_fence(__ATOMIC_SEQ_CST);
  u32 n = walk(pcs, max, fp, stack_top, true, rec, NULL, w, true, foreign);
  __atomic_signal_fence(__ATOMIC_SEQ_CST);
  w->fold.busy = false;
  return n;
}

/* A walk from a frame on another stack than the thread's own: below its
 * stack_lo, bounded by its top all the same (a signal frame may lead back
 * to the thread's stack, walked then by CFI alone too); above its top,
 * with no known bound.  Out of line, so the common walk stays as it was
 * (carrying stack_lo through its loop cost bt 12 3 % more instructions). */
static HP_NOINLINE u32 walk_foreign(uptr *pcs, u32 max, uptr fp,
                                    uptr stack_top, bool fold) {
  if (fp >= stack_top)
    stack_top = ~(uptr)0 - 2 * sizeof(uptr) + 1;
  return walk_fast(pcs, max, fp, stack_top, fold, NULL, true);
}

/* From a frame on the thread's own stack. */
static HP_NOINLINE u32 walk_own(uptr *pcs, u32 max, uptr fp, uptr stack_top,
                                bool fold) {
  if (HP_UNLIKELY(!__atomic_load_n(&tail_state, __ATOMIC_RELAXED)))
    return walk_tracked(pcs, max, fp, stack_top, fold, NULL);
  return walk_fast(pcs, max, fp, stack_top, fold, NULL, false);
}

u32 hp_unwind(uptr *pcs, u32 max, uptr fp, uptr stack_lo, uptr stack_top,
              bool fold) {
  if (HP_UNLIKELY(fp < stack_lo || fp >= stack_top))
    return walk_foreign(pcs, max, fp, stack_top, fold);
  return walk_own(pcs, max, fp, stack_top, fold);
}

/* On the thread's own stack. */
static HP_NOINLINE u32 walk_recorded(uptr *pcs, u32 max, uptr fp,
                                     uptr stack_top, bool fold,
                                     walk_rec_t *rec) {
  if (HP_UNLIKELY(!__atomic_load_n(&tail_state, __ATOMIC_RELAXED)))
    return walk_tracked(pcs, max, fp, stack_top, fold, rec);
  return walk_fast(pcs, max, fp, stack_top, fold, rec, false);
}

/* ------------------------------------------------- the stack-id cache
 *
 * A walk is a function of the words it reads from the stack (the entry
 * frame's saved rbp and return address, then each caller's), of fp and
 * stack_top, of max and fold, and of the CFI recipes of the return
 * addresses read, which depend on the code alone.  So when every word a
 * previous walk from the same fp read is still the same, this walk would
 * read the same words, take the same steps and keep the same PCs: the
 * previous stack id is the answer, without the walk, the folding or the
 * depot.  mprof reused what it knew of the caller chain the same way; here
 * nothing is guessed, every word the walk depended on is compared.  A
 * saved rbp that no later step used (walk_rec_t.unused: code without frame
 * pointers keeps data in rbp, different on every call down one path) is
 * not: the walk would have taken the same steps whatever it held.
 *
 *   sc_table[hash(fp, return address)] --> | fails | rest | mru | deep |
 *                                          | way 0 | way 1 |
 *   way: | seq | n, pairs | id | max,fold | fp | top |
 *        | off x n | (low, high word) x n |
 *
 * The words are kept as 16-byte windows, compared two at a time: a frame
 * step reads a frame's return address and then its saved rbp, the two
 * words of one window, so a walk of f frames is about f + 1 windows, in
 * walk order.  A read with no neighbour read (a CFI step through a
 * function without a frame pointer, the main thread's tail) gets the
 * window that ends with it, after all the pairs, and only its high word
 * is compared.
 *
 * Two ways per set, the one hit or filled last tried first: an
 * interpreter allocates through one wrapper (Lua's l_alloc) from one
 * place in its loop, so paths that differ only a frame or two above the
 * entry frame share fp and return address, and alternate; with one way
 * they evicted each other (docs/performance.md, "Speed round 4: stack
 * capture on Lua").
 *
 * A set is chosen by fp and the entry frame's return address.  When a
 * program allocates everything through one wrapper called from many
 * places (cfrac's palloc), every path at one depth has that pair, and a
 * set with three or more paths in turn fails every time.  Such a set
 * (three failures in a row) is marked deep: from then on the walks with
 * its (fp, ra) use the set of a hash of fp and the first SC_DEEP_FRAMES
 * return addresses up the frame chain, and only a deep set that keeps
 * failing rests.
 *
 * One global table (threads' stacks are disjoint, so their entries never
 * match each other's), a seqlock per way: seq is odd while a writer (who
 * got it with a CAS, so a signal handler that allocates in the middle of
 * an update does not write too) fills the way; a reader that sees it odd
 * or changed treats the way as a miss.  A reader never dereferences a
 * recorded window outside [fp, stack_top) of its own stack (a torn way
 * can hold anything), where every word a walk reads lies.  fails, rest
 * and mru are hints, written without the seqlock: a torn value costs
 * a walk, never a wrong id.  A set whose ways keep failing their
 * comparison (binary trees: the same fp and return address on a
 * different path each time) is left alone for a while, so such programs
 * pay little more than the comparison of the first words. */
#define SC_BITS 10
#define SC_WAYS 2
#define SC_DEEP_FRAMES 6 /* return addresses a deep set is chosen by */
/* A way's windows: at most SC_READS are used; a reader masks the counts to
 * SC_WINDOWS - 1, so that a torn count stays inside the way's arrays. */
#define SC_WINDOWS 64
_Static_assert(SC_READS <= SC_WINDOWS && !(SC_WINDOWS & (SC_WINDOWS - 1)),
               "a way's counts are masked");
typedef struct sc_way {
  u32 seq;
  u16 n, pairs; /* windows; the first pairs hold two reads (at least 2,
                 * window 0 at fp), the rest one */
  u32 id, limits;
  uptr fp, top;
  hp_v2u64 mask0;    /* window 0's words compared: the saved rbp's or not */
  u32 off[SC_WINDOWS]; /* window's address - fp */
  hp_v2u64 val[SC_WINDOWS];
} sc_way_t;
typedef struct sc_set {
  union {
    struct {
      u8 fails, rest, mru; /* mru: the way hit or filled last */
      u8 deep;             /* this (fp, ra)'s walks use sc_set_deep's set */
    };
    u32 hints; /* the four, read at once (little-endian) */
  };
  sc_way_t way[SC_WAYS];
} sc_set_t;
#define SC_HINT_MRU_SHIFT 16
static sc_set_t *sc_table;

void hp_stack_cache_init(void) {
  if (!sc_table)
    sc_table = hp_mmap_noreserve(sizeof(sc_set_t) << SC_BITS,
                                 "stack id cache");
}

#define LD(p) __atomic_load_n(p, __ATOMIC_RELAXED)
#define ST(p, v) __atomic_store_n(p, v, __ATOMIC_RELAXED)

/* The way's windows are read without atomics (16 bytes at once): the
 * seqlock's second read of seq rejects whatever a writer changed
 * meanwhile.  A window lies inside the stack iff its offset is at most
 * span. */
typedef u64 hp_v2u64_u __attribute__((vector_size(16), aligned(8)));
static HP_ALWAYS_INLINE hp_v2u64 sc_pair(const sc_way_t *e, u32 k, uptr fp,
                                         u32 off) {
  return *(const hp_v2u64_u *)(fp + off) ^ e->val[k];
}

/* The id of e's walk if e recorded a walk from fp that this stack would
 * repeat; 0 otherwise.  Window 0 is always the entry frame's own (fp and
 * fp + 8: inside the stack); paths that part near the entry frame differ
 * in the first two windows, checked before the rest. */
static HP_ALWAYS_INLINE u32 sc_lookup(const sc_way_t *e, uptr fp, uptr top,
                                      u32 limits) {
  u32 s1 = __atomic_load_n(&e->seq, __ATOMIC_ACQUIRE);
  if ((s1 & 1) || LD(&e->fp) != fp || LD(&e->top) != top ||
      LD(&e->limits) != limits)
    return 0;
  u32 n = LD(&e->n) & (SC_WINDOWS - 1),
      pairs = LD(&e->pairs) & (SC_WINDOWS - 1);
  uptr span = top - 2 * sizeof(uptr) - fp; /* fp + 16 <= top: no wrap */
  hp_v2u64 acc = (*(const hp_v2u64_u *)fp ^ e->val[0]) & e->mask0;
  u32 k = 1;
  if (pairs > 1) {
    u32 o1 = LD(&e->off[1]);
    if (o1 > span)
      return 0;
    acc |= sc_pair(e, 1, fp, o1);
    k = 2;
  }
  if (acc[0] | acc[1])
    return 0;
#pragma clang loop unroll_count(2)
  for (; k < pairs; k++) {
    u32 off = LD(&e->off[k]);
    if (off > span)
      return 0;
    acc |= sc_pair(e, k, fp, off);
  }
  uptr d = acc[0] | acc[1];
  for (k = pairs; k < n; k++) {
    u32 off = LD(&e->off[k]);
    if (off > span)
      return 0;
    d |= *(const uptr *)(fp + off + sizeof(uptr)) ^ e->val[k][1];
  }
  if (d)
    return 0;
  u32 id = LD(&e->id);
  __atomic_thread_fence(__ATOMIC_ACQUIRE);
  if (HP_UNLIKELY(LD(&e->seq) != s1))
    return 0;
  return id;
}

/* Writes rec's reads into e as windows (see above): window 0 the entry
 * frame's (its return address, then its saved rbp unless the walk never
 * used it: mask0), the other pairs in the walk's order, then the reads
 * without a neighbour; a saved rbp no step used is left out.  The counts
 * go to *pairs and *n.  False if a single read is too close to fp. */
static bool sc_windows(sc_way_t *e, const walk_rec_t *rec, uptr fp,
                       u32 *pairs, u32 *n) {
  u32 w = 0, ns = 0;
  u8 single[SC_READS]; /* rec indices */
  if (rec->n < 2 || rec->addr[0] != fp + sizeof(uptr) || rec->addr[1] != fp)
    return false;
  bool bp0 = !(rec->unused & 2);
  ST(&e->off[w], 0);
  e->val[w++] = (hp_v2u64){bp0 ? rec->val[1] : 0, rec->val[0]};
  e->mask0 = (hp_v2u64){bp0 ? ~0ull : 0, ~0ull};
  u32 m = 0;
  u8 kept[SC_READS]; /* rec indices of the other reads compared */
  for (u32 k = 2; k < rec->n; k++)
    if (!(rec->unused >> k & 1)) /* rec->n <= SC_READS < 64 */
      kept[m++] = (u8)k;
  for (u32 i = 0; i < m;) {
    u32 k = kept[i], k2 = i + 1 < m ? kept[i + 1] : 0;
    uptr a = rec->addr[k];
    if (k2 && rec->addr[k2] + sizeof(uptr) == a) {
      ST(&e->off[w], (u32)(a - sizeof(uptr) - fp));
      e->val[w++] = (hp_v2u64){rec->val[k2], rec->val[k]};
      i += 2;
    } else if (k2 && rec->addr[k2] == a + sizeof(uptr)) {
      ST(&e->off[w], (u32)(a - fp));
      e->val[w++] = (hp_v2u64){rec->val[k], rec->val[k2]};
      i += 2;
    } else {
      if (a < fp + sizeof(uptr))
        return false;
      single[ns++] = (u8)k;
      i++;
    }
  }
  *pairs = w;
  for (u32 i = 0; i < ns; i++) {
    u32 k = single[i];
    ST(&e->off[w], (u32)(rec->addr[k] - sizeof(uptr) - fp));
    e->val[w++] = (hp_v2u64){0, rec->val[k]};
  }
  *n = w;
  return true;
}

/* Fills e from rec, in place under its seqlock; a walk that does not fit
 * (its first reads not the entry frame's own) leaves e matching nothing
 * (fp 0: no entry frame is at 0). */
static HP_NOINLINE void sc_fill(sc_way_t *e, uptr fp, uptr top, u32 limits,
                                u32 id, const walk_rec_t *rec) {
  hp_stack_thread_t *w = my_walks();
  if (w)
    w->cache_fills++;
  u32 s = LD(&e->seq);
  if ((s & 1) || !__atomic_compare_exchange_n(&e->seq, &s, s + 1, false,
                                              __ATOMIC_ACQUIRE,
                                              __ATOMIC_RELAXED))
    return;
  __atomic_thread_fence(__ATOMIC_RELEASE);
  u32 pairs = 0, n = 0;
  bool ok = sc_windows(e, rec, fp, &pairs, &n);
  ST(&e->fp, ok ? fp : 0);
  ST(&e->top, top);
  ST(&e->limits, limits);
  ST(&e->id, id);
  ST(&e->n, (u16)(ok ? n : 0));
  ST(&e->pairs, (u16)(ok ? pairs : 0));
  __atomic_store_n(&e->seq, s + 2, __ATOMIC_RELEASE);
}

static HP_ALWAYS_INLINE sc_set_t *sc_set(uptr fp) {
  uptr ra = ((const uptr *)fp)[1];
  return &sc_table[((fp >> 4) ^ ra) * 0x9E3779B97F4A7C15ull >>
                   (64 - SC_BITS)];
}

/* The deep set: fp and the first SC_DEEP_FRAMES return addresses, read
 * along the frame chain while it stays inside the stack.  Only a frame on
 * the thread's own stack comes here (hp_stack_id sends any other to
 * foreign_put), where every word from fp to the top is mapped: a saved rbp
 * that is no frame (the interrupted code's, past a signal handler's
 * frame) only spoils the hint.  The words are hints only: a hit still
 * compares every window. */
static HP_ALWAYS_INLINE sc_set_t *sc_set_deep(uptr fp, uptr top) {
  const uptr *f = (const uptr *)fp;
  uptr lim = top - 2 * sizeof(uptr); /* fp <= lim: the callers checked */
  uptr at = fp, up = f[0], h = (fp >> 4) ^ f[1];
#pragma clang loop unroll(full)
  for (u32 k = 0; k < SC_DEEP_FRAMES - 1; k++) {
    if (up - at - 1 >= lim - at) /* not at < up <= lim */
      break;
    const uptr *u = (const uptr *)up;
    h = (h ^ u[1]) * 0xC2B2AE3D27D4EB4Full;
    at = up;
    up = u[0];
  }
  return &sc_table[h * 0x9E3779B97F4A7C15ull >> (64 - SC_BITS)];
}

/* What hp_stack_id does not answer inline (a hit in the way used last of
 * a set without failures, a resting set's walk): the other way, then the
 * walk, which replaces the other way.  tried: hp_stack_id compared the way
 * used last already. */
static HP_NOINLINE u32 sc_slow(uptr fp, uptr stack_top, u32 max, bool fold,
                               sc_set_t *set, bool tried) {
  uptr pcs[HP_MAX_STACK_DEPTH];
  if (max > HP_MAX_STACK_DEPTH)
    max = HP_MAX_STACK_DEPTH;
  if (!sc_table || !max || !frame_ok(fp, 0, stack_top))
    return hp_stackdepot_put(pcs, walk_own(pcs, max, fp, stack_top, fold));
  u32 limits = max | (u32)fold << 8;
  if (!set) {
    set = sc_set(fp);
    if (LD(&set->deep))
      set = sc_set_deep(fp, stack_top);
  }
  u8 fails = LD(&set->fails);
  u32 w = (LD(&set->mru) & 1) ^ 1; /* the other way */
  u32 id = tried ? 0 : sc_lookup(&set->way[w ^ 1], fp, stack_top, limits);
  if (!id) {
    id = sc_lookup(&set->way[w], fp, stack_top, limits);
    if (id)
      ST(&set->mru, (u8)w);
  }
  if (id) {
    if (fails)
      ST(&set->fails, 0);
    return id;
  }
  ST(&set->fails, fails + 1);
  walk_rec_t rec;
  rec.n = 0;
  rec.uncached = false;
  u32 n = walk_recorded(pcs, max, fp, stack_top, fold, &rec);
  id = hp_stackdepot_put(pcs, n);
  /* Stack offsets fit 32 bits (stacks are far smaller than 4 GiB). */
  if (!rec.uncached && rec.n && rec.n <= SC_READS &&
      stack_top - fp < (1ull << 32)) {
    sc_fill(&set->way[w], fp, stack_top, limits, id, &rec);
    ST(&set->mru, (u8)w);
  }
  return id;
}

/* A walk from a frame on the thread's own stack and its id, out of line:
 * its 2 KiB of PCs would otherwise be in hp_stack_id's frame, on every
 * allocation's stack below sc_slow's own (a thread on a small stack has
 * little to spare). */
static HP_NOINLINE u32 walk_put(uptr fp, uptr stack_top, u32 max,
                                bool fold) {
  uptr pcs[HP_MAX_STACK_DEPTH];
  return hp_stackdepot_put(pcs, walk_own(pcs, max, fp, stack_top, fold));
}

/* The same from a frame on another stack than the thread's own: every
 * word from fp to stack_top is readable only on that one, so neither the
 * cache's windows nor the deep set's chain are read. */
static HP_NOINLINE u32 foreign_put(uptr fp, uptr stack_top, u32 max,
                                   bool fold) {
  uptr pcs[HP_MAX_STACK_DEPTH];
  if (max > HP_MAX_STACK_DEPTH)
    max = HP_MAX_STACK_DEPTH;
  return hp_stackdepot_put(pcs, walk_foreign(pcs, max, fp, stack_top, fold));
}

/* The hit in the way used last, inline and with nothing live but the
 * arguments: a deep stack's comparison then runs without spills.  A
 * resting set's walk is here too, binary trees' common case.  The set's
 * four hints are read in one load. */
u32 hp_stack_id(uptr fp, uptr stack_lo, uptr stack_top, u32 max,
                bool fold) {
  if (HP_LIKELY(sc_table && max - 1 < HP_MAX_STACK_DEPTH &&
                fp >= stack_lo && frame_ok(fp, 0, stack_top))) {
    sc_set_t *set = sc_set(fp);
    u32 limits = max | (u32)fold << 8;
    u32 hints = LD(&set->hints);
    bool deep = hints >> 24;
    if (HP_UNLIKELY(deep)) {
      set = sc_set_deep(fp, stack_top);
      hints = LD(&set->hints);
    }
    u8 fails = (u8)hints;
    if (HP_LIKELY(!fails)) {
      u32 id = sc_lookup(&set->way[(hints >> SC_HINT_MRU_SHIFT) & 1], fp,
                         stack_top, limits);
      if (HP_LIKELY(id))
        return id;
      return sc_slow(fp, stack_top, max, fold, set, true);
    }
    /* A set that failed 3 times in a row goes deep; a deep set that did
     * rests for 255 calls: not even compared. */
    if (fails >= 3 && !deep) {
      ST(&set->deep, 1);
      ST(&set->fails, 0);
      set = sc_set_deep(fp, stack_top);
    } else if (fails >= 3) {
      u8 rest = (u8)(hints >> 8) + 1;
      ST(&set->rest, rest);
      if (rest < 255)
        return walk_put(fp, stack_top, max, fold);
      ST(&set->rest, 0);
      ST(&set->fails, 0);
    }
    return sc_slow(fp, stack_top, max, fold, set, false);
  }
  if (fp < stack_lo || fp >= stack_top)
    return foreign_put(fp, stack_top, max, fold);
  return sc_slow(fp, stack_top, max, fold, NULL, false);
}

u32 hp_fold_recursion(uptr *pcs, u32 n) {
  /* Judged against the original walk (not the kept frames), so the result
   * depends only on the stack. */
  fold_t ring;
  fold_init(&ring);
  u32 k = 0;
  for (u32 i = 0; i < n; i++)
    if (!fold_repeat(&ring, i, pcs[i]))
      pcs[k++] = pcs[i];
  return k;
}

void hp_stack_write_section(hp_buf_t *b, const struct hp_profile_info *info) {
  (void)info;
  u64 w[2] = {(u64)hp_flags.malloc_context_size, hp_flags.fold_recursion};
  hp_buf_append(b, w, sizeof(w));
}
