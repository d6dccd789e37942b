/*===- heapprof_rlimit.h - the program's own memory limits ---------------===
 *
 * Part of heapprof.
 *===----------------------------------------------------------------------===*/
#ifndef HEAPPROF_RLIMIT_H
#define HEAPPROF_RLIMIT_H

/* The address space the runtime reserves at init (its shadow and its
 * allocator's regions): untouched, but counted by the address-space limit,
 * and, being private and writable, by the data-size limit too. */
#define HP_RESERVED_BYTES (HP_SHADOW_SIZE + HP_NUM_REGIONS * HP_REGION_SIZE)

/* Around an exec: the new image's soft limits are the ones the program set
 * (without HP_RESERVED_BYTES), and they are put back if the exec fails. */
void hp_rlimit_before_exec(void);
void hp_rlimit_exec_failed(void);
/* In a posix_spawn child of heapprof's, before its exec: the soft and the
 * hard limits the program set (the child exits if the exec fails). */
void hp_rlimit_spawn_child(void);

/* Whether the kernel's soft limit of resource (RLIMIT_AS, RLIMIT_DATA) is
 * a value the program set for itself, raised by the reservations: a
 * mapping refused under it is the program's own budget reached. */
bool hp_rlimit_program_set(int resource);
/* Whether it is, for either limit. */
bool hp_rlimit_program_holds(void);

/* A span of bytes the allocator makes: while the program holds a limit it
 * set itself, counted against it (a ballast mapping grows by as much);
 * false when the kernel refuses the growth, the program's budget reached.
 * Without such a limit, true at the cost of one load. */
bool hp_rlimit_charge(u64 bytes);

/* Pages of the heap given back to the kernel (bytes), and such pages
 * handed out again: while the program holds a limit it set itself, the
 * ballast shrinks and grows by as much, so the heap counts against the
 * limit as much as it holds, not as much as it ever held; false when the
 * kernel refuses the growth. */
void hp_rlimit_released(u64 bytes);
bool hp_rlimit_reused(u64 bytes);

/* At the exit profile: the ballast goes (the program's budget ends with
 * it), so that writing the profile does not find the limit reached. */
void hp_rlimit_drop_ballast(void);

/* Around a checkpoint (under the dump lock): the ballast lends the dump
 * the room the heap holds, and takes it back after; a span charged while
 * it cannot take it back is refused (heapprof_rlimit.c). */
void hp_rlimit_lend(void);
void hp_rlimit_repay(void);

/* The ballast's lock, held across a fork (after the regions' locks, under
 * which a new span takes it): a child never finds it held. */
void hp_rlimit_lock(void);
void hp_rlimit_unlock(void);

/* The ballast's range, which mlockall(MCL_CURRENT) passes over; false
 * when there is none. */
bool hp_rlimit_ballast(uptr *beg, uptr *end);

#endif
