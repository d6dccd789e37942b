/*===- heapprof_stack.c - frame-pointer unwinding -----------------------===
 *
 * Part of heapprof.  The walk never reads outside [fp, stack_top) of the
 * current thread's stack, so a frame without a frame pointer (libc) ends it
 * instead of faulting.
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

/* Frame at fp: fp[0] = caller's frame pointer, fp[1] = return address into
 * the caller.  The return address of a frame is kept only when the caller's
 * own frame lies inside the stack too; so the walk stops below the thread's
 * top (a wrapper frame placed there, or libc's start-up code) instead of
 * recording a PC in it. */
u32 hp_unwind(uptr *pcs, u32 max, uptr fp, uptr stack_top, bool fold) {
  u32 n = 0, walked = 0;
  uptr ring[HP_FOLD_WINDOW]; /* the last frames walked, for folding */
  if (!max || !frame_ok(fp, 0, stack_top))
    return 0;
  for (;;) {
    const uptr *frame = (const uptr *)fp;
    uptr ret = frame[1];
    if (ret < 4096)
      break;
    uptr pc = ret - 1;
    bool repeat = fold && fold_repeat(ring, walked, pc);
    walked++;
    if (!repeat) {
      pcs[n++] = pc;
      if (n >= max)
        break;
    }
    if (walked >= HP_MAX_WALK)
      break;
    uptr next = frame[0];
    if (!frame_ok(next, fp, stack_top) ||
        !frame_ok(((const uptr *)next)[0], next, stack_top))
      break;
    fp = next;
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
