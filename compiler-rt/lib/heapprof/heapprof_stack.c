/*===- heapprof_stack.c - frame-pointer unwinding -----------------------===
 *
 * Part of heapprof.  The walk never reads outside [fp, stack_top) of the
 * current thread's stack, so a frame without a frame pointer (libc) ends it
 * instead of faulting.
 *===----------------------------------------------------------------------===*/
#include "heapprof_internal.h"

u32 hp_unwind(uptr *pcs, u32 max, uptr fp, uptr stack_top) {
  u32 n = 0;
  uptr bottom = fp;
  while (n < max) {
    if (fp < bottom || fp + 2 * sizeof(uptr) > stack_top || (fp & 7))
      break;
    const uptr *frame = (const uptr *)fp;
    uptr ret = frame[1];
    if (ret < 4096)
      break;
    pcs[n++] = ret - 1;
    uptr next = frame[0];
    if (next <= fp)
      break;
    fp = next;
  }
  return n;
}
