/*===- heapprof_fork.h - heapprof's fork handlers, for every kind of fork -===
 *
 * Part of heapprof.  heapprof_fork.c: the runtime's fork handlers, run by
 * fork (pthread_atfork), by _Fork and by syscall()'s forks too, and how a
 * copy of the process that ran none of them is told.
 *===----------------------------------------------------------------------===*/
#ifndef HEAPPROF_FORK_H
#define HEAPPROF_FORK_H

/* Lists one of heapprof's own fork handler trios: fork runs the list
 * (through one trio registered with glibc before anyone's, so innermost),
 * and so do _Fork, clone and syscall()'s forks. */
void hp_atfork(void (*prepare)(void), void (*parent)(void),
               void (*child)(void));
/* At start, after malloc works: the mark, and glibc's _Fork. */
void hp_fork_init(void);
/* Around a system call that copies the process (heapprof_sandbox.c):
 * prepare runs heapprof's prepare handlers and says whether it did (not
 * from a signal handler that interrupted heapprof on this thread); after
 * runs the child's or the parent's handlers if it did. */
bool hp_fork_prepare(void);
void hp_fork_after(bool prepared, bool child);
/* This process is a copy of another made without heapprof's handlers
 * (its state repeats its parent's up to the copy); false in a vfork child
 * (shared memory) and where the kernel cannot tell (before Linux 4.14). */
bool hp_fork_unhandled_copy(void);

#endif
