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

/* Whether the kernel's soft limit of resource (RLIMIT_AS, RLIMIT_DATA) is
 * a value the program set for itself, raised by the reservations: a
 * mapping refused under it is the program's own budget reached. */
bool hp_rlimit_program_set(int resource);

#endif
