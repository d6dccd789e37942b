/*===- heapprof_roots.h - memory the program names as leak-check roots --===
 *
 * Part of heapprof.  __heapprof_register_root_region(p, size) makes
 * [p, p + size) a root of the leak check at exit (heapprof_leaks.h), as
 * LeakSanitizer's __lsan_register_root_region does: memory that is no
 * thread's stack, no global and no live object, yet holds the only
 * pointers to some objects.  A coroutine stack the program switches to by
 * hand (its own assembly, as Boost.Context's, with no makecontext for
 * heapprof to note) on memory it mapped itself is one: its frames' objects
 * read as leaked.  An arena of the program's own in an anonymous mapping
 * is another.
 *
 * The regions are a set of (start, size) pairs, each with the number of
 * its registrations, in memory of the runtime's own: a region registered
 * twice is there until it is unregistered twice, as under LeakSanitizer.
 *===----------------------------------------------------------------------===*/
#ifndef HEAPPROF_ROOTS_H
#define HEAPPROF_ROOTS_H

#include "heapprof_internal.h"

/* At start: the fork handlers that hold the list's lock across a fork. */
void hp_roots_init(void);

/* Calls fn once with each registered region, [beg, end), under the set's
 * lock (a registration meanwhile waits).  False, and none, when the lock
 * stayed busy for a second (hp_spin_lock_patient). */
bool hp_roots_for_each(void (*fn)(uptr beg, uptr end, void *arg), void *arg);

#endif
