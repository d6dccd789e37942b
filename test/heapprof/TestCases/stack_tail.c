// The main thread's outermost frames (in libc, then _start) are stepped
// through by CFI and dropped at the end of the walk; after the first walk
// that reaches them, a walk in the same state stops there instead
// (heapprof_stack.c, "the tail").  Stopping early must give exactly the
// walk's stack: here a stack taken from main -> outer -> inner is taken
// again and again, and every walk must equal the first (which recorded the
// tail), end in main, and, cut by max at every length, be a prefix of it.
// With max cutting the walk inside the tail (max = frames + 1, + 2), the
// tail's frames count (the walk stops inside it, before the end, so they
// are not dropped): there the full walk is taken, and returns max frames,
// the first of them the stack's.  So as max grows past the stack's length
// the count must go max, max, ... (K times: the libc frames) then stay at
// the stack's length, the same K every round.
// RUN: %clang_rt_heapprof -O0 %s -o %t
// RUN: %run %t 2>&1 | FileCheck %s
#include <stdint.h>
#include <stdio.h>
#include <string.h>

unsigned hp_unwind(uintptr_t *pcs, unsigned max, uintptr_t fp, uintptr_t lo,
                   uintptr_t top, _Bool fold);
extern void *__libc_stack_end;

static uintptr_t first[64];
static unsigned nfirst;
static int bad, tail_frames = -1;

__attribute__((noinline)) static void inner(int round) {
  uintptr_t pcs[64];
  uintptr_t fp = (uintptr_t)__builtin_frame_address(0),
            top = (uintptr_t)__libc_stack_end;
  unsigned n = hp_unwind(pcs, 64, fp, 0, top, 1);
  if (round == 0) {
    memcpy(first, pcs, sizeof(pcs));
    nfirst = n;
    return;
  }
  if (n != nfirst || memcmp(pcs, first, n * sizeof(uintptr_t)))
    bad++;
  int k = 0;
  for (unsigned max = 1; max <= nfirst + 8; max++) {
    unsigned m = hp_unwind(pcs, max, fp, 0, top, 1);
    unsigned same = m < nfirst ? m : nfirst;
    if (memcmp(pcs, first, same * sizeof(uintptr_t)))
      bad++;
    if (max <= nfirst)
      bad += m != max;
    else if (m == max && k == (int)(max - nfirst - 1))
      k++; /* still inside the tail */
    else
      bad += m != nfirst;
  }
  if (tail_frames < 0)
    tail_frames = k;
  bad += k != tail_frames;
}

__attribute__((noinline)) static void outer(int round) {
  inner(round);
  __asm__ volatile("" ::: "memory"); // not a tail call
}

int main(void) {
  for (int round = 0; round < 50; round++)
    outer(round);
  // inner's caller outer, outer's caller main, main's caller heapprof's
  // wrapper of main (heapprof_start.c; a walk with the thread's own top
  // stops at main, this one's top is the stack's end): 3 frames, nothing
  // of libc.
  uintptr_t main_lo = (uintptr_t)&main;
  printf("frames %u, second in main: %d, libc frames %s, mismatches %d\n",
         nfirst, first[1] > main_lo && first[1] < main_lo + 512,
         tail_frames >= 1 ? ">= 1" : "none", bad);
  return 0;
}
// CHECK: frames 3, second in main: 1, libc frames >= 1, mismatches 0
