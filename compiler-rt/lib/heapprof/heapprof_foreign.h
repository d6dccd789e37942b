/*===- heapprof_foreign.h - profiling another allocator -----------------===
 *
 * Part of heapprof.  With allocator=system (glibc) or allocator=PATH (a
 * library preloaded after the runtime: jemalloc, tcmalloc, mimalloc), the
 * runtime's malloc, free, operator new... call through to that allocator
 * instead of heapprof's own.  What a chunk
 * header holds for heapprof's allocator lives in a side table keyed by
 * address; frees and dumps make the same chunk events, so every profile and
 * report is the same as with heapprof's allocator (heapprof_foreign.c,
 * docs/design.md "Profiling another allocator").
 *
 * The entry points test hp_foreign_state: HP_FOREIGN_OFF (heapprof's
 * allocator) costs one load and compare.  Before init decides,
 * hp_foreign_wanted() runs init.
 *===----------------------------------------------------------------------===*/
#ifndef HEAPPROF_FOREIGN_H
#define HEAPPROF_FOREIGN_H

/* HP_FOREIGN_SAMPLED: sample_bytes=N, the entry points' foreign forms hand
 * over to heapprof_sample.h at once. */
enum {
  HP_FOREIGN_UNKNOWN = 0,
  HP_FOREIGN_OFF = 1,
  HP_FOREIGN_ON = 2,
  HP_FOREIGN_SAMPLED = 3
};
extern int hp_foreign_state;
/* sample_bytes=N: the entry points' first test (heapprof_interceptors.c,
 * heapprof_new_delete.c, the foreign forms below). */
#define HP_SAMPLED_MODE() HP_UNLIKELY(hp_foreign_state == HP_FOREIGN_SAMPLED)
/* Decided, and not heapprof's allocator: the one test malloc and free make
 * before they go to heapprof's (then HP_SAMPLED_MODE tells the two apart). */
#define HP_ANOTHER_ALLOCATOR() HP_UNLIKELY(hp_foreign_state >= HP_FOREIGN_ON)

/* Decides (runs init if it has not run): true if the foreign path serves. */
bool hp_foreign_decide(void);
static HP_ALWAYS_INLINE bool hp_foreign_wanted(void) {
  int s = hp_foreign_state;
  return s >= HP_FOREIGN_ON || (s == HP_FOREIGN_UNKNOWN && hp_foreign_decide());
}
/* Called by __heapprof_init once the flags are read: sets the state and,
 * when on, resolves the wrapped allocator. */
void hp_foreign_init(void);
/* The entry points' test. */
#define HP_FOREIGN_HOOK()                                                    \
  (HP_UNLIKELY(hp_foreign_state != HP_FOREIGN_OFF) && hp_foreign_wanted())

/* Section 13 of the extension: whose allocator served the program.  u64
 * kind (0 heapprof's, 1 glibc's: allocator=system or sampled mode's
 * pass-through, 2 a library), u64 the library's path length, then the path
 * and a NUL, padded with NULs to 8 bytes (empty but for kind 2). */
enum { HP_ALLOCATOR_HEAPPROF = 0, HP_ALLOCATOR_GLIBC = 1,
       HP_ALLOCATOR_LIBRARY = 2 };
struct hp_profile_info;
void hp_foreign_write_section(hp_buf_t *b, const struct hp_profile_info *info);

/* The calling thread's calls pass through unrecorded until the end
 * (hp_own_begin's section, heapprof_ownalloc.h). */
void hp_foreign_pass_begin(void);
void hp_foreign_pass_end(void);

/* The entry points' foreign forms; fp is the entry point's frame. */
void *hp_foreign_malloc(uptr size, uptr fp);
void *hp_foreign_calloc(uptr n, uptr size, uptr fp);
void *hp_foreign_realloc(void *p, uptr size, uptr fp);
void *hp_foreign_reallocarray(void *p, uptr n, uptr size, uptr fp);
/* kind: HP_ALLOC_MALLOC (free) or the operator delete form. */
void hp_foreign_free(void *p, u8 kind, uptr fp);
void *hp_foreign_memalign(uptr align, uptr size, uptr fp);
void *hp_foreign_aligned_alloc(uptr align, uptr size, uptr fp);
int hp_foreign_posix_memalign(void **out, uptr align, uptr size, uptr fp);
void *hp_foreign_valloc(uptr size, uptr fp);
void *hp_foreign_pvalloc(uptr size, uptr fp);
uptr hp_foreign_usable_size(const void *p);
/* allocator=system: the header of the glibc chunk after the live object at
 * p, which lies in p's last 8 usable bytes (0 if p's chunk is mmap'd or
 * the allocator is not glibc).  glibc's arena points there (its top chunk,
 * its bins' free chunks), which is no pointer of the program's to p. */
uptr hp_foreign_glibc_next_chunk(uptr p);
/* hp_allocate's form (operator new, strdup): align 0 or a power of two. */
void *hp_foreign_allocate(uptr size, uptr align, u8 kind, uptr fp, bool zero);

/* The wrapped allocator's system calls seen so far (heapprof_foreign.c
 * says how, and docs/run.md for which allocator). */
enum {
  HP_FOREIGN_SYS_MMAP,
  HP_FOREIGN_SYS_MUNMAP,
  HP_FOREIGN_SYS_MADVISE,
  HP_FOREIGN_SYS_MREMAP,
  HP_FOREIGN_SYS_BRK,
  HP_FOREIGN_NSYSCALLS
};
void hp_foreign_syscall_counts(u64 out[HP_FOREIGN_NSYSCALLS]);
/* print_stats: their lines (nothing with heapprof's allocator). */
void hp_foreign_print_stats(void);

/* Dumps: the live objects of the side table, each passed to fn as a chunk
 * header built from its entry (what fn changes in it -- the REPORTED flag,
 * timestamp, cpu -- is written back). */
void hp_foreign_for_each_live(hp_chunk_fn fn, void *arg);
/* The same in address order, for a dump's per-context heap utilization
 * (heapprof_util.c), which counts a line or page two objects of a context
 * share once only if it meets them one after the other.  The objects are
 * collected and sorted first, then each is looked up again under its
 * stripe's lock: one freed meanwhile is skipped, one made meanwhile is not
 * seen.  Out of memory: table order. */
void hp_foreign_for_each_live_sorted(hp_chunk_fn fn, void *arg);
/* on: takes every stripe, so no object leaves the side table (nor is
 * freed: a free takes its entry out before it calls through) until
 * hp_foreign_hold(false); meanwhile the two walks here run without taking
 * stripes, on this thread only.  Nothing with heapprof's allocator. */
void hp_foreign_hold(bool on);

/* Every live object of the side table: its address, requested size,
 * stack id and allocating thread's number (hp_thread_t's seq), for false
 * sharing on the real layout.  fn runs
 * under a stripe lock: it must not allocate or take a stripe. */
typedef void (*hp_foreign_object_fn)(uptr addr, uptr size, u64 stack_id,
                                     u32 thread, void *arg);
void hp_foreign_for_each_object(hp_foreign_object_fn fn, void *arg);

#endif
