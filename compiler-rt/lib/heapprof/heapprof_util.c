/*===- heapprof_util.c - heap utilization -------------------------------===
 *
 * Part of heapprof.  See heapprof_util.h for the definitions.
 *
 * The heap-wide scan goes a page at a time through each run of carved
 * blocks of each size class's region (a span's carved blocks, or spans
 * carved to their ends one after another): the lines and pages are those
 * of the carved runs, each counted once, and a
 * page's 64 counters are read once, into a mask of its touched lines.  The
 * blocks are met in address order as the pages advance: each block's
 * header once, and its live chunk's bytes on every touched page it
 * overlaps, on that page's touched lines (popcounts of the mask).  Large
 * chunks, which have pages of their own, are scanned one by one.  Pages
 * whose counters mincore shows were never written (hp_shadow_holes_zero)
 * count as untouched without being read.
 *
 * Per context, the dump walks live chunks in the same address order, so
 * the chunks of one context that share a page are consecutive among that
 * context's chunks: remembering, per context, the last page counted (and
 * whether the context touched it, and its bytes there while it was not yet
 * known touched) counts each page once without a set of pages.  A live
 * chunk's lines hold no other chunk's bytes (heapprof_chunk.h); another
 * allocator's objects (allocator=system|PATH, walked in address order too)
 * share lines and pages, so the last line counted is remembered as well:
 * a chunk's first line may be the context's previous chunk's last.  Large
 * chunks have pages of their own.
 *===----------------------------------------------------------------------===*/
#include "heapprof_internal.h"
#include "heapprof_util.h"

/* Written under the dump lock (hp_rtl_dump) by begin/live_chunk/end; read
 * by the section and text writers of the same dump. */
static hp_util_heap_t dump_heap;
static bool dump_heap_valid;

/* ------------------------------------------------------------ heap-wide */

typedef struct scan {
  hp_util_heap_t *out;
  uptr last_line; /* the last line counted (its address + 1), 0: none */
  uptr last_page; /* the last page counted (its address + 1) */
  uptr cur_page;  /* the page whose lines cur_mask holds (+ 1) */
  u64 cur_mask;   /* its touched lines */
  hp_shadow_holes_t holes; /* counters known to be 0, not read */
  hp_shadow_holes_t bholes; /* baselines known to be 0, not read */
  hp_util_blocks_t *blocks; /* or NULL */
} scan_t;

/* A line is touched when its counter moved since its baseline (the
 * accesses a dump's folds count: heapprof_shadow.h). */
static u64 page_mask(const u64 *c, hp_shadow_holes_t *bholes) {
  u64 mask = 0;
  for (u32 i = 0; i < HP_PAGE_SIZE / HP_GRANULE_SIZE; i++)
    mask |= (u64)(c[i] != 0) << i;
  return hp_shadow_moved_mask(c, HP_PAGE_SIZE / HP_GRANULE_SIZE, mask, bholes);
}

static bool page_touched(scan_t *s, uptr pg) {
  if (s->cur_page != pg + 1) {
    u64 mask = 0;
    if (!hp_shadow_holes_zero(&s->holes, pg))
      mask = page_mask(hp_shadow_counter(pg), &s->bholes);
    s->cur_page = pg + 1;
    s->cur_mask = mask;
  }
  return s->cur_mask != 0;
}

static uptr overlap(uptr a, uptr b, uptr c, uptr d) {
  uptr lo = HP_MAX(a, c), hi = HP_MIN(b, d);
  return hi > lo ? hi - lo : 0;
}

/* Counts [beg, end) of the heap; [ub, ue) is the live chunk in it (empty
 * when ub == ue). */
static void scan_range(scan_t *s, uptr beg, uptr end, uptr ub, uptr ue) {
  hp_util_heap_t *o = s->out;
  if (ue > ub) {
    o->live_bytes += ue - ub;
    o->live_chunks++;
  }
  for (uptr pg = HP_ROUND_DOWN(beg, HP_PAGE_SIZE); pg < end;
       pg += HP_PAGE_SIZE) {
    bool touched = page_touched(s, pg);
    if (pg + 1 > s->last_page) {
      o->pages++;
      o->touched_pages += touched;
      s->last_page = pg + 1;
    }
    uptr lb = HP_MAX(beg, pg), le = HP_MIN(end, pg + HP_PAGE_SIZE);
    if (!touched) { /* every counter of the page is 0 */
      uptr first = HP_ROUND_DOWN(lb, HP_GRANULE_SIZE);
      uptr n = (HP_ROUND_UP(le, HP_GRANULE_SIZE) - first) / HP_GRANULE_SIZE;
      if (first + 1 <= s->last_line)
        n--; /* the first line was counted with the previous block */
      o->lines += n;
      s->last_line = HP_ROUND_UP(le, HP_GRANULE_SIZE) - HP_GRANULE_SIZE + 1;
      continue;
    }
    o->touched_page_live_bytes += overlap(lb, le, ub, ue);
    for (uptr g = HP_ROUND_DOWN(lb, HP_GRANULE_SIZE); g < le;
         g += HP_GRANULE_SIZE) {
      bool t = s->cur_mask >> (g - pg) / HP_GRANULE_SIZE & 1;
      if (g + 1 > s->last_line) {
        o->lines++;
        o->touched_lines += t;
        s->last_line = g + 1;
      }
      if (t)
        o->touched_line_live_bytes +=
            overlap(g, g + HP_GRANULE_SIZE, ub, ue);
    }
  }
}

/* A primary block's live chunk [*ub, *ue), if any (as
 * hp_for_each_live_chunk finds it: a memalign tag first, else the header at
 * the block's start); else *ub == *ue. */
static HP_ALWAYS_INLINE void block_chunk(uptr block, u32 size, uptr *ub,
                                         uptr *ue) {
  uptr user_beg = hp_block_user_beg(block, size);
  hp_chunk_header_t *h = hp_chunk_header(user_beg);
  *ub = *ue = 0;
  if (__atomic_load_n(&h->state, __ATOMIC_ACQUIRE) == HP_CHUNK_ALLOCATED) {
    *ub = user_beg;
    *ue = HP_MIN(user_beg + (h->requested_size ? h->requested_size : 1),
                 block + size);
  }
}

/* Bits lo..hi (inclusive, hi < 64) of a u64. */
static HP_ALWAYS_INLINE u64 bits(uptr lo, uptr hi) {
  return (~0ull >> (63 - hi)) & (~0ull << lo);
}

/* The live bytes of [ub, ue) on page pg, whose touched lines are the bits
 * of mask (non-zero): on the page, and on its touched lines. */
static HP_ALWAYS_INLINE void chunk_on_page(hp_util_heap_t *o, uptr pg,
                                           u64 mask, uptr ub, uptr ue) {
  uptr a = HP_MAX(ub, pg), b = HP_MIN(ue, pg + HP_PAGE_SIZE);
  if (b <= a)
    return;
  o->touched_page_live_bytes += b - a;
  uptr ga = (a - pg) / HP_GRANULE_SIZE, gb = (b - 1 - pg) / HP_GRANULE_SIZE;
  u64 on = mask & bits(ga, gb);
  u64 bytes = (u64)__builtin_popcountll(on) * HP_GRANULE_SIZE;
  /* The first and last lines hold only part of [a, b). */
  if (on >> ga & 1)
    bytes -= a - (pg + ga * HP_GRANULE_SIZE);
  if (on >> gb & 1)
    bytes -= pg + (gb + 1) * HP_GRANULE_SIZE - b;
  o->touched_line_live_bytes += bytes;
}

typedef struct region_scan {
  hp_util_heap_t *out;
  hp_util_blocks_t *blocks; /* or NULL */
} region_scan_t;

/* One run of a size class's region: blocks of `size` carved from beg up
 * to beg + carved. */
static void scan_region(u32 class_id, uptr beg, uptr carved, u64 nfree,
                        u32 size, void *arg) {
  (void)class_id;
  (void)nfree;
  hp_util_heap_t *o = ((region_scan_t *)arg)->out;
  hp_util_blocks_t *blocks = ((region_scan_t *)arg)->blocks;
  if (!carved)
    return;
  uptr end = beg + carved;
  uptr lines_beg = HP_ROUND_DOWN(beg, HP_GRANULE_SIZE);
  uptr lines_end = HP_ROUND_UP(end, HP_GRANULE_SIZE);
  o->lines += (lines_end - lines_beg) / HP_GRANULE_SIZE;
  uptr next = beg;       /* the next block not yet read */
  uptr cub = 0, cue = 0; /* the last block read's live chunk */
  hp_shadow_holes_t holes, bholes;
  bool use_holes = hp_shadow_holes_worth(beg, end);
  if (use_holes)
    hp_shadow_holes_init(&holes);
  hp_shadow_holes_init(&bholes);
  for (uptr pg = HP_ROUND_DOWN(beg, HP_PAGE_SIZE); pg < end;
       pg += HP_PAGE_SIZE) {
    u64 mask = 0;
    if (!use_holes || !hp_shadow_holes_zero(&holes, pg))
      mask = page_mask(hp_shadow_counter(pg), &bholes);
    o->pages++;
    if (mask) {
      o->touched_pages++;
      uptr lo = HP_MAX(pg, lines_beg);
      uptr hi = HP_MIN(pg + HP_PAGE_SIZE, lines_end);
      o->touched_lines += (u64)__builtin_popcountll(
          mask & bits((lo - pg) / HP_GRANULE_SIZE,
                      (hi - pg) / HP_GRANULE_SIZE - 1));
      /* The chunk of a block begun on an earlier page. */
      if (cue > cub)
        chunk_on_page(o, pg, mask, cub, cue);
    }
    /* The blocks that begin on this page. */
    uptr stop = HP_MIN(pg + HP_PAGE_SIZE, end);
    for (; next < stop; next += size) {
      block_chunk(next, size, &cub, &cue);
      if (cue > cub) {
        o->live_bytes += cue - cub;
        o->live_chunks++;
        if (blocks)
          hp_util_blocks_add(blocks, next, size, cub);
        if (mask)
          chunk_on_page(o, pg, mask, cub, cue);
      }
    }
  }
}

static void scan_large(hp_large_t *l, void *arg) {
  hp_chunk_header_t *h = hp_chunk_header(l->user_beg);
  if (h->state != HP_CHUNK_ALLOCATED)
    return;
  uptr ue = l->user_beg + (l->requested_size ? l->requested_size : 1);
  scan_t *s = arg;
  if (s->blocks)
    hp_util_blocks_add(s->blocks, l->map_beg, l->map_size, l->user_beg);
  /* The table gives large chunks in no address order, and a large chunk
   * shares no line or page with another: what scan_range remembers of the
   * last line and page counted belongs to this chunk alone. */
  s->last_line = s->last_page = s->cur_page = 0;
  scan_range(s, l->user_beg, ue, l->user_beg, ue);
}

void hp_util_heap_scan(hp_util_heap_t *out, hp_util_blocks_t *blocks) {
  hp_memset(out, 0, sizeof(*out));
  region_scan_t r = {out, blocks};
  hp_primary_for_each_region(scan_region, &r);
  /* Large chunks never share a page with anything. */
  scan_t s = {out, 0, 0, 0, 0, {0}, {0}, blocks};
  hp_shadow_holes_init(&s.holes);
  hp_shadow_holes_init(&s.bholes);
  hp_secondary_lock();
  hp_secondary_for_each(scan_large, &s);
  hp_secondary_unlock();
}

/* ---------------------------------------------------------- per context */

typedef struct ctx_state {
  u64 stack_id;       /* 0: empty slot */
  uptr last_page;     /* + 1; 0: none yet */
  u64 pending;        /* bytes on last_page while it is not known touched */
  bool touched;       /* the context touched last_page */
  bool line_touched;  /* last_line was touched */
  uptr last_line;     /* + 1; 0: none yet */
  /* Another allocator's: the context's sums from the pre-pass, handed to
   * the first of its chunks the fold meets. */
  bool handed;
  u64 lines, touched_lines, line_bytes, pages, touched_pages, page_bytes;
} ctx_state_t;

static ctx_state_t *ctx_slots; /* open addressing on stack_id */
static u32 ctx_cap, ctx_n;
/* The baselines known to be 0 (a cursor for the whole dump: mincore once
 * per 16 MiB of heap, not once per chunk).  The dump's folds write
 * baselines only of chunks already looked at. */
static hp_shadow_holes_t live_bholes;

static bool ctx_grow(void) {
  ctx_state_t *old = ctx_slots;
  u32 old_cap = ctx_cap;
  u32 cap = old_cap ? old_cap * 2 : 1024;
  ctx_state_t *slots = hp_mmap((uptr)cap * sizeof(ctx_state_t));
  if (!slots)
    return false;
  ctx_cap = cap;
  ctx_slots = slots;
  for (u32 i = 0; i < old_cap; i++) {
    if (!old[i].stack_id)
      continue;
    u32 j = (u32)((old[i].stack_id * 0x9E3779B97F4A7C15ull) >> 32) &
            (ctx_cap - 1);
    while (ctx_slots[j].stack_id)
      j = (j + 1) & (ctx_cap - 1);
    ctx_slots[j] = old[i];
  }
  if (old)
    hp_munmap(old, (uptr)old_cap * sizeof(ctx_state_t));
  return true;
}

/* NULL if the table could not grow. */
static ctx_state_t *ctx_get(u64 id) {
  if ((ctx_n + 1) * 2 > ctx_cap && !ctx_grow())
    return NULL;
  u32 i = (u32)((id * 0x9E3779B97F4A7C15ull) >> 32) & (ctx_cap - 1);
  while (ctx_slots[i].stack_id && ctx_slots[i].stack_id != id)
    i = (i + 1) & (ctx_cap - 1);
  if (!ctx_slots[i].stack_id) {
    ctx_slots[i].stack_id = id;
    ctx_n++;
  }
  return &ctx_slots[i];
}

/* Another allocator's objects share lines, pages and granules: the
 * per-context figures are taken over all of them, in address order,
 * before any fold (the last profile's fold clears a shared granule for
 * the neighbour read next: heapprof_allocator.c). */
static bool prepassed, prepass_ok;

static void prepass_cb(hp_chunk_header_t *h, uptr user_beg, uptr size,
                       void *arg) {
  hp_chunk_event_t e;
  if (!hp_util_live_chunk(h->alloc_context_id, user_beg, size, &e)) {
    *(bool *)arg = false;
    return;
  }
  ctx_state_t *st = ctx_get(h->alloc_context_id);
  if (!st) {
    *(bool *)arg = false;
    return;
  }
  st->lines += e.live_lines;
  st->touched_lines += e.live_touched_lines;
  st->line_bytes += e.live_line_bytes;
  st->pages += e.live_pages;
  st->touched_pages += e.live_touched_pages;
  st->page_bytes += e.live_page_bytes;
}

void hp_util_dump_begin(void) {
  hp_shadow_holes_init(&live_bholes);
  /* Another allocator's heap is not heapprof's, whose is empty then: no
   * section, rather than one saying 0 live objects. */
  dump_heap_valid =
      hp_flags.heap_utilization && hp_foreign_state != HP_FOREIGN_ON;
  if (dump_heap_valid)
    hp_util_heap_scan(&dump_heap, NULL);
  prepassed = false;
  if (hp_flags.heap_utilization && hp_foreign_state == HP_FOREIGN_ON) {
    prepass_ok = true;
    hp_foreign_for_each_live_sorted(prepass_cb, &prepass_ok);
    prepassed = true;
  }
}

bool hp_util_after_fold(void) { return prepassed; }

void hp_util_dump_end(void) {
  prepassed = false;
  if (ctx_slots)
    hp_munmap(ctx_slots, (uptr)ctx_cap * sizeof(ctx_state_t));
  ctx_slots = NULL;
  ctx_cap = ctx_n = 0;
}

bool hp_util_live_chunk(u64 stack_id, uptr user_beg, uptr size,
                        hp_chunk_event_t *e) {
  e->live_lines = e->live_touched_lines = e->live_line_bytes = 0;
  e->live_pages = e->live_touched_pages = e->live_page_bytes = 0;
  if (!hp_flags.heap_utilization)
    return true;
  if (prepassed) {
    /* The fold of another allocator's chunk: its context's sums, once. */
    ctx_state_t *st = prepass_ok ? ctx_get(stack_id) : NULL;
    if (!st)
      return false; /* a table was refused: the sums are incomplete */
    if (!st->handed) {
      st->handed = true;
      e->live_lines = st->lines;
      e->live_touched_lines = st->touched_lines;
      e->live_line_bytes = st->line_bytes;
      e->live_pages = st->pages;
      e->live_touched_pages = st->touched_pages;
      e->live_page_bytes = st->page_bytes;
    }
    return true;
  }
  uptr end = user_beg + (size ? size : 1);
  if (end > HP_USER_SPACE_END || end < user_beg)
    return true;
  ctx_state_t *st = ctx_get(stack_id);
  if (!st)
    return false;
  bool shared_pages =
      hp_primary_owns(user_beg) || hp_foreign_state == HP_FOREIGN_ON;
  /* Counted already, with the context's previous chunk (another
   * allocator's): read then, before that chunk's fold could move its
   * baseline. */
  uptr first_line = HP_ROUND_DOWN(user_beg, HP_GRANULE_SIZE);
  bool first_seen = st->last_line == first_line + 1;
  hp_shadow_holes_t holes;
  bool use_holes = hp_shadow_holes_worth(user_beg, end);
  if (use_holes)
    hp_shadow_holes_init(&holes);
  for (uptr pg = HP_ROUND_DOWN(user_beg, HP_PAGE_SIZE); pg < end;
       pg += HP_PAGE_SIZE) {
    uptr lb = HP_MAX(user_beg, pg), le = HP_MIN(end, pg + HP_PAGE_SIZE);
    const u64 *c = hp_shadow_counter(lb);
    uptr n = (HP_ROUND_UP(le, HP_GRANULE_SIZE) -
              HP_ROUND_DOWN(lb, HP_GRANULE_SIZE)) / HP_GRANULE_SIZE;
    u64 any = 0; /* the moved lines, bit i: c[i] (n <= 64: one page) */
    if (!use_holes || !hp_shadow_holes_zero(&holes, lb)) {
      for (uptr i = 0; i < n; i++)
        any |= (u64)(c[i] != 0) << i;
      any = hp_shadow_moved_mask(c, (u32)n, any, &live_bholes);
    }
    bool seen = first_seen && lb == user_beg;
    if (seen)
      any = (any & ~1ull) | (u64)st->line_touched;
    e->live_lines += n - seen;
    if (any) {
      uptr g = HP_ROUND_DOWN(lb, HP_GRANULE_SIZE);
      for (uptr i = 0; i < n; i++, g += HP_GRANULE_SIZE)
        if (any >> i & 1) {
          e->live_touched_lines += !(seen && i == 0);
          e->live_line_bytes += overlap(g, g + HP_GRANULE_SIZE, lb, le);
        }
    }
    if (le == end)
      st->line_touched = any >> (n - 1) & 1;
    u64 bytes = le - lb;
    if (!shared_pages || st->last_page != pg + 1) {
      /* A page new to the context. */
      e->live_pages++;
      st->last_page = pg + 1;
      st->touched = any != 0;
      st->pending = any ? 0 : bytes;
      e->live_touched_pages += any != 0;
      e->live_page_bytes += any ? bytes : 0;
    } else if (st->touched) {
      e->live_page_bytes += bytes;
    } else if (any) {
      /* The context's earlier chunks on this page count now. */
      st->touched = true;
      e->live_touched_pages++;
      e->live_page_bytes += st->pending + bytes;
      st->pending = 0;
    } else {
      st->pending += bytes;
    }
  }
  st->last_line = HP_ROUND_DOWN(end - 1, HP_GRANULE_SIZE) + 1;
  return true;
}

/* ------------------------------------------------------------- output */

void hp_util_section_write(hp_buf_t *b, const hp_profile_info_t *info) {
  if (!dump_heap_valid)
    return;
#define X(name, desc) hp_buf_append(b, &dump_heap.name, 8);
  HP_UTIL_HEAP_FIELDS(X)
#undef X
}

void hp_util_text(hp_buf_t *b) {
  if (!dump_heap_valid)
    return;
  const hp_util_heap_t *h = &dump_heap;
  hp_buf_printf(b, "Heap utilization: ");
  hp_text_utilization(b, h->touched_line_live_bytes, h->touched_lines,
                      h->lines, h->touched_page_live_bytes, h->touched_pages,
                      h->pages);
}
