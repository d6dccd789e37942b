/*===- heapprof_ownstack.h - stacks of the runtime's own ----------------===
 *
 * Part of heapprof.  Writing a profile takes tens of KiB of stack (the
 * dump's maps, the symbolizer's buffers, formatting), which a thread on a
 * small stack does not have: a thread of PTHREAD_STACK_MIN (16 KiB) that
 * called __heapprof_dump() or exit() died of SIGSEGV inside heapprof, with
 * no profile.  Such work runs on a stack of the runtime's own instead,
 * mapped at its first use (with a guard page below) and kept; one per
 * lock that serialises its users, so two threads never share one.
 *===----------------------------------------------------------------------===*/
#ifndef HEAPPROF_OWNSTACK_H
#define HEAPPROF_OWNSTACK_H

typedef struct hp_own_stack {
  char *lo;  /* its lowest usable byte (a guard page below); NULL: not
                mapped yet */
  uptr size; /* usable bytes */
} hp_own_stack_t;

#define HP_OWN_STACK_SIZE (256u << 10)

/* Calls fn(arg) on s, which the caller's lock guards: on the calling
 * thread's stack instead when it is already running on s (a nested call)
 * or s cannot be mapped (out of memory: as before there was one). */
void hp_own_stack_run(hp_own_stack_t *s, void (*fn)(void *), void *arg);

/* Whether sp lies on s (tests, and the nesting rule above). */
static HP_ALWAYS_INLINE bool hp_own_stack_has(const hp_own_stack_t *s,
                                              uptr sp) {
  return s->lo && sp >= (uptr)s->lo && sp < (uptr)s->lo + s->size;
}

#endif
