/*===- heapprof_mlock.h - mlockall without heapprof's reservations ------===
 *
 * Part of heapprof.  heapprof_mlock.c interposes mlockall and munlockall.
 * After mlockall(MCL_FUTURE) the kernel locks every mapping made later,
 * but the allocator's regions were reserved before: their spans taken
 * from then on are locked by the allocator itself (hp_mlock_new_memory),
 * so the program's new objects are locked as under glibc, whose heap grows
 * by new mappings (the kernel does not lock a part of an old mapping
 * first touched after MCL_FUTURE: Security/seccomp_mlock.c).
 *===----------------------------------------------------------------------===*/
#ifndef HEAPPROF_MLOCK_H
#define HEAPPROF_MLOCK_H

/* Set by mlockall(MCL_FUTURE), cleared by munlockall. */
extern bool hp_mlock_future;
/* Locks [beg, end) of an allocator region newly in use, as MCL_FUTURE
 * asked (a failure, as RLIMIT_MEMLOCK reached, leaves it unlocked).  In
 * the program's seccomp sandbox, by mapping it afresh (mmap MAP_FIXED):
 * nothing in [beg, end) may be in use. */
void hp_mlock_new_memory(uptr beg, uptr end);

#endif
