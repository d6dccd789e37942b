/* Shadow counters: the range rule, scans, and the allocator's guarantees
 * (cleared at allocation, never shared with a neighbouring chunk). */
#include "hp_test.h"
#include <stdlib.h>

static char buf[8192] __attribute__((aligned(4096)));

int main(void) {
  __heapprof_init();
  uptr p = (uptr)buf;
  hp_shadow_clear(p, p + sizeof(buf));
  hp_shadow_scan_t s;
  hp_shadow_scan(p, sizeof(buf), &s);
  EXPECT_EQ(s.accesses, 0);
  EXPECT_EQ(s.granules, 128);
  EXPECT_EQ(s.pages, 2);

  hp_shadow_record_range(p, 40);     /* words 0..4: 5 in granule 0 */
  EXPECT_EQ(*hp_shadow_counter(p), 5);
  hp_shadow_record_range(p + 60, 8); /* words 7 and 8: one per granule */
  EXPECT_EQ(*hp_shadow_counter(p), 6);
  EXPECT_EQ(*hp_shadow_counter(p + 64), 1);
  hp_shadow_record_range(p + 1, 1);  /* a byte: one word */
  EXPECT_EQ(*hp_shadow_counter(p), 7);
  hp_shadow_record_range(p + 4096, 4096); /* 512 words, 8 per granule */
  EXPECT_EQ(*hp_shadow_counter(p + 4096), 8);
  EXPECT_EQ(*hp_shadow_counter(p + 8191), 8);
  hp_shadow_scan(p, sizeof(buf), &s);
  EXPECT_EQ(s.accesses, 7 + 1 + 512);
  EXPECT_EQ(s.touched_granules, 2 + 64);
  EXPECT_EQ(s.touched_pages, 2);
  hp_shadow_scan(p + 64, 1, &s); /* one byte: one granule */
  EXPECT_EQ(s.granules, 1);
  EXPECT_EQ(s.accesses, 1);
  hp_shadow_clear(p, p + 1); /* clears granule 0 only */
  EXPECT_EQ(*hp_shadow_counter(p), 0);
  EXPECT_EQ(*hp_shadow_counter(p + 64), 1);
  hp_shadow_clear(p, p + sizeof(buf)); /* 1 KiB of shadow */
  hp_shadow_scan(p, sizeof(buf), &s);
  EXPECT_EQ(s.accesses, 0);

  /* Neighbours: hammering chunk q never shows in chunk r allocated right
   * before it, whatever the size. */
  u32 leaks = 0, stale = 0;
  for (uptr size = 1; size <= 700; size++) {
    char *volatile r = malloc(size);
    char *volatile q = malloc(size);
    __heapprof_record_access(q);
    __heapprof_record_access(q + size - 1);
    __heapprof_record_access_range(q, size);
    hp_shadow_scan((uptr)r, size, &s);
    leaks += s.accesses != 0;
    /* Reuse: the freed block comes back with zero counters. */
    free(q);
    char *volatile q2 = malloc(size);
    hp_shadow_scan((uptr)q2, size, &s);
    stale += s.accesses != 0;
    free(q2);
    free(r);
  }
  EXPECT_EQ(leaks, 0);
  EXPECT_EQ(stale, 0);
  return hp_test_done("shadow_test");
}
