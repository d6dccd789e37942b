/* The heap-wide utilization scan (heapprof_util.c) against its definition
 * taken block by block: every block the primary carved, in address order,
 * a cursor counting each line and page once; a page touched when any of
 * its 64 counters is non-zero; a live chunk's bytes counted on the touched
 * pages it overlaps and on their touched lines.  The heap: chunks of every
 * small size, of sizes spanning pages, aligned ones (memalign tags), some
 * freed, with counters set at random over the whole carved heap. */
#include "hp_test.h"
#include "heapprof_util.h"
#include <malloc.h>
#include <stdlib.h>

typedef struct ref {
  hp_util_heap_t *out;
  uptr last_line, last_page; /* the last line and page counted, + 1 */
} ref_t;

static bool page_touched(uptr pg) {
  const u64 *c = hp_shadow_counter(pg);
  for (u32 i = 0; i < HP_PAGE_SIZE / HP_GRANULE_SIZE; i++)
    if (c[i])
      return true;
  return false;
}

static uptr overlap(uptr a, uptr b, uptr c, uptr d) {
  uptr lo = HP_MAX(a, c), hi = HP_MIN(b, d);
  return hi > lo ? hi - lo : 0;
}

static void ref_block(uptr block, u32 size, void *arg) {
  ref_t *r = arg;
  hp_util_heap_t *o = r->out;
  uptr user_beg = hp_block_user_beg(block, size);
  hp_chunk_header_t *h = hp_chunk_header(user_beg);
  uptr ub = 0, ue = 0;
  if (h->state == HP_CHUNK_ALLOCATED) {
    ub = user_beg;
    ue = HP_MIN(ub + (h->requested_size ? h->requested_size : 1),
                block + size);
    o->live_bytes += ue - ub;
    o->live_chunks++;
  }
  for (uptr g = HP_ROUND_DOWN(block, HP_GRANULE_SIZE); g < block + size;
       g += HP_GRANULE_SIZE) {
    uptr pg = HP_ROUND_DOWN(g, HP_PAGE_SIZE);
    bool pt = page_touched(pg), t = *hp_shadow_counter(g) != 0;
    if (pg + 1 > r->last_page) {
      o->pages++;
      o->touched_pages += pt;
      r->last_page = pg + 1;
    }
    if (g + 1 > r->last_line) {
      o->lines++;
      o->touched_lines += t;
      r->last_line = g + 1;
    }
    if (t)
      o->touched_line_live_bytes += overlap(g, g + HP_GRANULE_SIZE, ub, ue);
  }
  /* Page by page, the chunk's bytes on touched pages. */
  for (uptr pg = HP_ROUND_DOWN(block, HP_PAGE_SIZE); pg < block + size;
       pg += HP_PAGE_SIZE)
    if (page_touched(pg))
      o->touched_page_live_bytes += overlap(pg, pg + HP_PAGE_SIZE, ub, ue);
}

/* Large chunks: their own pages, scanned as the runtime does. */
static void ref_large(hp_large_t *l, void *arg) {
  hp_util_heap_t *o = arg;
  hp_chunk_header_t *h = hp_chunk_header(l->user_beg);
  if (h->state != HP_CHUNK_ALLOCATED)
    return;
  uptr ub = l->user_beg, ue = ub + (l->requested_size ? l->requested_size : 1);
  o->live_bytes += ue - ub;
  o->live_chunks++;
  uptr last_page = 0;
  for (uptr g = HP_ROUND_DOWN(ub, HP_GRANULE_SIZE); g < ue;
       g += HP_GRANULE_SIZE) {
    uptr pg = HP_ROUND_DOWN(g, HP_PAGE_SIZE);
    bool pt = page_touched(pg), t = *hp_shadow_counter(g) != 0;
    if (pg + 1 != last_page) {
      o->pages++;
      o->touched_pages += pt;
      if (pt)
        o->touched_page_live_bytes += overlap(pg, pg + HP_PAGE_SIZE, ub, ue);
      last_page = pg + 1;
    }
    o->lines++;
    o->touched_lines += t;
    if (t)
      o->touched_line_live_bytes += overlap(g, g + HP_GRANULE_SIZE, ub, ue);
  }
}

static void reference(hp_util_heap_t *o) {
  hp_memset(o, 0, sizeof(*o));
  ref_t r = {o, 0, 0};
  hp_primary_for_each_block(ref_block, &r);
  hp_secondary_lock();
  hp_secondary_for_each(ref_large, o);
  hp_secondary_unlock();
}

static u64 rng = 0x9e3779b97f4a7c15ull;
static u64 next(void) {
  rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
  return rng;
}

/* Sets every counter of [beg, end) at random: about a third zero. */
static void randomize(uptr beg, uptr end) {
  for (uptr g = HP_ROUND_DOWN(beg, HP_GRANULE_SIZE); g < end;
       g += HP_GRANULE_SIZE)
    *hp_shadow_counter(g) = next() % 3 ? next() % 50 + 1 : 0;
}

/* Calls fn on every carved block and every large mapping of the heap. */
typedef void (*range_fn)(uptr beg, uptr end);
static void range_block(uptr block, u32 size, void *arg) {
  (*(range_fn *)arg)(block, block + size);
}
static void range_large(hp_large_t *l, void *arg) {
  (*(range_fn *)arg)(l->map_beg, l->map_beg + l->map_size);
}
static void each_heap_range(range_fn fn) {
  hp_primary_for_each_block(range_block, &fn);
  hp_secondary_lock();
  hp_secondary_for_each(range_large, &fn);
  hp_secondary_unlock();
}

static int compare(const char *what) {
  hp_util_heap_t got, want;
  hp_util_heap_scan(&got, NULL);
  reference(&want);
  int bad = 0;
#define X(name, desc)                                                        \
  if (got.name != want.name) {                                               \
    printf("%s: %s = %llu, by definition %llu\n", what, #name,              \
           (unsigned long long)got.name, (unsigned long long)want.name);     \
    bad++;                                                                   \
  }
  HP_UTIL_HEAP_FIELDS(X)
#undef X
  return bad;
}

int main(void) {
  __heapprof_init();
  enum { N = 6000 };
  static void *p[N];
  for (int i = 0; i < N; i++) {
    u64 k = next() % 10;
    size_t size = k < 6   ? next() % 300 + 1    /* small, every class */
                  : k < 8 ? next() % 9000 + 1   /* up to a few pages */
                  : k < 9 ? next() % 100000 + 1 /* large ones too */
                          : 0;                  /* malloc(0) */
    p[i] = k == 9 && i % 2 ? memalign(256, next() % 700 + 1) : malloc(size);
  }
  /* Every counter of the heap, at random; then a third of the chunks
   * freed, so free blocks and live ones share lines and pages. */
  each_heap_range(randomize);
  EXPECT_EQ(compare("all live"), 0);
  for (int i = 0; i < N; i++)
    if (next() % 3 == 0) {
      free(p[i]);
      p[i] = NULL;
    }
  EXPECT_EQ(compare("a third freed"), 0);
  /* Every counter zero: nothing touched, every live chunk still counted
   * (this test's own, at least). */
  each_heap_range(hp_shadow_clear);
  hp_util_heap_t u;
  hp_util_heap_scan(&u, NULL);
  u64 live = 0;
  for (int i = 0; i < N; i++)
    live += p[i] != NULL;
  EXPECT_EQ(u.touched_lines, 0);
  EXPECT_EQ(u.touched_pages, 0);
  EXPECT_EQ(u.touched_line_live_bytes, 0);
  EXPECT_EQ(u.touched_page_live_bytes, 0);
  EXPECT(u.live_chunks >= live);
  EXPECT(u.lines > 0 && u.pages > 0);
  EXPECT_EQ(compare("untouched"), 0);
  for (int i = 0; i < N; i++)
    free(p[i]);
  /* A 64 MiB chunk with four touched lines (its first and last, and the
   * two either side of a boundary between pages of counters): the scans
   * count it exactly, and without swap they read none of the pages of
   * counters nobody wrote (docs/design.md, "Reading the counters"). */
  {
    const uptr size = 64ull << 20;
    char *big = malloc(size);
    uptr ub = (uptr)big, ue = ub + size;
    uptr mid = HP_ROUND_UP(ub + size / 2, 32768); /* a counter page's first granule */
    *hp_shadow_counter(ub) = 1;
    *hp_shadow_counter(mid - 64) = 1;
    *hp_shadow_counter(mid) = 1;
    *hp_shadow_counter(ue - 1) = 1;
    uptr sb = (uptr)hp_shadow_counter(ub);
    uptr ss = (uptr)hp_shadow_counter(ue - 1) + 8 - sb;
    EXPECT_EQ(hp_test_resident_pages(sb, ss), 4);
    bool known = !hp_test_swap_on();
    hp_util_heap_t u;
    hp_util_heap_scan(&u, NULL);
    if (known)
      EXPECT_EQ(hp_test_resident_pages(sb, ss), 4);
    hp_chunk_event_t e;
    hp_memset(&e, 0, sizeof(e));
    hp_util_dump_begin();
    hp_util_live_chunk(77, ub, size, &e);
    hp_util_dump_end();
    if (known)
      EXPECT_EQ(hp_test_resident_pages(sb, ss), 4);
    uptr lines = (HP_ROUND_UP(ue, 64) - HP_ROUND_DOWN(ub, 64)) / 64;
    uptr pages = (HP_ROUND_UP(ue, 4096) - HP_ROUND_DOWN(ub, 4096)) / 4096;
    EXPECT_EQ(e.live_lines, lines);
    EXPECT_EQ(e.live_touched_lines, 4);
    EXPECT_EQ(e.live_pages, pages);
    EXPECT_EQ(e.live_touched_pages, 4); /* mid - 64 and mid: two pages */
    EXPECT(u.touched_lines >= 4);
    EXPECT_EQ(compare("a large chunk, four lines touched"), 0);
    free(big);
  }
  return hp_test_done("util_test");
}
