/*===- heapprof_stack.h - frame-pointer unwinding -----------------------===
 *
 * Part of heapprof.  Allocation stacks are taken by walking the frame-pointer
 * chain (heapprof-clang compiles with -fno-omit-frame-pointer) into a small
 * caller buffer: nothing is zeroed or initialised per call.
 *
 * The walk starts at the frame of the runtime's entry point (malloc,
 * operator new, ...), so frame 0 is the return address into the caller:
 * runtime frames never appear, the same way for every entry point.  PCs are
 * stored as return address - 1, which symbolizes to the call's line.
 *===----------------------------------------------------------------------===*/
#ifndef HEAPPROF_STACK_H
#define HEAPPROF_STACK_H

#define HP_MAX_STACK_DEPTH 64
#define HP_FOLD_WINDOW 8

typedef struct hp_stack {
  u32 size;
  uptr pcs[HP_MAX_STACK_DEPTH];
} hp_stack_t;

/* Walks from frame pointer fp (a runtime entry point's own frame) within
 * [fp, stack_top), storing at most max PCs, folding recursion on the way if
 * fold (see hp_fold_recursion), walking at most HP_MAX_WALK frames.
 * Returns the count stored. */
#define HP_MAX_WALK 256
u32 hp_unwind(uptr *pcs, u32 max, uptr fp, uptr stack_top, bool fold);

/* Recursion folding: drops every frame whose PC already occurs among the
 * HP_FOLD_WINDOW frames before it in the walk, so that a recursive builder
 * called from two sites gives a handful of contexts instead of 2^depth.
 * Stacks without such repeats are unchanged.  Returns the new count. */
u32 hp_fold_recursion(uptr *pcs, u32 n);

#endif
