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

/* Frame at fp: fp[0] = caller's frame pointer, fp[1] = return address into
 * the caller.  The return address of a frame is kept only when the caller's
 * own frame lies inside the stack too; so the walk stops below the thread's
 * top (a wrapper frame placed there, or libc's start-up code) instead of
 * recording a PC in it. */
u32 hp_unwind(uptr *pcs, u32 max, uptr fp, uptr stack_top) {
  u32 n = 0;
  if (!max || !frame_ok(fp, 0, stack_top))
    return 0;
  for (;;) {
    const uptr *frame = (const uptr *)fp;
    uptr ret = frame[1];
    if (ret < 4096)
      break;
    pcs[n++] = ret - 1;
    if (n >= max)
      break;
    uptr next = frame[0];
    if (!frame_ok(next, fp, stack_top) ||
        !frame_ok(((const uptr *)next)[0], next, stack_top))
      break;
    fp = next;
  }
  return n;
}
