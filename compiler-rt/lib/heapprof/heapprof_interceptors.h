/*===- heapprof_interceptors.h - libc replacements ----------------------===
 *
 * Part of heapprof.
 *===----------------------------------------------------------------------===*/
#ifndef HEAPPROF_INTERCEPTORS_H
#define HEAPPROF_INTERCEPTORS_H

/* The entry point's own frame: stacks start at its caller. */
#define HP_ENTRY_FP() ((uptr)__builtin_frame_address(0))

/* Looks up libc's string functions once init is complete; until then the
 * runtime's own implementations serve. */
void hp_interceptors_resolve(void);

#endif
