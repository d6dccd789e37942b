/*===- heapprof_chunk.h - the 32-byte chunk header ----------------------===
 *
 * Part of heapprof.  Every chunk handed out is preceded by this header:
 *
 *   primary block, plain allocation:
 *   | header (32) | user bytes (requested) ........ | slack |
 *   ^ block start ^ user_beg (32-aligned)                   ^ block end
 *
 *   primary block, alignment > 32 (from_memalign = 1):
 *   | tag (16) | pad ... | header (32) | user bytes ......... | slack |
 *     tag = { HP_MEMALIGN_MAGIC, user_beg }, so a pointer into the block
 *     is checked conclusively against the one user_beg the block holds.
 *
 *   secondary (mmap) chunk:
 *   | hp_large_t | ... | header (32) | user bytes ........ |
 *   ^ map start (page)               ^ user_beg (page-aligned, or more)
 *
 * Blocks are multiples of 32 and 32-aligned and the header is 32 bytes, so
 * the 64-byte granule of a chunk's first user byte starts at or after its
 * header and the granule of its last byte ends before the next chunk's
 * first user byte: no shadow granule ever holds user bytes of two chunks.
 *
 *   word 0: state | from_memalign | alloc_kind | flags | requested_size
 *   word 1: timestamp_ms | cpu_id
 *   word 2: alloc_context_id | fork_gen
 *   word 3: data_type_id | alloc_cycles
 *===----------------------------------------------------------------------===*/
#ifndef HEAPPROF_CHUNK_H
#define HEAPPROF_CHUNK_H

#define HP_CHUNK_HEADER_SIZE 32u
#define HP_MIN_ALIGNMENT 32u

/* state: distinctive values so stale or foreign memory is not mistaken for
 * a header. */
enum {
  HP_CHUNK_ALLOCATED = 0xA1,
  HP_CHUNK_AVAILABLE = 0xF3,
};

/* alloc_kind: which family allocated it, for the mismatch check. */
enum {
  HP_ALLOC_MALLOC = 0,
  HP_ALLOC_NEW = 1,
  HP_ALLOC_NEW_ARRAY = 2,
};

/* flags */
enum {
  /* A dump already counted this live chunk (alloc_count, size); what it
   * does afterwards is a continuation. */
  HP_CHUNK_REPORTED = 1,
  /* The process's last profile (the exit one) folded this chunk live: it
   * is in that profile, and what it does afterwards goes into none.  Its
   * free records no event: the last dump writes back the threads' events
   * once more after its walk (heapprof_rtl.c), which would count it as
   * freed as well as live. */
  HP_CHUNK_LAST = 2,
  /* Sampled modes: the object's integer weight is 1/p(size) rounded up,
   * not down (hp_sample_draw_weight, drawn once when it is sampled). */
  HP_CHUNK_WEIGHT_UP = 0x40,
};

/* requested_size of a chunk too big for 32 bits: the size is in hp_large_t. */
#define HP_SIZE_IN_LARGE 0xffffffffu

typedef struct hp_chunk_header {
  u8 state;
  u8 from_memalign;
  u8 alloc_kind;
  u8 flags;
  u32 requested_size;
  u32 timestamp_ms;     /* allocation (or last dump that reported it) */
  u32 cpu_id;           /* cpu of the allocation */
  u32 alloc_context_id; /* StackDepot id of the allocation stack */
  u32 fork_gen;         /* hp_fork_gen when allocated (hp_chunk_inherited) */
  u32 data_type_id;     /* 0; with false_sharing=1 the object's place in
                           the simulated layout (heapprof_falseshare.h) */
  u32 alloc_cycles;     /* TSC cycles spent in the allocating call */
} hp_chunk_header_t;
_Static_assert(sizeof(hp_chunk_header_t) == HP_CHUNK_HEADER_SIZE,
               "chunk header must be 32 bytes");

/* How many fork()s lie between the first process and this one: 0 there, its
 * parent's plus one in a child (heapprof_signals.c).  A chunk allocated in
 * an ancestor was counted in the ancestor's profile: in this process it is
 * a continuation (alloc_count 0, live objects and bytes counted), not an
 * allocation -- the same as a chunk an earlier dump reported.  Counting it
 * again made every fork child repeat its parent's allocations (a bash
 * subshell: 26,692 of its 26,738). */
extern u32 hp_fork_gen;
static inline bool hp_chunk_inherited(const hp_chunk_header_t *h) {
  return h->fork_gen != hp_fork_gen;
}

/* In a fork child: hp_now_ms() at the fork (0 in the first process).  An
 * inherited object's lifetime in this process begins there: its parent
 * counts the part before the fork, up to its own free or end. */
extern u32 hp_fork_ms;
static inline u32 hp_lifetime_start(u32 alloc_ms, bool inherited) {
  return inherited && alloc_ms < hp_fork_ms ? hp_fork_ms : alloc_ms;
}

#define HP_MEMALIGN_MAGIC 0x6e67696c61706800ull /* "\0hpalign" */

typedef struct hp_memalign_tag {
  u64 magic;
  uptr user_beg;
} hp_memalign_tag_t;

static HP_ALWAYS_INLINE hp_chunk_header_t *hp_chunk_header(uptr user_beg) {
  return (hp_chunk_header_t *)(user_beg - HP_CHUNK_HEADER_SIZE);
}

/* The user start of the chunk a primary block of size bytes holds: the
 * memalign tag's pointer when the block starts with a valid tag, else
 * right after the header at the block's start. */
static HP_ALWAYS_INLINE uptr hp_block_user_beg(uptr block, uptr size) {
  const hp_memalign_tag_t *tag = (const hp_memalign_tag_t *)block;
  if (tag->magic == HP_MEMALIGN_MAGIC && tag->user_beg > block &&
      tag->user_beg < block + size)
    return tag->user_beg;
  return block + HP_CHUNK_HEADER_SIZE;
}

#endif
