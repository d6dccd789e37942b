/*===- heapprof_stack.c - frame-pointer unwinding -----------------------===
 *
 * Part of heapprof.  The walks never read outside [fp, stack_top) of the
 * current thread's stack.  hp_unwind_fp follows frame pointers only, so a
 * frame without one (libc) ends it instead of faulting; hp_unwind steps
 * over such frames with their CFI (heapprof_cfi.c).
 *===----------------------------------------------------------------------===*/
#include "heapprof_internal.h"

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

/* One step of either walk: keeps pc unless it folds as a repeat; false
 * when the walk must stop (max frames kept, or HP_MAX_WALK walked). */
static HP_ALWAYS_INLINE bool take_frame(uptr *pcs, u32 *n, u32 max,
                                        fold_t *ring, u32 *walked, uptr pc,
                                        bool fold) {
  bool repeat = fold && fold_repeat(ring, *walked, pc);
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
    if (!take_frame(pcs, &n, max, &ring, &walked, ret - 1, fold))
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
 * thread in the middle of an update sees the old entry or none. */
#define CFI_CACHE_BITS 10
static HP_TLS struct {
  uptr tag[1u << CFI_CACHE_BITS];
  u64 recipe[1u << CFI_CACHE_BITS];
} cfi_cache;

static HP_NOINLINE u64 cfi_miss(uptr pc, u32 i) {
  u64 r = hp_cfi_compute(pc);
  cfi_cache.tag[i] = 0;
  __atomic_signal_fence(__ATOMIC_SEQ_CST);
  cfi_cache.recipe[i] = r;
  __atomic_signal_fence(__ATOMIC_SEQ_CST);
  cfi_cache.tag[i] = pc;
  return r;
}

static HP_ALWAYS_INLINE u64 cfi_lookup(uptr pc) {
  u32 i = (u32)((pc * 0x9E3779B97F4A7C15ull) >> (64 - CFI_CACHE_BITS));
  if (HP_LIKELY(cfi_cache.tag[i] == pc)) {
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    return cfi_cache.recipe[i];
  }
  return cfi_miss(pc, i);
}

u64 hp_cfi_recipe(uptr pc) { return cfi_lookup(pc); }

/* The walk with CFI recipes.  A frame's state is its return address ra
 * (into the caller), the caller's rsp after the return (sp) and its rbp
 * (bp).  The caller's own step is computed before ra is kept: ra is kept
 * only when the caller's frame (its CFA) lies inside the stack, the rule
 * the frame-pointer walk has too, so a thread's wrapper frame at stack_top
 * is never recorded.  A walk that reaches the outermost frame (_start, a
 * thread's clone) drops the trailing frames in libc: the main thread's
 * __libc_start_main and its helper, as the frame-pointer walk never had
 * them. */
/* What a walk read from the stack, in order (see the stack-id cache
 * below); NULL when nobody records. */
#define SC_READS 62
typedef struct walk_rec {
  u32 n;          /* reads; more than SC_READS: too long to record */
  bool uncached;  /* the result depends on more than the reads */
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

static HP_ALWAYS_INLINE void rec_put(walk_rec_t *rec, uptr addr, uptr v) {
  if (rec->n < SC_READS) {
    rec->addr[rec->n] = addr;
    rec->val[rec->n] = v;
  }
  rec->n++;
}

static HP_ALWAYS_INLINE uptr rd(walk_rec_t *rec, walk_tail_t *trk,
                                uptr addr) {
  uptr v = *(const uptr *)addr;
  if (rec)
    rec_put(rec, addr, v);
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
                                       u32 walked, walk_rec_t *rec) {
  if (__atomic_load_n(&tail_state, __ATOMIC_ACQUIRE) != 2 || ra != tail.ra ||
      sp != tail.sp || bp != tail.bp || stack_top != tail.top ||
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

/* One step from the frame (ra, bp, sp) to its caller's.  STEP_ON: next
 * holds the caller's state, and how the step went for the walk memo
 * below: its reads were the caller's return address at next->sp - 8 and,
 * with STEP_READS_BP, its rbp at next->sp + next->off; STEP_TAIL, the
 * recorded tail was asked first.  STEP_STOP ends the walk here; STEP_END
 * ends it at the outermost frame (or the recorded tail). */
enum { STEP_STOP, STEP_END, STEP_ON };
#define STEP_TAIL 1
#define STEP_READS_BP 2
#define STEP_FP 4 /* the frame-pointer step (either way to it) */
typedef struct step_next {
  uptr ra, bp, sp;
  int16_t off;
  u8 fl;
} step_next_t;

static HP_ALWAYS_INLINE int step(uptr ra, uptr bp, uptr sp, uptr stack_top,
                                 u32 n, u32 max, u32 walked, walk_rec_t *rec,
                                 walk_tail_t *trk, step_next_t *next) {
  if (ra < 4096)
    return STEP_STOP;
  u64 r = cfi_lookup(ra - 1);
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
  if (HP_LIKELY(r == HP_CFI_FRAME_POINTER)) {
    /* The common case, a function with a frame pointer: written as the
     * frame-pointer step so the CPU need not wait for the recipe. */
    if (!frame_ok(bp, sp - 2 * sizeof(uptr), stack_top))
      return STEP_STOP;
    next->ra = rd(rec, trk, bp + sizeof(uptr));
    next->bp = rd(rec, trk, bp);
    next->sp = bp + 2 * sizeof(uptr);
    next->off = -2 * (int16_t)sizeof(uptr);
    next->fl = STEP_FP | STEP_READS_BP;
    return STEP_ON;
  }
  if (!trk && tail_here(ra, bp, sp, stack_top, n, max, walked, rec))
    return STEP_END;
  if (kind == HP_CFI_STEP) {
    uptr cfa = ((r & HP_CFI_CFA_RBP) ? bp : sp) + (uptr)(u32)(r >> 32);
    if (cfa < sp + sizeof(uptr) || cfa > stack_top || (cfa & 7))
      return STEP_STOP;
    next->ra = rd(rec, trk, cfa - sizeof(uptr));
    next->sp = cfa;
    next->off = 0;
    next->fl = STEP_TAIL;
    u32 rule = (u32)(r >> 3) & 3;
    if (rule == 0) {
      next->bp = bp;
    } else if (rule == 1) {
      int16_t off = (int16_t)(u16)(r >> 16);
      uptr at = cfa + (uptr)(s64)off;
      if (at < sp || at + sizeof(uptr) > stack_top)
        return STEP_STOP;
      next->bp = rd(rec, trk, at);
      next->off = off;
      next->fl = STEP_TAIL | STEP_READS_BP;
    } else {
      next->bp = 0;
    }
    return STEP_ON;
  }
  if (kind == HP_CFI_END)
    return STEP_END;
  /* The frame-pointer step, with the checks of hp_unwind_fp: the caller's
   * frame (bp) inside the stack, above this one. */
  if (!frame_ok(bp, sp - 2 * sizeof(uptr), stack_top))
    return STEP_STOP;
  next->ra = rd(rec, trk, bp + sizeof(uptr));
  next->bp = rd(rec, trk, bp);
  next->sp = bp + 2 * sizeof(uptr);
  next->off = -2 * (int16_t)sizeof(uptr);
  next->fl = STEP_TAIL | STEP_FP | STEP_READS_BP;
  return STEP_ON;
}

/* The end of a walk that kept n PCs. */
static HP_ALWAYS_INLINE u32 walk_end(uptr *pcs, u32 n, bool reached_end,
                                     walk_rec_t *rec, walk_tail_t *trk) {
  if (reached_end) {
    uptr lo = hp_cfi_libc_lo,
         hi = __atomic_load_n(&hp_cfi_libc_hi, __ATOMIC_ACQUIRE);
    if (rec && !hi) /* libc not located yet: a later walk may trim more */
      rec->uncached = true;
    if (trk && trk->active && trk->k && trk->n <= TAIL_READS && hi)
      tail_publish(trk);
    while (n > 0 && pcs[n - 1] >= lo && pcs[n - 1] < hi)
      n--;
  }
  return n;
}

/* The walk from the frame (ra, bp, sp) on, n PCs kept so far out of
 * walked frames (the last HP_FOLD_WINDOW of them in ring). */
static HP_ALWAYS_INLINE u32 walk_on(uptr *pcs, u32 max, uptr ra, uptr bp,
                                    uptr sp, uptr stack_top, bool fold,
                                    fold_t *ring, u32 n, u32 walked,
                                    walk_rec_t *rec, walk_tail_t *trk) {
  bool reached_end = false;
  for (;;) {
    step_next_t next;
    int st = step(ra, bp, sp, stack_top, n, max, walked, rec, trk, &next);
    if (st != STEP_ON) {
      reached_end = st == STEP_END;
      break;
    }
    if (!take_frame(pcs, &n, max, ring, &walked, ra - 1, fold))
      break;
    if (trk && trk->active)
      trk->k++;
    ra = next.ra;
    bp = next.bp;
    sp = next.sp;
  }
  return walk_end(pcs, n, reached_end, rec, trk);
}

static HP_ALWAYS_INLINE u32 walk(uptr *pcs, u32 max, uptr fp, uptr stack_top,
                                 bool fold, walk_rec_t *rec,
                                 walk_tail_t *trk) {
  fold_t ring;
  if (!max || !frame_ok(fp, 0, stack_top))
    return 0;
  if (fold)
    fold_init(&ring);
  uptr ra = rd(rec, NULL, fp + sizeof(uptr)), bp = rd(rec, NULL, fp);
  return walk_on(pcs, max, ra, bp, fp + 2 * sizeof(uptr), stack_top, fold,
                 &ring, 0, 0, rec, trk);
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
  return rec ? walk(pcs, max, fp, stack_top, fold, rec, &trk)
             : walk(pcs, max, fp, stack_top, fold, NULL, &trk);
}

u32 hp_unwind(uptr *pcs, u32 max, uptr fp, uptr stack_top, bool fold) {
  if (HP_UNLIKELY(!__atomic_load_n(&tail_state, __ATOMIC_RELAXED)))
    return walk_tracked(pcs, max, fp, stack_top, fold, NULL);
  return walk(pcs, max, fp, stack_top, fold, NULL, NULL);
}

/* ------------------------------------------------------ the walk memo
 *
 * Consecutive allocations of a thread share the upper part of their
 * stacks: in recursion (binary trees) each walks ~9 frames, of which ~7
 * the allocation before walked too.  The memo keeps the thread's previous
 * walk, frame by frame: its state (ra, bp, sp), how its step went (where
 * the caller's rbp was read, whether the tail was asked) and how far back
 * the previous walked frame with the same return address was (1-8;
 * MEMO_FAR: not within the folding window).  A walk walks as usual until
 * it arrives at a frame of the memo in the same state (the same sp, rbp
 * and return address: the junction).  From there it would take the memo's
 * steps again if the words they read are unchanged, so each step is
 * checked instead of taken: the caller's return address, and its rbp where
 * the step read it, are loaded and compared with the memo's next frame
 * (no recipe, no bounds: the addresses are the ones the walk read in this
 * state).  A frame in the same place (sp, rbp) with another return address
 * joins too when both its step and the memo's are the frame-pointer step
 * (the new return address's recipe is looked up): they read the same
 * words, so the frames above are the memo's again if those are unchanged.
 * That is the recursion's case: a sibling, or a child, calls from the same
 * frame through the other call site.  What the walk keeps of the frames
 * is decided with this walk's counts, as the walk would:
 *  - folding: a frame repeats if its return address is among the 8 walked
 *    before.  Above the memo's first unchanged frame jf, a frame d < 8
 *    above jf whose memo distance is at most d repeats one of the same
 *    frames as before; otherwise the walk's own frames below jf within the
 *    window are compared.  8 frames above jf the window lies above it and
 *    the memo's distance is the answer.
 *  - max and HP_MAX_WALK stop the replay where they stop the walk.
 *  - the tail is asked again wherever the walk asked it (it depends on the
 *    counts).
 * A word that differs otherwise ends the replay: the walk goes on from
 * that frame as before the junction, looking for another one above; at
 * the memo's last frame it goes on recording.  So the PCs kept, the
 * folding and where the walk stops are the plain walk's (tests/
 * stack_test.c compares the two on constructed stacks and a real one).
 *
 * Frames are kept in slots [lo, hi] of m (slot hi: the frame where the
 * walk, or its record, stopped; its state only), top-anchored: a walk
 * records its frames below the junction in s and copies them under the
 * junction's slot, so a walk one frame deeper than the last moves nothing
 * but its own new frames.  At most MEMO_SLOTS + 1 frames are recorded; a
 * longer walk goes on with the plain walk's loop.  One memo per thread,
 * used only by a walk with the memo's stack_top and fold; a signal
 * handler that allocates while its thread is inside a walk finds busy set
 * and walks plainly, leaving the memo alone. */
#define MEMO_SLOTS 64
#define MEMO_FAR (HP_FOLD_WINDOW + 1)
_Static_assert(MEMO_SLOTS + 1 < HP_MAX_WALK,
               "HP_MAX_WALK is met only past the memo (in the plain loop)");
typedef struct memo_frame {
  uptr ra, bp, sp;
  int16_t off; /* the step read rbp at the next frame's sp + off */
  u8 fl;       /* STEP_* */
  u8 dist;     /* 1..8, or MEMO_FAR */
} memo_frame_t;
_Static_assert(sizeof(memo_frame_t) == 32, "memo frame: 32 bytes");
static HP_TLS struct {
  bool busy;  /* a walk of this thread is using the memo */
  bool fold;
  u32 lo, hi;
  uptr top;   /* stack_top of the walk recorded; 0: none */
  memo_frame_t m[MEMO_SLOTS + 1], s[MEMO_SLOTS + 1];
} memo;

/* How far back from slot i the nearest slot in [lo, from) within the
 * folding window holds return address x; MEMO_FAR if none. */
static HP_ALWAYS_INLINE u32 memo_dist(const memo_frame_t *f, u32 lo, u32 from,
                                      u32 i, uptr x) {
  u32 lim = i - lo > HP_FOLD_WINDOW ? i - HP_FOLD_WINDOW : lo;
  for (u32 j = from; j > lim; j--)
    if (f[j - 1].ra == x)
      return i - j + 1;
  return MEMO_FAR;
}

static HP_ALWAYS_INLINE void memo_copy(memo_frame_t *to,
                                       const memo_frame_t *from, u32 count) {
  for (u32 x = 0; x < count; x++)
    to[x] = from[x];
}

/* Frame f, in the place of a memo frame whose step was the frame-pointer
 * step, now returns to ra: does its step read the same words? */
static HP_ALWAYS_INLINE bool memo_rejoin(memo_frame_t *f, uptr ra) {
  if (!(f->fl & STEP_FP) || cfi_lookup(ra - 1) != HP_CFI_FRAME_POINTER)
    return false;
  f->ra = ra;
  f->fl = STEP_FP | STEP_READS_BP;
  f->off = -2 * (int16_t)sizeof(uptr);
  return true;
}

/* The replay from the junction: memo slots [*at, hi) are checked and
 * walked as described above, this walk having kept *n PCs; the memo
 * frames at and above jf are as they were.  Returns why it stopped, at
 * slot *at. */
enum { REPLAY_AT_HI, REPLAY_CHANGED, REPLAY_STOP, REPLAY_END };
static HP_NOINLINE int memo_replay(u32 *at, u32 hi, u32 base, u32 jf,
                                   uptr *pcs, u32 *np, u32 max, bool fold,
                                   uptr stack_top, walk_rec_t *rec) {
  memo_frame_t *m = memo.m, *f = m + *at, *end = m + hi;
  u32 n = *np;
  int why = REPLAY_AT_HI;
  /* rel: how far f is above jf (negative: below it). */
  for (s64 rel = (s64)*at - jf; f < end; f++, rel++) {
    uptr nsp = f[1].sp;
    u8 fl = f->fl;
    if (HP_LIKELY(fl == (STEP_FP | STEP_READS_BP) && !rec &&
                  *(const uptr *)(nsp - sizeof(uptr)) == f[1].ra &&
                  *(const uptr *)(nsp - 2 * sizeof(uptr)) == f[1].bp)) {
      /* The frame-pointer step, its words unchanged. */
    } else {
      u32 s = (u32)(f - m);
      if ((fl & STEP_TAIL) && tail_here(f->ra, f->bp, f->sp, stack_top, n,
                                        max, s - base, rec)) {
        why = REPLAY_END;
        break;
      }
      uptr v = *(const uptr *)(nsp - sizeof(uptr)), w = f[1].bp;
      uptr rbp_at = nsp + (uptr)(s64)f->off;
      if (fl & STEP_READS_BP) {
        w = *(const uptr *)rbp_at;
        if (w != f[1].bp) {
          why = REPLAY_CHANGED;
          break;
        }
      }
      if (v != f[1].ra) {
        if (s + 1 == hi || !memo_rejoin(f + 1, v)) {
          why = REPLAY_CHANGED;
          break;
        }
        jf = s + 2;
        rel = -2;
      }
      if (rec) {
        rec_put(rec, nsp - sizeof(uptr), v);
        if (fl & STEP_READS_BP)
          rec_put(rec, rbp_at, w);
      }
    }
    u32 d = f->dist;
    if (HP_UNLIKELY(rel < HP_FOLD_WINDOW) && fold && (rel < 0 || d > rel)) {
      u32 s = (u32)(f - m);
      d = memo_dist(m, base, rel < 0 ? s : jf, s, f->ra);
      f->dist = (u8)d;
    }
    if (d > HP_FOLD_WINDOW) {
      pcs[n++] = f->ra - 1;
      if (n >= max) {
        why = REPLAY_STOP;
        break;
      }
    }
  }
  *at = (u32)(f - m);
  *np = n;
  return why;
}

static HP_ALWAYS_INLINE u32 walk_memo(uptr *pcs, u32 max, uptr fp,
                                      uptr stack_top, bool fold,
                                      walk_rec_t *rec) {
  if (!max || !frame_ok(fp, 0, stack_top))
    return 0;
  memo_frame_t *m = memo.m, *b = memo.s;
  /* The current frame is slot i of b; this walk's first is slot base
   * (frames walked: i - base; never HP_MAX_WALK in the memo).  k: the
   * memo slot the junction is looked for at, up to hi. */
  u32 n = 0, i = 0, base = 0, k = 0, hi = 0;
  bool search = memo.top == stack_top && memo.fold == fold;
  bool reached_end = false;
  if (search) {
    k = memo.lo;
    hi = memo.hi;
  }
  uptr ra = rd(rec, NULL, fp + sizeof(uptr)), bp = rd(rec, NULL, fp),
       sp = fp + 2 * sizeof(uptr);
  for (;;) {
    b[i].ra = ra;
    b[i].bp = bp;
    b[i].sp = sp;
    if (search) {
      while (k <= hi && m[k].sp < sp)
        k++;
      u32 jf = k;
      if (k > hi) {
        search = false;
      } else if (m[k].sp == sp && m[k].bp == bp && k >= i &&
                 (m[k].ra == ra ||
                  (jf = k + 1, k < hi && memo_rejoin(&m[k], ra)))) {
        /* The junction: this walk's frames so far go under slot k. */
        base = k - i;
        memo_copy(m + base, b, i);
        b = m;
        u32 s = k;
        int why = memo_replay(&s, hi, base, jf, pcs, &n, max, fold,
                              stack_top, rec);
        i = s;
        if (why == REPLAY_STOP || why == REPLAY_END) {
          reached_end = why == REPLAY_END;
          goto done;
        }
        ra = m[s].ra;
        bp = m[s].bp;
        sp = m[s].sp;
        if (why == REPLAY_CHANGED) {
          /* A word changed above frame s: the walk goes on from s as
           * before the junction, looking for another one above. */
          memo_copy(memo.s, m + base, s - base + 1);
          b = memo.s;
          i = s - base;
          base = 0;
          k = s + 1;
        } else {
          search = false; /* the memo's last frame: walk on, recording */
        }
        continue;
      }
    }
    step_next_t next;
    int st = step(ra, bp, sp, stack_top, n, max, i - base, rec, NULL, &next);
    if (st != STEP_ON) {
      reached_end = st == STEP_END;
      break;
    }
    u32 d = fold ? memo_dist(b, base, i, i, ra) : MEMO_FAR;
    b[i].off = next.off;
    b[i].fl = next.fl;
    b[i].dist = (u8)d;
    if (d > HP_FOLD_WINDOW) {
      pcs[n++] = ra - 1;
      if (n >= max)
        break;
    }
    ra = next.ra;
    bp = next.bp;
    sp = next.sp;
    if (HP_UNLIKELY(++i > MEMO_SLOTS))
      goto plain;
  }
done:
  if (b == memo.s) { /* no junction: the record goes to the top */
    memo_copy(m + MEMO_SLOTS - i, b, i + 1);
    memo.lo = MEMO_SLOTS - i;
    memo.hi = MEMO_SLOTS;
  } else {
    memo.lo = base;
    memo.hi = i;
  }
  memo.top = stack_top;
  memo.fold = fold;
  return walk_end(pcs, n, reached_end, rec, NULL);

plain: {
  /* Too deep to record further (the frame after slot MEMO_SLOTS): the
   * plain walk's loop goes on, with the last frames walked in its folding
   * ring. */
  fold_t ring;
  if (b == memo.s) {
    memo_copy(m, b, MEMO_SLOTS + 1);
    memo.lo = 0;
  } else {
    memo.lo = base;
  }
  memo.hi = MEMO_SLOTS;
  memo.top = stack_top;
  memo.fold = fold;
  if (fold) {
    fold_init(&ring);
    for (u32 j = i - base > HP_FOLD_WINDOW ? i - HP_FOLD_WINDOW : base; j < i;
         j++)
      ring.s[(j - base) % HP_FOLD_WINDOW] = b[j].ra - 1;
  }
  return walk_on(pcs, max, ra, bp, sp, stack_top, fold, &ring, n, i - base,
                 rec, NULL);
}
}

/* The walk through the memo, or plainly when a walk this handler
 * interrupted is using it. */
static HP_ALWAYS_INLINE u32 unwind_memo(uptr *pcs, u32 max, uptr fp,
                                        uptr stack_top, bool fold,
                                        walk_rec_t *rec) {
  if (HP_UNLIKELY(memo.busy))
    return walk(pcs, max, fp, stack_top, fold, rec, NULL);
  memo.busy = true;
  __atomic_signal_fence(__ATOMIC_SEQ_CST);
  u32 n = walk_memo(pcs, max, fp, stack_top, fold, rec);
  __atomic_signal_fence(__ATOMIC_SEQ_CST);
  memo.busy = false;
  return n;
}

u32 hp_unwind_memo(uptr *pcs, u32 max, uptr fp, uptr stack_top, bool fold) {
  return unwind_memo(pcs, max, fp, stack_top, fold, NULL);
}

/* hp_unwind, through the memo once the tail is known. */
static HP_NOINLINE u32 unwind_fast(uptr *pcs, u32 max, uptr fp,
                                   uptr stack_top, bool fold) {
  if (HP_UNLIKELY(!__atomic_load_n(&tail_state, __ATOMIC_RELAXED)))
    return walk_tracked(pcs, max, fp, stack_top, fold, NULL);
  return unwind_memo(pcs, max, fp, stack_top, fold, NULL);
}

static HP_NOINLINE u32 walk_recorded(uptr *pcs, u32 max, uptr fp,
                                     uptr stack_top, bool fold,
                                     walk_rec_t *rec) {
  if (HP_UNLIKELY(!__atomic_load_n(&tail_state, __ATOMIC_RELAXED)))
    return walk_tracked(pcs, max, fp, stack_top, fold, rec);
  return unwind_memo(pcs, max, fp, stack_top, fold, rec);
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
 * nothing is guessed, every word is compared.
 *
 *   sc_table[hash(fp, return address)] --> | seq | fp | top | max,fold |
 *                                          | id | n | (addr, value) x n |
 *
 * One global table (threads' stacks are disjoint, so their entries never
 * match each other's), direct-mapped, a seqlock per entry: seq is odd
 * while a writer (who got it with a CAS, so a signal handler that
 * allocates in the middle of an update does not write too) fills the
 * entry; a reader that sees it odd or changed treats the entry as a miss.
 * A reader never dereferences a recorded address outside [fp, stack_top)
 * of its own stack (a torn entry can hold anything), where every word a
 * walk reads lies.  A slot whose entry keeps failing its comparison
 * (binary trees: the same fp and return address on a different path each
 * time) is left alone for a while, so such programs pay little
 * more than the comparison of the first words. */
#define SC_BITS 11
typedef struct sc_entry {
  u32 seq;
  u16 n;
  u8 fails, rest;
  u32 id, limits;
  uptr fp, top;
  u32 off[SC_READS]; /* address - fp */
  uptr val[SC_READS];
} sc_entry_t;
static sc_entry_t *sc_table;

void hp_stack_cache_init(void) {
  if (!sc_table)
    sc_table = hp_mmap_noreserve(sizeof(sc_entry_t) << SC_BITS,
                                 "stack id cache");
}

#define LD(p) __atomic_load_n(p, __ATOMIC_RELAXED)
#define ST(p, v) __atomic_store_n(p, v, __ATOMIC_RELAXED)

/* The id of e's walk if e recorded a walk from fp that this stack would
 * repeat; 0 otherwise. */
static HP_ALWAYS_INLINE u32 sc_lookup(sc_entry_t *e, uptr fp, uptr top,
                                      u32 limits) {
  u32 s1 = __atomic_load_n(&e->seq, __ATOMIC_ACQUIRE);
  if ((s1 & 1) || LD(&e->fp) != fp || LD(&e->top) != top ||
      LD(&e->limits) != limits)
    return 0;
  u32 n = LD(&e->n);
  if (!n || n > SC_READS)
    return 0;
  uptr span = top - sizeof(uptr) - fp; /* fp + 16 <= top: no wrap */
  for (u32 k = 0; k < n; k++) {
    u32 off = LD(&e->off[k]);
    if (off > span || *(const uptr *)(fp + off) != LD(&e->val[k]))
      return 0;
  }
  u32 id = LD(&e->id);
  __atomic_thread_fence(__ATOMIC_ACQUIRE);
  return LD(&e->seq) == s1 ? id : 0;
}

static HP_NOINLINE void sc_fill(sc_entry_t *e, uptr fp, uptr top, u32 limits,
                                u32 id, const walk_rec_t *rec) {
  u32 s = LD(&e->seq);
  if ((s & 1) || !__atomic_compare_exchange_n(&e->seq, &s, s + 1, false,
                                              __ATOMIC_ACQUIRE,
                                              __ATOMIC_RELAXED))
    return;
  __atomic_thread_fence(__ATOMIC_RELEASE);
  ST(&e->fp, fp);
  ST(&e->top, top);
  ST(&e->limits, limits);
  ST(&e->id, id);
  ST(&e->n, (u16)rec->n);
  for (u32 k = 0; k < rec->n; k++) {
    ST(&e->off[k], (u32)(rec->addr[k] - fp));
    ST(&e->val[k], rec->val[k]);
  }
  __atomic_store_n(&e->seq, s + 2, __ATOMIC_RELEASE);
}

u32 hp_stack_id(uptr fp, uptr stack_top, u32 max, bool fold) {
  uptr pcs[HP_MAX_STACK_DEPTH];
  if (max > HP_MAX_STACK_DEPTH)
    max = HP_MAX_STACK_DEPTH;
  if (!sc_table || !max || !frame_ok(fp, 0, stack_top))
    return hp_stackdepot_put(pcs, unwind_fast(pcs, max, fp, stack_top, fold));
  u32 limits = max | (u32)fold << 8;
  uptr ra = ((const uptr *)fp)[1];
  sc_entry_t *e = &sc_table[((fp >> 4) ^ ra) * 0x9E3779B97F4A7C15ull >>
                            (64 - SC_BITS)];
  /* A slot that failed 3 times in a row rests for 255 calls: not even
   * compared. */
  u8 fails = LD(&e->fails);
  if (HP_UNLIKELY(fails >= 3)) {
    u8 rest = LD(&e->rest) + 1;
    ST(&e->rest, rest);
    if (rest < 255)
      return hp_stackdepot_put(pcs, unwind_fast(pcs, max, fp, stack_top, fold));
    ST(&e->rest, 0);
    fails = 0;
  }
  u32 id = sc_lookup(e, fp, stack_top, limits);
  if (HP_LIKELY(id)) {
    if (HP_UNLIKELY(fails))
      ST(&e->fails, 0);
    return id;
  }
  ST(&e->fails, fails + 1);
  walk_rec_t rec;
  rec.n = 0;
  rec.uncached = false;
  u32 n = walk_recorded(pcs, max, fp, stack_top, fold, &rec);
  id = hp_stackdepot_put(pcs, n);
  /* Stack offsets fit 32 bits (stacks are far smaller than 4 GiB). */
  if (!rec.uncached && rec.n && rec.n <= SC_READS &&
      stack_top - fp < (1ull << 32))
    sc_fill(e, fp, stack_top, limits, id, &rec);
  return id;
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
