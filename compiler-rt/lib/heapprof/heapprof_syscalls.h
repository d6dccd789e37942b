/*===- heapprof_syscalls.h - the allocator's system calls ---------------===
 *
 * Part of heapprof.  Every system call heapprof's allocator makes (the
 * primary's reservations and page releases, the secondary's mappings and
 * its registry) goes through these wrappers, which count it with its
 * length and TSC cycles.  A call is charged to the operation class
 * (heapprof_opclass.h) of the allocator call that made it: the wrapper
 * notes it in the thread's pending slot, and that call's end, which knows
 * its class, moves it into the process-wide table (atomic adds: system
 * calls are rare and cost microseconds).  Calls outside any allocator call
 * (init, thread exit, a failed allocation) go to the extra row
 * HP_SYS_OUTSIDE.  A dump writes the change since the previous one as
 * tagged section 3 (docs/formats.md).
 *===----------------------------------------------------------------------===*/
#ifndef HEAPPROF_SYSCALLS_H
#define HEAPPROF_SYSCALLS_H

enum {
  HP_SYS_MMAP,
  HP_SYS_MUNMAP,
  HP_SYS_MREMAP,   /* large chunks' reallocs (bytes: the new length) */
  HP_SYS_MADVISE,
  HP_SYS_MPROTECT, /* heapprof's allocator never calls these two; the */
  HP_SYS_BRK,      /* rows exist so the layout serves other allocators */
  HP_SYS_FAULT,    /* not a call: page faults (heapprof_faults.h) */
  HP_NUM_SYSCALLS,
};
/* The row of calls made outside any allocator call. */
#define HP_SYS_OUTSIDE HP_OPC_NUM_CLASSES

/* Set while this thread has uncharged system calls. */
extern HP_TLS bool hp_sys_pending;

void *hp_sys_mmap(uptr size);                            /* NULL on failure */
void *hp_sys_mmap_or_die(uptr size, const char *what);
void *hp_sys_mmap_noreserve(uptr size, const char *what);
void hp_sys_munmap(void *p, uptr size);
/* 0, or the call's errno (errno itself is kept). */
int hp_sys_madvise(void *p, uptr size, int advice);
void *hp_sys_mremap(void *p, uptr old_size, uptr new_size); /* hp_mremap */

/* Notes one call made on the allocator's behalf by code heapprof does not
 * wrap (another allocator's, heapprof_foreign.c): like the wrappers'. */
void hp_sys_note(u32 sys, uptr bytes, u64 cycles);
/* count of them at once (page faults, HP_SYS_FAULT). */
void hp_sys_note_many(u32 sys, u64 count, uptr bytes, u64 cycles);

/* Charges this thread's pending calls to class cls (or HP_SYS_OUTSIDE). */
void hp_syscalls_charge(u32 cls);
static HP_ALWAYS_INLINE void hp_syscalls_charge_outside(void) {
  if (HP_UNLIKELY(hp_sys_pending))
    hp_syscalls_charge(HP_SYS_OUTSIDE);
}

/* Forgets this thread's pending calls: heapprof's own, when another
 * allocator is the one profiled (its reservations at init). */
void hp_syscalls_drop(void);

/* A fork's child handler: the totals so far and the forking thread's
 * pending calls are the parent's to write, so the child's first dump
 * counts from here. */
void hp_syscalls_fork_child(void);

/* Section 3's writer (heapprof_ext_sections.c). */
struct hp_profile_info;
void hp_syscalls_write_section(hp_buf_t *b, const struct hp_profile_info *info);

#endif
