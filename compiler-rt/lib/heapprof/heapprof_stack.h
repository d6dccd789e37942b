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

/* malloc_context_size's upper bound; the stack id cache keeps it in 8 bits. */
#define HP_MAX_STACK_DEPTH 255
#define HP_FOLD_WINDOW 8

typedef struct hp_stack {
  u32 size;
  uptr pcs[HP_MAX_STACK_DEPTH];
} hp_stack_t;

/* Walks from frame pointer fp (a runtime entry point's own frame) within
 * [fp, stack_top), storing at most max PCs, folding recursion on the way if
 * fold (see hp_fold_recursion), walking at most HP_MAX_WALK frames.
 * Returns the count stored.  Each step to a caller follows the CFI recipe
 * of the return address (heapprof_cfi.c, cached): for a function with a
 * frame pointer that is the frame-pointer step, and a frame without one
 * (libstdc++, libc, code built without -fheapprof) is stepped over
 * correctly instead of ending or skipping the walk.  Where there is no
 * usable CFI the frame-pointer step is taken, as hp_unwind_fp does, but
 * only on the thread's own stack, [stack_lo, stack_top) (the thread's
 * stack_lo, heapprof_thread.h; 0: all below stack_top): a walk from fp
 * below stack_lo (a coroutine's stack, a sigaltstack) or at or above
 * stack_top (then without a bound) ends there instead.  The
 * main thread's outermost libc frames, dropped at the end anyway, are
 * recognised from the first walk that reached them instead of stepped
 * through (heapprof_stack.c, "the tail"). */
#define HP_MAX_WALK 256
u32 hp_unwind(uptr *pcs, u32 max, uptr fp, uptr stack_lo, uptr stack_top,
              bool fold);

/* The stack id (heapprof_stackdepot.h) of the stack hp_unwind(pcs, max,
 * fp, stack_lo, stack_top, fold) would give, through a cache that answers
 * without the walk when every word such a walk read from the same fp is
 * unchanged (heapprof_stack.c; docs/design.md "Stack ids without the
 * walk"; not for fp on another stack than the thread's own).
 * hp_stack_cache_init (called by hp_stackdepot_init) reserves the cache. */
u32 hp_stack_id(uptr fp, uptr stack_lo, uptr stack_top, u32 max,
                bool fold);
void hp_stack_cache_init(void);
/* A thread's caches of the walks, kept in its state (heapprof_thread.h)
 * rather than in thread-local storage: glibc takes a thread's static TLS
 * out of its stack and refuses a pthread_create whose stack cannot hold
 * it, and 17 KiB more of it made every thread of PTHREAD_STACK_MIN (16
 * KiB) fail with EINVAL.  A walk made without a state (before the
 * thread's is made, after it is torn down, on the shared fallback) folds
 * with the ring alone and computes the recipes the cache would give.
 * Valid zero-initialised; heapprof_stack.c has the rest. */
#define HP_FOLD_TAB_BITS 6
#define HP_CFI_CACHE_BITS 10
struct hp_cfi_l2;
typedef struct hp_stack_thread {
  struct {
    bool busy; /* a walk of this thread is using it */
    u64 next;  /* the next walk's base */
    uptr pc[1u << HP_FOLD_TAB_BITS];
    u64 at[1u << HP_FOLD_TAB_BITS];
  } fold;
  struct {
    uptr tag[1u << HP_CFI_CACHE_BITS];
    u64 recipe[1u << HP_CFI_CACHE_BITS];
    struct hp_cfi_l2 *l2; /* NULL until CFI_L2_AFTER misses */
    u32 misses;           /* before the second level */
  } cfi;
  u64 cache_fills; /* ways of the stack-id cache this thread filled after a
                    * miss (tests) */
} hp_stack_thread_t;
/* A thread's exit: unmaps w's second-level recipe cache.  What stays is
 * valid for the thread that takes the state next (recipes are the code's;
 * the folding table's positions only grow). */
void hp_stack_thread_exit(hp_stack_thread_t *w);
/* Whether this thread's second-level recipe cache is mapped (tests). */
bool hp_stack_cfi_l2_mapped(void);
/* The stack-id cache's ways this thread filled so far, one per recorded
 * walk after a miss (tests). */
u64 hp_stack_cache_fills(void);

/* Tagged section 12: how this process takes its stacks, u64 each:
 * malloc_context_size (a stack of that many frames may have been cut
 * there), fold_recursion (0/1). */
struct hp_profile_info;
void hp_stack_write_section(hp_buf_t *b, const struct hp_profile_info *info);

/* The frame-pointer walk alone (the benchmark's reference; stacks that
 * pass through code without frame pointers end or skip callers there). */
u32 hp_unwind_fp(uptr *pcs, u32 max, uptr fp, uptr stack_top, bool fold);

/* heapprof_cfi.c: the recipe for stepping from the frame whose return
 * address - 1 is pc to its caller, cached per thread and return address.
 * Bits 0-1 the kind (0: HP_CFI_SIGNAL); bit 2 CFA = rbp + off (else rsp +
 * off); bits 3-4 the rule of rbp (0 unchanged, 1 saved at CFA + rbp_off, 2
 * unknown); bits 16-31 rbp_off (s16); bits 32-63 the CFA offset.  The
 * return address is at CFA - 8. */
#define HP_CFI_KIND_MASK 3ull
#define HP_CFI_NONE 1ull /* no usable CFI: take the frame-pointer step */
#define HP_CFI_STEP 2ull /* follow the recipe */
#define HP_CFI_END 3ull  /* the outermost frame (return address undefined) */
#define HP_CFI_CFA_RBP 4ull
/* The return address is the signal trampoline (kind 0): the handler's
 * caller is the interrupted code, whose registers the kernel saved in the
 * ucontext_t at the trampoline's rsp. */
#define HP_CFI_SIGNAL 32ull
/* push rbp; mov rbp, rsp: CFA = rbp + 16, rbp saved at CFA - 16. */
#define HP_CFI_FRAME_POINTER                                                 \
  (HP_CFI_STEP | HP_CFI_CFA_RBP | 1ull << 3 | (u64)(u16)-16 << 16 |         \
   16ull << 32)
u64 hp_cfi_compute(uptr pc);     /* heapprof_cfi.c: no cache */
u64 hp_cfi_recipe(uptr pc);      /* heapprof_stack.c: cached */
/* libc's code, where the main thread's outermost frames are. */
extern uptr hp_cfi_libc_lo, hp_cfi_libc_hi;
/* heapprof_stack.c: the PC (return address - 1) in libc's
 * __libc_start_call_main that called main's wrapper, set by the wrapper
 * (heapprof_start.c) before main runs; 0 until then.  A walk that reaches
 * the end drops that frame with the one the end called. */
extern uptr hp_stack_call_main_pc;

/* Recursion folding: drops every frame whose PC already occurs among the
 * HP_FOLD_WINDOW frames before it in the walk, so that a recursive builder
 * called from two sites gives a handful of contexts instead of 2^depth.
 * Stacks without such repeats are unchanged.  Returns the new count. */
u32 hp_fold_recursion(uptr *pcs, u32 n);

#endif
