/*===- heapprof_coroutine.h - the stacks coroutines run on --------------===
 *
 * Part of heapprof.  The stacks makecontext starts coroutines on, for the
 * leak check (heapprof_leaks.h): a coroutine switched out (or one another
 * thread is parked on at the exit) keeps its objects in frames on a stack
 * no thread's range covers; an mmap'd one is no object either, so no root
 * reached it, and what only it held read as leaked (10 suspended
 * coroutines holding 100 objects each: 995 of the 1000 read as leaks).
 *
 * makecontext is replaced by an entry that notes the context's uc_stack
 * and jumps to libc's with the arguments untouched (it takes a variable
 * list of any length, which no C function can pass on).  The notes are a
 * set keyed by the stack's start, in memory of the runtime's own; it drops
 * the stacks whose top page is no longer mapped when it grows.  The check
 * takes a noted stack as live while the return address makecontext put
 * near its top is still there and its coroutine has not returned
 * (heapprof_leaks.c).
 *===----------------------------------------------------------------------===*/
#ifndef HEAPPROF_COROUTINE_H
#define HEAPPROF_COROUTINE_H

#include "heapprof_internal.h"

/* At start: the fork handlers that hold the set's lock across a fork. */
void hp_coroutine_init(void);

/* The return address glibc's makecontext puts near the top of the stack
 * it starts a coroutine on (its __start_context, which it does not
 * export), found once with libc's makecontext on a scrap stack, which is
 * not noted; 0 if there is no makecontext. */
uptr hp_coroutine_start_return(void);

/* Calls fn with each noted stack, [beg, end), under the set's lock (a
 * makecontext meanwhile waits).  False, and none, when the lock stayed
 * busy for a second (hp_spin_lock_patient). */
bool hp_coroutine_stacks_for_each(void (*fn)(uptr beg, uptr end, void *arg),
                                  void *arg);

#endif
