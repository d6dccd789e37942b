/*===- heapprof_sample.h - sampled mode (sample_bytes=N) ----------------===
 *
 * Part of heapprof.  Poisson byte sampling for production, as tcmalloc and
 * jemalloc sample: every thread counts down an exponentially distributed
 * number of bytes (mean N); the allocation that reaches zero is sampled, so
 * an allocation of s bytes is sampled with probability p(s) = 1 - e^(-s/N).
 *
 *   unsampled: glibc's allocator straight away (__libc_malloc ...), no
 *     stack, no HIB, no shadow work: the countdown is all heapprof adds.
 *   sampled: glibc memory with an 80-byte prefix holding a chunk header
 *     (heapprof_chunk.h), so the object is profiled like one of heapprof's
 *     own chunks (stack, shadow, HIB at free, folded into dumps); its
 *     profile record is weighted by 1/p(s) (hp_sample_weigh), so the
 *     profile's sums estimate the whole program's without bias.
 *
 * free tells the two apart from the word just before the pointer: glibc
 * keeps a chunk's size there, a multiple of 16 with flags in bits 0-2, so
 * bit 3 is never set; a sampled object's mark word has it set (and the
 * rest ties it to its address), see heapprof_sample.c.
 *
 * The entry points reach this through heapprof_foreign.h's hook
 * (hp_foreign_state == HP_FOREIGN_SAMPLED); docs/design.md "Sampled mode".
 * With allocator=system or allocator=PATH the sampling is
 * heapprof_foreign.c's instead (it times every call of the allocator it
 * profiles, and a library's memory has no size word to mark): it takes the
 * countdown and the weights from here and keeps the sampled objects in its
 * side table.
 *===----------------------------------------------------------------------===*/
#ifndef HEAPPROF_SAMPLE_H
#define HEAPPROF_SAMPLE_H

/* sample_bytes as read at init; 0: off.  Written once by hp_sample_setup. */
extern u64 hp_sample_bytes;

/* From hp_foreign_init when sample_bytes is set and allocator=heapprof
 * (the default): turns the mode on, on glibc's allocator. */
void hp_sample_init(void);
/* What every sampled mode sets up: the rate, the seeds, and the whole-heap
 * measures turned off (the sampling of allocator=system|PATH,
 * heapprof_foreign.c, calls it alone). */
void hp_sample_setup(void);

/* glibc's allocator under the names that bypass the interposed ones. */
extern void *__libc_malloc(size_t);
extern void __libc_free(void *);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);

/* A sampled object's mark word (before its pointer) has this bit set; a
 * glibc chunk's size word never has (heapprof_sample.c). */
#define HP_SAMPLE_MARK_BIT 8u
/* This thread's bytes left before its next sample; 0 (also before its
 * first call): the slow path decides.  Never above 4e18 + 1 (a draw's
 * bound, heapprof_sample.c). */
extern HP_TLS u64 hp_sample_left;
/* What an allocation of size bytes counts down: 0 counts as 1, so every
 * allocation can be sampled (size + !size never wraps). */
static HP_ALWAYS_INLINE u64 hp_sample_cost(uptr size) {
  return (u64)size + !size;
}

/* The countdown's fast path: true, with size counted down, when the
 * allocation is not sampled and bytes are left after it; false, with
 * nothing changed, when the slow path must decide.  One unsigned compare:
 * a cost above what is left (a huge size, or 0 left) goes to the slow
 * path as it is. */
static HP_ALWAYS_INLINE bool hp_sample_skip(uptr size) {
  u64 left = hp_sample_left, c = hp_sample_cost(size);
  if (HP_LIKELY(c < left)) {
    hp_sample_left = left - c;
    return true;
  }
  return false;
}

/* Whether an allocation of size bytes is sampled (counted down either
 * way), for the sampling of allocator=system|PATH (heapprof_foreign.c). */
bool hp_sample_take_slow(uptr size);
static HP_ALWAYS_INLINE bool hp_sample_take(uptr size) {
  return !hp_sample_skip(size) && hp_sample_take_slow(size);
}

/* The slow halves of malloc, free and realloc; their unsampled calls are
 * the countdown (or a test of the mark) and glibc's function, inline in
 * the entry points, which have no frame of their own
 * (heapprof_interceptors.c).  With the slow path in the same function,
 * each call also saved and restored six registers: cfrac's 10.9 million
 * malloc+free pairs ran 68 instructions each of heapprof's
 * (docs/performance.md, "Sampled mode"). */
void *hp_sample_malloc_slow(uptr size, uptr fp);
static HP_ALWAYS_INLINE bool hp_sample_unmarked(const void *p) {
  return !(((const u64 *)p)[-1] & HP_SAMPLE_MARK_BIT);
}
void hp_sample_free(void *p, u8 kind, uptr fp);
void *hp_sample_realloc(void *p, uptr size, uptr fp);

/* The entry points' sampled forms (the same contracts as the foreign ones,
 * heapprof_foreign.h). */
void *hp_sample_allocate(uptr size, uptr align, u8 kind, uptr fp, bool zero);
void *hp_sample_calloc(uptr n, uptr size, uptr fp);
void *hp_sample_memalign(uptr align, uptr size, uptr fp);
void *hp_sample_aligned_alloc(uptr align, uptr size, uptr fp);
int hp_sample_posix_memalign(void **out, uptr align, uptr size, uptr fp);
void *hp_sample_valloc(uptr size, uptr fp);
void *hp_sample_pvalloc(uptr size, uptr fp);
uptr hp_sample_usable_size(const void *p);

/* Dumps: every live sampled object, as hp_foreign_for_each_live. */
void hp_sample_for_each_live(hp_chunk_fn fn, void *arg);

/* A sampled object's end event, weighted (hp_sample_weigh), straight into
 * the HIB table and its size bins: a sampled free is one in thousands, so
 * its lock is no contention, and the default mode's free path keeps no
 * test for this.  For both sampled modes' frees; flags: the object's
 * (HP_CHUNK_WEIGHT_UP). */
void hp_sample_record_event(const hp_chunk_event_t *e, u8 flags);

/* An object of size bytes just sampled: how its weight 1/p(size) is
 * rounded to an integer, HP_CHUNK_WEIGHT_UP with probability the weight's
 * fraction, else 0 (so that the weight's expectation is exact), for its
 * flags.  Drawn once, so that every event of the object (its dumps'
 * pieces and its free) is weighed alike: a dump's live objects are then
 * never more than the allocations counted. */
u8 hp_sample_draw_weight(u64 size);
/* Scales the sums of h, built from one event of a sampled object of size
 * bytes whose flags are flags, by that object's integer weight.  For frees
 * here; for live objects, by the dump's fold (heapprof_rtl.c). */
void hp_sample_weigh(hp_hib_t *h, u64 size, u8 flags);

/* p(size) and the exponential draw, exposed for the unit test. */
double hp_sample_probability(u64 size, u64 mean);
double hp_sample_neg_log(double u); /* -ln(u), 0 < u <= 1 */

/* Tagged section 8 (docs/formats.md): u64 sample_bytes, when sampled. */
void hp_sample_write_section(hp_buf_t *b, const hp_profile_info_t *info);

#endif
