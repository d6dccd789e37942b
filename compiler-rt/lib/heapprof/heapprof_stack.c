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
 * ring holds them, walked counts them; pc is added. Nearest first: in
 * recursive code the repeat is usually one or two frames back. */
static HP_ALWAYS_INLINE bool fold_repeat(uptr *ring, u32 walked, uptr pc) {
  u32 w = walked < HP_FOLD_WINDOW ? walked : HP_FOLD_WINDOW;
  bool repeat = false;
  for (u32 j = 1; j <= w && !repeat; j++)
    repeat = ring[(walked - j) % HP_FOLD_WINDOW] == pc;
  ring[walked % HP_FOLD_WINDOW] = pc;
  return repeat;
}

/* One step of either walk: keeps pc unless it folds as a repeat; false
 * when the walk must stop (max frames kept, or HP_MAX_WALK walked). */
static HP_ALWAYS_INLINE bool take_frame(uptr *pcs, u32 *n, u32 max,
                                        uptr *ring, u32 *walked, uptr pc,
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
  uptr ring[HP_FOLD_WINDOW]; /* the last frames walked, for folding */
  if (!max || !frame_ok(fp, 0, stack_top))
    return 0;
  for (;;) {
    const uptr *frame = (const uptr *)fp;
    uptr ret = frame[1];
    if (ret < 4096)
      break;
    if (!take_frame(pcs, &n, max, ring, &walked, ret - 1, fold))
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
u32 hp_unwind(uptr *pcs, u32 max, uptr fp, uptr stack_top, bool fold) {
  u32 n = 0, walked = 0;
  uptr ring[HP_FOLD_WINDOW];
  if (!max || !frame_ok(fp, 0, stack_top))
    return 0;
  const uptr *entry = (const uptr *)fp;
  uptr ra = entry[1], bp = entry[0], sp = fp + 2 * sizeof(uptr);
  bool reached_end = false;
  for (;;) {
    if (ra < 4096)
      break;
    u64 r = cfi_lookup(ra - 1);
    u64 kind = r & HP_CFI_KIND_MASK;
    uptr next_ra, next_bp, next_sp;
    if (HP_LIKELY(r == HP_CFI_FRAME_POINTER)) {
      /* The common case, a function with a frame pointer: written as the
       * frame-pointer step so the CPU need not wait for the recipe. */
      if (!frame_ok(bp, sp - 2 * sizeof(uptr), stack_top))
        break;
      next_ra = ((const uptr *)bp)[1];
      next_bp = ((const uptr *)bp)[0];
      next_sp = bp + 2 * sizeof(uptr);
    } else if (kind == HP_CFI_STEP) {
      uptr cfa = ((r & HP_CFI_CFA_RBP) ? bp : sp) + (uptr)(u32)(r >> 32);
      if (cfa < sp + sizeof(uptr) || cfa > stack_top || (cfa & 7))
        break;
      next_ra = ((const uptr *)cfa)[-1];
      next_sp = cfa;
      u32 rule = (u32)(r >> 3) & 3;
      if (rule == 0) {
        next_bp = bp;
      } else if (rule == 1) {
        uptr at = cfa + (uptr)(s64)(int16_t)(u16)(r >> 16);
        if (at < sp || at + sizeof(uptr) > stack_top)
          break;
        next_bp = *(const uptr *)at;
      } else {
        next_bp = 0;
      }
    } else if (kind == HP_CFI_END) {
      reached_end = true;
      break;
    } else {
      /* The frame-pointer step, with the checks of hp_unwind_fp: the
       * caller's frame (bp) inside the stack, above this one. */
      if (!frame_ok(bp, sp - 2 * sizeof(uptr), stack_top))
        break;
      next_ra = ((const uptr *)bp)[1];
      next_bp = ((const uptr *)bp)[0];
      next_sp = bp + 2 * sizeof(uptr);
    }
    if (!take_frame(pcs, &n, max, ring, &walked, ra - 1, fold))
      break;
    ra = next_ra;
    bp = next_bp;
    sp = next_sp;
  }
  if (reached_end) {
    uptr lo = hp_cfi_libc_lo,
         hi = __atomic_load_n(&hp_cfi_libc_hi, __ATOMIC_ACQUIRE);
    while (n > 0 && pcs[n - 1] >= lo && pcs[n - 1] < hi)
      n--;
  }
  return n;
}

u32 hp_fold_recursion(uptr *pcs, u32 n) {
  /* Judged against the original walk (not the kept frames), so the result
   * depends only on the stack. */
  uptr ring[HP_FOLD_WINDOW];
  u32 k = 0;
  for (u32 i = 0; i < n; i++)
    if (!fold_repeat(ring, i, pcs[i]))
      pcs[k++] = pcs[i];
  return k;
}
