/* Size classes: every block size maps to the smallest class that holds it;
 * classes are multiples of 32 (granule rule) and grow by at most 25% above
 * 512 bytes. */
#include "hp_test.h"

int main(void) {
  __heapprof_init();
  u32 prev = 0;
  for (u32 c = 1; c < HP_NUM_CLASSES; c++) {
    u32 s = hp_class_size(c);
    EXPECT(s % 32 == 0);
    EXPECT(s > prev);
    if (c > 15)
      EXPECT((u64)s * 4 <= (u64)prev * 5); /* <= 25% growth per class */
    prev = s;
  }
  EXPECT_EQ(hp_class_size(1), 64);
  EXPECT_EQ(hp_class_size(15), 512);
  EXPECT_EQ(hp_class_size(16), 640);
  EXPECT_EQ(hp_class_size(HP_NUM_CLASSES - 1), HP_MAX_PRIMARY_BLOCK);
  u32 bad = 0;
  for (uptr b = 1; b <= HP_MAX_PRIMARY_BLOCK; b++) {
    u32 c = hp_size_to_class(b);
    /* fits, and the class below would not */
    if (!c || hp_class_size(c) < b || (c > 1 && hp_class_size(c - 1) >= b))
      bad++;
  }
  EXPECT_EQ(bad, 0);
  EXPECT_EQ(hp_size_to_class(HP_MAX_PRIMARY_BLOCK + 1), 0);
  EXPECT_EQ(hp_size_to_class((uptr)1 << 40), 0);
  /* A 16-byte request needs 48 bytes with its header: the 64-byte class. */
  EXPECT_EQ(hp_class_size(hp_size_to_class(16 + HP_CHUNK_HEADER_SIZE)), 64);
  /* 40 bytes + 32 = 72 -> 96. */
  EXPECT_EQ(hp_class_size(hp_size_to_class(40 + HP_CHUNK_HEADER_SIZE)), 96);
  /* hp_primary_block_of finds a block by the class size's reciprocal:
   * every byte of the blocks carved so far (a first refill per class) maps
   * to its block, and the byte past the carved ones to none. */
  hp_thread_t *t = hp_thread_acquire();
  u32 wrong = 0;
  for (u32 c = 1; c < HP_NUM_CLASSES; c++) {
    bool fresh;
    uptr blk = hp_primary_alloc(t->caches, c, &fresh, &t->stats);
    EXPECT(blk != 0);
    u32 s = hp_class_size(c);
    for (uptr b = blk - 3 * (uptr)s; b < blk + 3 * (uptr)s; b += s) {
      if (!hp_primary_owns(b))
        continue;
      for (uptr x = 0; x < s; x += (x < 40 || x + 40 > s) ? 1 : 29) {
        u32 cls = 0;
        uptr got = hp_primary_block_of(b + x, &cls);
        if (got && (got != b || cls != c))
          wrong++;
      }
    }
    hp_primary_free(t->caches, c, blk, &t->stats);
  }
  hp_thread_release(t);
  EXPECT_EQ(wrong, 0);
  /* The reciprocal's claim for offsets anywhere in a region, checked with
   * the same formula on block boundaries up to HP_REGION_SIZE. */
  for (u32 c = 1; c < HP_NUM_CLASSES; c++) {
    u64 s = hp_class_size(c);
    u64 recip = (u64)((((unsigned __int128)1 << 64) + s - 1) / s);
    for (u64 k = HP_REGION_SIZE / s; k > 0; k = k * 7 / 8) {
      for (u64 off = k * s - 1; off <= k * s + 1 && off < HP_REGION_SIZE;
           off++)
        wrong += (u64)(((unsigned __int128)off * recip) >> 64) != off / s;
    }
  }
  EXPECT_EQ(wrong, 0);
  return hp_test_done("size_class_test");
}
