/*===- heapprof_falseshare.h - false sharing on a simulated layout ------===
 *
 * Part of heapprof.  Passive false sharing: a 64-byte cache line holding
 * objects that different threads allocated.  heapprof's own allocator
 * never puts two chunks' bytes on one line (heapprof_chunk.h), so it
 * cannot cause it; what is reported is what the program's allocations
 * would cause under a conventional packed allocator, simulated with
 * false_sharing=1 as this model:
 *
 *   - every allocation that returns a new chunk (malloc, calloc, new,
 *     aligned forms, a realloc that moves; not a realloc kept in place)
 *     is placed, in the order the calls happened over all threads;
 *   - its slot is the requested size rounded up to 16 bytes (0 -> 16),
 *     with no header: objects packed at 16-byte alignment;
 *   - each slot size up to 1024 bytes is a class of its own whose slots
 *     follow one another from a line-aligned start, one sequence shared by
 *     every thread (a size-class allocator without thread caches); larger
 *     objects are not placed (they span 16 lines or more: at most their
 *     edge lines could be shared) and are only counted;
 *   - freed slots are never reused.
 *
 *     class 32:  | A1 | B1 | A2 | B2 | A3 | ...     thread A, thread B
 *                |  line 0 |  line 1 |  line 2 ...  each line: A and B
 *
 * A line is passively false-shared when the objects placed on it come from
 * two or more threads; it counts once, and once for each pair of contexts
 * (context of one thread's object, context of another's) it holds.  The
 * counts are totals since the program started, in tagged section 6 of
 * every dump (docs/allocator-profiler.md, docs/formats.md).
 *
 * Active false sharing, with a program built with -mllvm
 * -heapprof-false-sharing (the pass then also calls
 * __heapprof_false_sharing_store on every instrumented store): per line
 * of the same simulated layout, the thread that wrote it last and the
 * object it wrote.  A store by another thread to another object on the
 * line is an active false-sharing event (the paper's cache contention
 * event), counted for the pair of contexts; the line counts once as
 * actively false-shared.  A store by another thread to the same object
 * counts as a same-object event: true sharing, or false sharing between
 * fields, which no allocator can fix.  The "window" is thus the interval
 * between two writes of a line: ping-pong is counted, a line handed over
 * once counts one event.
 *
 * Measured on the real layout.  With allocator=system|PATH
 * (heapprof_foreign.h) the objects have the addresses the real allocator
 * gave them -- its headers, size classes, thread caches and reuse of freed
 * memory -- so nothing is simulated: section 6 then describes the real
 * layout (its last word says which).  Passive: at each dump, over the live
 * objects of the side table, the real 64-byte lines holding live objects
 * that different threads allocated (the side table keeps each object's
 * allocating thread), once per line and once per pair of contexts on it --
 * a state at the dump, not a total since the start.  Active: the store
 * hook finds the object a store hits through an index of every live
 * object by its first and last line (hp_fshare_real_alloc/free, kept while
 * false_sharing=1), and follows the real line as above.
 *
 * Cost with false_sharing=1: a spin lock per slot class on every
 * allocating call (all threads allocating one size contend for it), and a
 * second lock for the pair table when a line turns shared; with the pass
 * option, a call, a block look-up and a striped lock per store to the
 * heap.  With false_sharing=0 the allocation path tests one flag and the
 * store hook returns at once; without the pass option no store calls it.
 *===----------------------------------------------------------------------===*/
#ifndef HEAPPROF_FALSESHARE_H
#define HEAPPROF_FALSESHARE_H

/* Places one allocation of size bytes by thread tid from context stack_id
 * in the model; returns its place (kept in the chunk header's
 * data_type_id), 0 when it is not placed. */
u32 hp_fshare_alloc(u32 tid, u64 stack_id, uptr size);

/* A store by the calling thread at offset bytes into the object obj
 * (context stack_id) placed at pos (heapprof_rtl.c finds them). */
void hp_fshare_store(u32 pos, uptr offset, u64 stack_id, uptr obj);

/* allocator=system|PATH, false_sharing=1: an object of the wrapped
 * allocator was allocated / is about to be freed (before the allocator
 * can hand its memory out again). */
void hp_fshare_real_alloc(uptr beg, uptr size, u64 stack_id);
void hp_fshare_real_free(uptr beg, uptr size);
/* A store by the calling thread at addr (allocator=system|PATH). */
void hp_fshare_store_real(uptr addr);

/* Words before the pair rows in tagged section 6. */
#define HP_FSHARE_HEAD_WORDS 10
/* The word after the rows: which layout the section describes. */
enum { HP_FSHARE_LAYOUT_SIMULATED = 0, HP_FSHARE_LAYOUT_REAL = 1 };

/* Tagged section 6 (nothing when false_sharing=0): the real layout's when
 * the foreign path serves, else the simulated one's. */
void hp_fshare_section_write(hp_buf_t *b, const hp_profile_info_t *info);

/* fork(): the model's locks are held across fork and released in both;
 * the child starts a model of its own (reset), as its HIB table does. */
void hp_fshare_lock_all(void);
void hp_fshare_unlock_all(bool reset);

#endif
