/*===- heapprof_ownalloc.h - the runtime's own allocations through malloc ===
 *
 * Part of heapprof.  glibc's pthread_create allocates the new thread's
 * dynamic thread vector (DTV: 288 bytes with two TLS modules) through the
 * process's calloc, and may grow a cached stack's vector with realloc.
 * For a thread the runtime starts for itself (dump_signal's,
 * hp_thread_start_internal) those allocations are heapprof's, yet they
 * were profiled as the program's: a live 288-byte object in a context of
 * heapprof's own (1002 allocations where the program made 1001).  So was
 * the 40-byte one of the runtime's dlopen of libc.so.6 (hp_glibc_sym,
 * first asked when the program calls unshare or setns).
 *
 * Between hp_own_begin and hp_own_end, what the calling thread allocates
 * is the runtime's:
 *  - heapprof's allocator hands it a block of glibc's malloc, unrecorded,
 *    and remembers the block: its free or realloc, on any thread and at
 *    any time, goes back to glibc (hp_own_block);
 *  - another allocator (allocator=system|PATH) serves it as it serves a
 *    call made inside heapprof's bookkeeping: passed through unrecorded;
 *    its free later finds no entry and counts only as a call;
 *  - inside init, before the allocator serving the program is decided
 *    (a wrapper of a libc call init makes, preloaded before the runtime,
 *    that allocates), heapprof's allocator path serves it as above,
 *    whichever allocator is decided then: its free and realloc go back
 *    to glibc on the foreign path too (hp_own_live);
 *  - sampled mode never samples it.
 * An alignment over 16 is served as usual (glibc's thread start asks for
 * none).
 *===----------------------------------------------------------------------===*/
#ifndef HEAPPROF_OWNALLOC_H
#define HEAPPROF_OWNALLOC_H

/* This thread's allocations are the runtime's until hp_own_end (pairs
 * nest). */
void hp_own_begin(void);
void hp_own_end(void);

/* Inside hp_own_begin's section on this thread: the depth. */
extern HP_TLS u32 hp_own_section;
static HP_ALWAYS_INLINE bool hp_own_here(void) { return hp_own_section; }

/* heapprof's allocator, inside the section: a remembered glibc block, or
 * NULL when it cannot be (too many, an alignment over 16, out of memory:
 * the caller then allocates as usual). */
void *hp_own_allocate(uptr size, uptr align, bool zero);
/* How many blocks hp_own_allocate handed out are not freed yet: the
 * foreign path's free and realloc look for p among them only when some
 * are (the wrapped library's free must not get one of glibc's). */
extern u32 hp_own_live;
/* Whether p is a block hp_own_allocate handed out and not yet freed. */
bool hp_own_block(uptr p);
/* Its free and realloc (glibc's; a moved block stays remembered). */
void hp_own_free(void *p);
void *hp_own_realloc(void *p, uptr size);

/* glibc's own definition of name, looked up in libc.so.6 by handle (the
 * runtime defines malloc, free, ... itself, and an instrumented executable
 * exports them); NULL if libc has none.  The handle is opened once and
 * kept: libc is never unloaded.  The loader's allocations for it are the
 * runtime's. */
void *hp_glibc_sym(const char *name);

#endif
