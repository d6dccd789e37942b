/* __heapprof_record_strided (the pass's -heapprof-strided-loops) against
 * its definition: one access at base + k * stride for every k < n, each
 * adding `each` to the counter of its granule, as n inline updates would
 * (the call gives n * each).
 * Every counter of the buffer is compared, so a count in a neighbouring
 * granule is caught too. */
#include "hp_test.h"

#define BUF_SIZE (64u * 1024)
#define GRANULES (BUF_SIZE / HP_GRANULE_SIZE)
#define MARGIN 256u

static char buf[BUF_SIZE] __attribute__((aligned(4096)));
static u64 ref[GRANULES];

static void reference(uptr base, intptr_t stride, u64 n, u64 each) {
  for (u64 k = 0; k < n; k++)
    ref[(base + k * (uptr)stride - (uptr)buf) / HP_GRANULE_SIZE] += each;
}

/* Returns 1 if the walk's counters match the reference. */
static int check(uptr base, intptr_t stride, u64 n, u64 each) {
  uptr p = (uptr)buf;
  hp_shadow_clear(p, p + BUF_SIZE);
  hp_memset(ref, 0, sizeof(ref));
  reference(base, stride, n, each);
  __heapprof_record_strided(base, stride, n * each, each);
  const u64 *c = hp_shadow_counter(p);
  for (uptr g = 0; g < GRANULES; g++)
    if (c[g] != ref[g]) {
      printf("base +%lu stride %ld n %llu each %llu: granule %lu has %llu, "
             "expected %llu\n",
             (unsigned long)(base - p), (long)stride, (unsigned long long)n,
             (unsigned long long)each, (unsigned long)g,
             (unsigned long long)c[g], (unsigned long long)ref[g]);
      return 0;
    }
  return 1;
}

int main(void) {
  __heapprof_init();
  static const intptr_t strides[] = {1,  2,  3,  4,  5,  7,  8,  12, 16, 24,
                                     31, 32, 33, 40, 48, 63, 64, 65, 72, 80,
                                     96, 128, 200, 4096};
  static const u64 counts[] = {0,  1,  2,  3,  4,  5,  7,  8,   9,  15,
                               16, 17, 31, 63, 64, 65, 100, 129, 257, 1000};
  const uptr p = (uptr)buf;
  int walks = 0, bad = 0;
  for (unsigned s = 0; s < sizeof(strides) / sizeof(strides[0]); s++)
    for (unsigned i = 0; i < sizeof(counts) / sizeof(counts[0]); i++)
      for (uptr off = 0; off < 2 * HP_GRANULE_SIZE; off++) {
        u64 n = counts[i], each = 1 + off % 3;
        uptr step = (uptr)strides[s];
        if (n && (n - 1) * step > BUF_SIZE - 2 * MARGIN - 2 * HP_GRANULE_SIZE)
          continue;
        /* Upwards from near the start, downwards from near the end. */
        uptr up = p + MARGIN + off;
        uptr down = p + BUF_SIZE - MARGIN - off;
        bad += !check(up, strides[s], n, each);
        bad += !check(down, -strides[s], n, each);
        walks += 2;
      }
  EXPECT_EQ(bad, 0);
  EXPECT(walks > 50000);

  /* Nothing for n = 0, whatever the base (the pass calls only when the
   * access ran, but the runtime does not count on it). */
  __heapprof_record_strided(0, 8, 0, 1);
  __heapprof_record_strided(~(uptr)0, -8, 0, 1);

  /* A walk leaving user space counts the accesses inside it and drops the
   * rest instead of writing outside the shadow. */
  uptr end = HP_USER_SPACE_END;
  u64 *last = hp_shadow_counter(end - 16);
  u64 before = *last;
  __heapprof_record_strided(end - 16, 8, 4, 1);
  EXPECT_EQ(*last - before, 2);
  __heapprof_record_strided(end + 64, -8, 9, 1); /* end + 64 down to end */
  EXPECT_EQ(*last - before, 2);
  *last = before;

  return hp_test_done("strided_test");
}
