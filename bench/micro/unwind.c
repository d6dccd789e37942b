/*===- unwind.c - cost of one allocation stack, per unwinder --------------===
 *
 * Part of heapprof's benchmarks (make bench, the "unwind" table).  Takes the
 * same stack many times from DEPTH frames deep and prints nanoseconds per
 * stack for:
 *   fp         hp_unwind_fp: frame pointers only (heapprof before CFI)
 *   cfi        hp_unwind: heapprof's CFI recipes, cached per return address
 *   libunwind  unw_backtrace (Debian's libunwind, UNW_CACHE_PER_THREAD)
 * on two stacks: every frame with a frame pointer (-fno-omit-frame-pointer),
 * and the same through qsort in libc (no frame pointers: fp loses callers).
 * Linked with heapprof's runtime archive for hp_unwind*.  Output lines:
 *   unwind STACK UNWINDER ns_per_stack frames
 *===----------------------------------------------------------------------===*/
#define UNW_LOCAL_ONLY
#include <libunwind.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

typedef uintptr_t uptr;
unsigned hp_unwind_fp(uptr *pcs, unsigned max, uptr fp, uptr top, _Bool fold);
unsigned hp_unwind(uptr *pcs, unsigned max, uptr fp, uptr lo, uptr top,
                   _Bool fold);
extern void *__libc_stack_end;

enum { MAX = 64 };
static long iters;
static const char *stack_name;

static double now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* At the leaf: one frame of its own, like a runtime entry point. */
__attribute__((noinline)) static void measure(void) {
  uptr pcs[MAX];
  uptr fp = (uptr)__builtin_frame_address(0), top = (uptr)__libc_stack_end;
  unsigned n = 0;
  double t0 = now_ns();
  for (long i = 0; i < iters; i++)
    n = hp_unwind_fp(pcs, MAX, fp, top, 0);
  double t1 = now_ns();
  printf("unwind %s fp %.1f %u\n", stack_name, (t1 - t0) / iters, n);
  t0 = now_ns();
  for (long i = 0; i < iters; i++)
    n = hp_unwind(pcs, MAX, fp, 0, top, 0);
  t1 = now_ns();
  printf("unwind %s cfi %.1f %u\n", stack_name, (t1 - t0) / iters, n);
  t0 = now_ns();
  for (long i = 0; i < iters; i++)
    n = (unsigned)unw_backtrace((void **)pcs, MAX);
  t1 = now_ns();
  printf("unwind %s libunwind %.1f %u\n", stack_name, (t1 - t0) / iters, n);
}

__attribute__((noinline)) static int deep(int d) {
  if (d == 0)
    measure();
  else
    deep(d - 1);
  __asm__ volatile("" ::: "memory"); /* not a tail call */
  return d;
}

static int depth;
static int cmp(const void *a, const void *b) {
  static int done;
  if (!done) {
    done = 1;
    deep(depth / 2);
  }
  return *(const int *)a - *(const int *)b;
}

int main(int argc, char **argv) {
  depth = argc > 1 ? atoi(argv[1]) : 30;
  iters = argc > 2 ? atol(argv[2]) : 200000;
  unw_set_caching_policy(unw_local_addr_space, UNW_CACHE_PER_THREAD);
  stack_name = "fp-frames";
  deep(depth);
  stack_name = "through-libc";
  int a[2] = {2, 1};
  qsort(a, 2, sizeof(int), cmp); /* cmp -> deep(depth/2) inside qsort */
  return 0;
}
