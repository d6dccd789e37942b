/*===- heapprof_util.h - heap utilization -------------------------------===
 *
 * Part of heapprof.  Heap utilization as the allocator-profiler design
 * defines it: over the 64-byte cache lines (and the 4 KiB pages) the
 * program touched, the fraction of their bytes that belong to live
 * objects.  Computed from the access-count shadow when a profile is
 * written, in two forms:
 *
 *   heap-wide   every line and page of heapprof's heap (every block the
 *               primary ever carved, every live large chunk) with a
 *               non-zero counter; the live bytes are the requested bytes
 *               of every live chunk on those lines/pages.  A block freed
 *               and not reused keeps the counts of its last life, so a
 *               line the program touched and then freed counts as touched
 *               and empty.  One tagged section per dump (tag 7).
 *   per context the lines and pages holding the context's live objects,
 *               each counted once however many of its objects share it,
 *               touched when one of the context's lines on it has a
 *               non-zero counter; the live bytes are the context's own.
 *               Extension fields live_lines ... live_page_bytes.
 *
 *   utilization = live bytes on touched lines / (64 * touched lines)
 *               (pages: / (4096 * touched pages))
 *
 * A dump resets the counters of live chunks (heapprof_allocator.c), so a
 * checkpoint's figures cover the accesses since the previous dump (a freed
 * block's counts since its last allocation).  docs/allocator-profiler.md.
 *===----------------------------------------------------------------------===*/
#ifndef HEAPPROF_UTIL_H
#define HEAPPROF_UTIL_H

/* The heap-wide figures; the payload of tagged section 7, in this order. */
#define HP_UTIL_HEAP_FIELDS(X)                                               \
  X(lines, "64-byte lines of the heap's blocks and live large chunks")       \
  X(touched_lines, "of those, with a non-zero access counter")               \
  X(touched_line_live_bytes, "live requested bytes on the touched lines")    \
  X(pages, "4 KiB pages of the heap's blocks and live large chunks")         \
  X(touched_pages, "of those, with a touched line")                          \
  X(touched_page_live_bytes, "live requested bytes on the touched pages")    \
  X(live_bytes, "requested bytes of every live chunk")                       \
  X(live_chunks, "live chunks")

typedef struct hp_util_heap {
#define X(name, desc) u64 name;
  HP_UTIL_HEAP_FIELDS(X)
#undef X
} hp_util_heap_t;

/* The blocks of the live chunks, which the scan reads anyway: what the
 * peak's overhead figures need (heapprof_peak.c), so that measuring them
 * does not read every header of the heap a second time. */
typedef struct hp_util_blocks {
  u64 block_bytes;  /* a live primary chunk's block, a live large chunk's
                     * mapping */
  u64 header_bytes; /* from such a block's start to its chunk's first byte */
} hp_util_blocks_t;

/* Adds one live chunk: its block [block_beg, block_beg + len) and the
 * bytes before user_beg, the chunk's first byte.  The one definition for
 * the scan and the peak's own walk (heap_utilization=0). */
static HP_ALWAYS_INLINE void hp_util_blocks_add(hp_util_blocks_t *b,
                                                uptr block_beg, uptr len,
                                                uptr user_beg) {
  b->block_bytes += len;
  b->header_bytes += user_beg - block_beg;
}

/* Scans the whole heap's counters into *out (before a dump clears the live
 * chunks' counters), and, when blocks is not NULL, adds the live chunks'
 * blocks to *blocks.  Cost: one read of every shadow counter of the heap
 * and of every block's header.  The peak snapshot calls it too. */
void hp_util_heap_scan(hp_util_heap_t *out, hp_util_blocks_t *blocks);

/* A dump: hp_util_dump_begin (the heap-wide scan, kept for the dump's
 * section), hp_util_live_chunk for each live chunk in the walk's address
 * order (hp_for_each_live_chunk), before the fold moves its baselines,
 * then hp_util_dump_end.  Under the dump lock.  hp_util_live_chunk is
 * false when a mapping it needed was refused (the event's numbers are
 * then incomplete). */
void hp_util_dump_begin(void);
struct hp_chunk_event;
bool hp_util_live_chunk(u64 stack_id, uptr user_beg, uptr size,
                        struct hp_chunk_event *e);
void hp_util_dump_end(void);
/* Another allocator's dump (allocator=system|PATH): the per-context
 * figures were taken by hp_util_dump_begin over all live objects in
 * address order, before any fold; hp_util_live_chunk hands each context's
 * sums to its first chunk, and is called after that chunk's fold (so a
 * chunk freed meanwhile does not take them along). */
bool hp_util_after_fold(void);

/* Tagged section 7 (nothing when heap_utilization=0). */
void hp_util_section_write(hp_buf_t *b, const hp_profile_info_t *info);
/* The text profile's "Heap utilization" line. */
void hp_util_text(hp_buf_t *b);

#endif
