/*===- heapprof_leaks.h - the leak check at exit ------------------------===
 *
 * Part of heapprof.  At the end of the image (detect_leaks=1, the default:
 * the dump of exit, _exit or quick_exit, or the one before an exec), which
 * live objects no pointer reaches any more: LeakSanitizer's conservative
 * reachability.  Roots are the loaded modules' writable segments (globals),
 * every thread's stack, its static thread-local storage, and the exiting
 * thread's registers, with the stack it runs on when that is not its own
 * (a coroutine's, from its stack pointer up); an aligned 8-byte word that holds the address of any
 * byte of a live object reaches it, and what a reached object holds
 * reaches further; what the dynamic linker allocated counts as reached
 * (LeakSanitizer's rule: the dtv of an exited thread, kept in glibc's
 * cache of stacks).  The unreached objects are the leaks: indirect when
 * another unreached object points to them (the nodes of a lost list),
 * direct otherwise.  Section 10 of the raw profile carries the result per
 * context (docs/formats.md).
 *
 * The stacks makecontext started coroutines on are roots too, whole
 * (heapprof_coroutine.h), and the regions the program registered
 * (heapprof_roots.h).  Not read: other threads' registers (they keep
 * running; the count is in the section), which can only make an object
 * look leaked, never hide a leak; and other memory the program mapped
 * itself and did not register (a pointer kept only there, as on a stack
 * it switched to by hand and switched out of, makes its object look
 * leaked too).  Not in
 * sampled mode: the objects it does not sample are not known, so what
 * they point to cannot be followed.
 *===----------------------------------------------------------------------===*/
#ifndef HEAPPROF_LEAKS_H
#define HEAPPROF_LEAKS_H

#include "heapprof_internal.h"

/* Runs the check (the exit dump calls it before writing the profile, on
 * stack, its own: see registered_root); its result waits for the
 * section's writer.  The objects it judges are the dump's: the chunks its
 * walk folded (HP_CHUNK_REPORTED), live_objects of them, which is the
 * section's count of objects examined.  Other threads go on meanwhile:
 * one they allocated after the walk is in no record, so it is no leak nor
 * counted (it is still read, and what it points to reachable, if a root
 * reaches it); one they freed since counts as reachable (they held it). */
void hp_leaks_check(const hp_own_stack_t *stack, u64 live_objects);
/* Set by the exit's destructor (and _exit, and exec) to its own frame: the
 * calling thread's stack is scanned from there up, leaving out the frames
 * of the dump itself, whose unwritten slots hold stale words of the
 * program's (0: from the check's own frame). */
extern uptr hp_leaks_stack_from;
/* Sets v to where the leak check's roots on this thread's stack may
 * start in the function it is written in: that function's frame, less the
 * 6 words below it where its prologue pushed the callee-saved registers
 * (__builtin_unwind_init makes it save them all; rbx and r12-r15), which
 * may hold the program's only pointer to an object.  A macro, so that the
 * frame is that function's.  The one way every path takes the exiting
 * thread's stack start: _exit and exec once took their frame alone, and 5
 * objects held only in those registers were reported as leaks. */
#define HP_LEAKS_FRAME_WITH_REGS(v)                                           \
  do {                                                                       \
    __builtin_unwind_init();                                                 \
    (v) = (uptr)__builtin_frame_address(0) - 6 * sizeof(uptr);               \
  } while (0)
/* An exit path (exit's destructor, _exit, _Exit, exec) says its frame is
 * where the roots on this stack start, above the dump's own frames. */
#define HP_LEAKS_ROOTS_FROM_HERE() HP_LEAKS_FRAME_WITH_REGS(hp_leaks_stack_from)
/* Set by main's wrapper (heapprof_start.c) when main returned: the main
 * thread's stack from here up holds none of the program's frames. */
extern uptr hp_main_returned_at;
/* Drops a result (a dump other than the exit's has no section 10). */
void hp_leaks_forget(void);
/* Section 10: nothing unless the check ran and completed. */
void hp_leaks_write_section(hp_buf_t *b, const hp_profile_info_t *info);

#endif
