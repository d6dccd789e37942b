/* HIB construction and merge, with values worked out by hand from the
 * MemInfoBlock definitions (see heapprof_hib.c). */
#include "hp_test.h"

static hp_chunk_event_t ev(u64 size, u64 acc, u32 ats, u32 dts, u32 acpu,
                           u32 dcpu) {
  hp_chunk_event_t e;
  hp_memset(&e, 0, sizeof(e));
  e.stack_id = 7;
  e.size = size;
  e.accesses = acc;
  e.alloc_ts = ats;
  e.dealloc_ts = dts;
  e.alloc_cpu = acpu;
  e.dealloc_cpu = dcpu;
  e.granules = 1;
  e.touched_granules = acc ? 1 : 0;
  e.pages = 1;
  e.touched_pages = acc ? 1 : 0;
  e.malloc_cycles = 100;
  e.free_cycles = 40;
  return e;
}

static void copy_hib(const hp_hib_t *h, void *arg) {
  *(hp_hib_t *)arg = *h;
}

int main(void) {
  hp_hib_t a, b, c;
  /* The formulas first, on a clock without resolution; the density's
   * lifetime with the coarse clock's bias taken out at the end. */
  u32 res_ms = hp_clock.res_ms;
  hp_clock.res_ms = 0;
  hp_chunk_event_t e1 = ev(10, 5, 100, 150, 0, 1);
  hp_hib_from_event(&a, &e1);
  /* density 5*100/10 = 50; lifetime 50; lifetime density 50*1000/50 = 1000 */
  EXPECT_EQ(a.mib.alloc_count, 1);
  EXPECT_EQ(a.mib.total_access_density, 50);
  EXPECT_EQ(a.mib.total_lifetime, 50);
  EXPECT_EQ(a.mib.total_lifetime_access_density, 1000);
  EXPECT_EQ(a.mib.num_migrated_cpu, 1);

  hp_chunk_event_t e2 = ev(30, 15, 120, 200, 0, 0);
  hp_hib_from_event(&b, &e2);
  /* density 50; lifetime 80; lifetime density 50*1000/80 = 625 */
  EXPECT_EQ(b.mib.total_lifetime_access_density, 625);
  hp_hib_merge(&a, &b);
  EXPECT_EQ(a.mib.alloc_count, 2);
  EXPECT_EQ(a.mib.total_access_count, 20);
  EXPECT_EQ(a.mib.min_access_count, 5);
  EXPECT_EQ(a.mib.max_access_count, 15);
  EXPECT_EQ(a.mib.total_size, 40);
  EXPECT_EQ(a.mib.min_size, 10);
  EXPECT_EQ(a.mib.max_size, 30);
  EXPECT_EQ(a.mib.total_lifetime, 130);
  EXPECT_EQ(a.mib.min_lifetime, 50);
  EXPECT_EQ(a.mib.max_lifetime, 80);
  EXPECT_EQ(a.mib.num_lifetime_overlaps, 1); /* 120 < 150 */
  EXPECT_EQ(a.mib.num_same_alloc_cpu, 1);    /* 0 == 0 */
  EXPECT_EQ(a.mib.num_same_dealloc_cpu, 0);  /* 0 != 1 */
  EXPECT_EQ(a.mib.num_migrated_cpu, 1);      /* accumulated: 1 + 0 */
  EXPECT_EQ(a.mib.total_access_density, 100);
  EXPECT_EQ(a.mib.total_lifetime_access_density, 1625);
  EXPECT_EQ(a.mib.min_lifetime_access_density, 625);
  EXPECT_EQ(a.mib.max_lifetime_access_density, 1000);
  EXPECT_EQ(a.mib.alloc_timestamp, 120);   /* latest merged */
  EXPECT_EQ(a.mib.dealloc_timestamp, 200);
  EXPECT_EQ(a.ext.malloc_cycles, 200);
  EXPECT_EQ(a.ext.touched_granules, 2);

  /* A migrated block merged later still counts (upstream drops it). */
  hp_chunk_event_t e4 = ev(10, 1, 210, 220, 1, 0);
  hp_hib_from_event(&c, &e4);
  hp_hib_merge(&a, &c);
  EXPECT_EQ(a.mib.num_migrated_cpu, 2);
  EXPECT_EQ(a.mib.alloc_count, 3);
  EXPECT_EQ(a.mib.min_access_count, 1);

  /* A continuation adds accesses and lifetime, not an object. */
  hp_chunk_event_t e3 = ev(10, 7, 300, 400, 0, 0);
  e3.continuation = true;
  hp_hib_from_event(&c, &e3);
  EXPECT_EQ(c.mib.alloc_count, 0);
  EXPECT_EQ(c.mib.total_size, 0);
  hp_hib_merge(&a, &c);
  EXPECT_EQ(a.mib.alloc_count, 3);
  EXPECT_EQ(a.mib.total_access_count, 28);
  EXPECT_EQ(a.mib.min_access_count, 1);
  EXPECT_EQ(a.mib.max_access_count, 15);
  EXPECT_EQ(a.mib.total_size, 50);
  EXPECT_EQ(a.mib.total_lifetime, 240);
  EXPECT_EQ(a.ext.continuations, 1);

  /* A continuation first, then the object: min/max come from the object. */
  hp_hib_from_event(&b, &e3);
  hp_hib_from_event(&c, &e2);
  hp_hib_merge(&b, &c);
  EXPECT_EQ(b.mib.alloc_count, 1);
  EXPECT_EQ(b.mib.min_access_count, 15);
  EXPECT_EQ(b.mib.total_access_count, 22);

  /* Size 0 counts as 1 byte; sizes past 32 bits saturate the u32 fields. */
  hp_chunk_event_t z = ev(0, 3, 0, 0, 0, 0);
  hp_hib_from_event(&c, &z);
  EXPECT_EQ(c.mib.total_size, 1);
  EXPECT_EQ(c.mib.total_access_density, 300);
  EXPECT_EQ(c.mib.total_lifetime_access_density, 300000); /* lifetime 0 -> 1 */
  hp_chunk_event_t big = ev(5ull << 30, 0, 0, 1, 0, 0);
  hp_hib_from_event(&c, &big);
  EXPECT_EQ(c.mib.total_size, 5ull << 30);
  EXPECT_EQ(c.mib.max_size, UINT32_MAX);
  EXPECT_EQ(c.ext.max_size64, 5ull << 30);
  /* mprof's size classes and live bytes, and the size bins, over events
   * at the class edges: small 0-32, medium 33-256, large 257-2048. */
  {
    static const struct {
      u64 size;
      bool cont, live;
    } evs[] = {
        {20, false, false},   {0, false, false},   {300, false, true},
        {3000, true, true},   {100, true, false},  {256, false, false},
        {257, false, false},  {32, false, false},  {33, false, false},
        {2048, false, false}, {2049, false, false}, {1025, false, true},
    };
    hp_hib_t sum;
    static hp_size_bins_t bins, twice;
    for (u32 i = 0; i < HP_ARRAY_SIZE(evs); i++) {
      hp_chunk_event_t e = ev(evs[i].size, 1, 0, 1, 0, 0);
      e.continuation = evs[i].cont;
      e.live = evs[i].live;
      hp_hib_from_event(&c, &e);
      if (i == 0)
        sum = c;
      else
        hp_hib_merge(&sum, &c);
      hp_size_bins_add_event(&bins, &e);
    }
    /* Allocated bytes leave out the continuations (3000, 100); size 0 is
     * 1 byte. */
    EXPECT_EQ(sum.ext.bytes_small, 20 + 1 + 32);
    EXPECT_EQ(sum.ext.bytes_medium, 256 + 33);
    EXPECT_EQ(sum.ext.bytes_large, 300 + 257 + 2048 + 1025);
    EXPECT_EQ(sum.ext.bytes_xlarge, 2049);
    EXPECT_EQ(sum.mib.total_size, 53 + 289 + 3630 + 2049);
    /* Live bytes count the live events, continuations included. */
    EXPECT_EQ(sum.ext.live_bytes, 300 + 3000 + 1025);
    EXPECT_EQ(sum.ext.live_bytes_small, 0);
    EXPECT_EQ(sum.ext.live_bytes_medium, 0);
    EXPECT_EQ(sum.ext.live_bytes_large, 300 + 1025);
    EXPECT_EQ(sum.ext.live_bytes_xlarge, 3000);
    /* Bins: allocs skip continuations, frees skip live events. */
    EXPECT_EQ(bins.allocs[0], 1);
    EXPECT_EQ(hp_size_bins_bytes(&bins, 0, false), 1);
    EXPECT_EQ(hp_size_bins_bytes(&bins, 0, true), 1);
    EXPECT_EQ(bins.allocs[300], 1);
    EXPECT_EQ(bins.frees[300], 0);
    EXPECT_EQ(bins.allocs[100], 0);
    EXPECT_EQ(bins.frees[100], 1);
    EXPECT_EQ(hp_size_bins_bytes(&bins, 100, true), 100);
    EXPECT_EQ(bins.allocs[256], 1);
    EXPECT_EQ(hp_size_bins_bytes(&bins, 256, false), 256);
    /* >1024: 2048, 2049 and 1025 allocated (3000 is a continuation), 2048
     * and 2049 freed (1025 and 3000 are live). */
    EXPECT_EQ(bins.allocs[HP_SIZE_BIN_BIG], 3);
    EXPECT_EQ(hp_size_bins_bytes(&bins, HP_SIZE_BIN_BIG, false), 2048 + 2049 + 1025);
    EXPECT_EQ(bins.frees[HP_SIZE_BIN_BIG], 2);
    EXPECT_EQ(hp_size_bins_bytes(&bins, HP_SIZE_BIN_BIG, true), 2048 + 2049);
    u64 allocs = 0, frees = 0;
    for (u32 i = 0; i < HP_NUM_SIZE_BINS; i++)
      allocs += bins.allocs[i], frees += bins.frees[i];
    EXPECT_EQ(allocs, 10);
    EXPECT_EQ(frees, 9);
    hp_size_bins_merge(&twice, &bins);
    hp_size_bins_merge(&twice, &bins);
    EXPECT_EQ(twice.allocs[HP_SIZE_BIN_BIG], 6);
    EXPECT_EQ(hp_size_bins_bytes(&twice, HP_SIZE_BIN_BIG, true), 2 * (2048 + 2049));
    EXPECT_EQ(twice.frees[100], 2);
  }

  /* hp_hib_add_event (the free path) is exactly merge(from_event(e)). */
  {
    hp_hib_t slow, fast;
    u64 x = 99;
    u32 diffs = 0;
    for (int round = 0; round < 200; round++) {
      hp_memset(&slow, 0, sizeof(slow));
      hp_memset(&fast, 0, sizeof(fast));
      for (int i = 0; i < 50; i++) {
        hp_chunk_event_t e;
        hp_memset(&e, 0, sizeof(e));
#define RND(m) ((x = x * 6364136223846793005ull + 1442695040888963407ull), (x >> 33) % (m))
        e.stack_id = 5;
        e.size = RND(3) ? RND(5000) : (u64)RND(8) << 31;
        e.accesses = RND(4) ? RND(1000) : 0;
        e.alloc_ts = (u32)RND(1000);
        e.dealloc_ts = (u32)(RND(10) ? e.alloc_ts + RND(500) : RND(1000));
        e.alloc_cpu = (u32)RND(3);
        e.dealloc_cpu = (u32)RND(3);
        e.granules = RND(100);
        e.touched_granules = RND(100);
        e.pages = RND(10);
        e.touched_pages = RND(10);
        e.malloc_cycles = RND(2) ? RND(1000) : 0;
        e.free_cycles = RND(2) ? RND(1000) : 0;
        e.continuation = RND(4) == 0;
        e.live = RND(5) == 0;
        hp_hib_t one;
        hp_hib_from_event(&one, &e);
        if (i == 0)
          slow = one;
        else
          hp_hib_merge(&slow, &one);
        if (i == 0)
          hp_hib_from_event(&fast, &e);
        else
          hp_hib_add_event(&fast, &e);
      }
#define HP_MIB_FIELD(type, name, raw) diffs += slow.mib.name != fast.mib.name;
#include "heapprof_mib_fields.inc"
#undef HP_MIB_FIELD
#define X(name, desc) diffs += slow.ext.name != fast.ext.name;
      HP_HIB_EXT_FIELDS(X)
#undef X
    }
    EXPECT_EQ(diffs, 0);
  }
  /* Five objects of one context, each a different size (the cache's key
   * path on every event: hp_hib_cache_add_key, the displaced key merged
   * by hp_hib_add_body), and the division shortcuts: no accesses (and one
   * access, which divides), lifetime 0 and 1 ms.  By the formulas at the top of heapprof_hib.c:
   *   size  acc  lifetime  density         lifetime density
   *    100    0     5      0               0
   *    250    7     0      700/250 = 2     2*1000/1 = 2000
   *   3000   12     1      1200/3000 = 0   0
   *     40    3   250      300/40 = 7      7000/250 = 28
   *     50    1     3      100/50 = 2      2000/3 = 666
   * The same whether merged one by one or through the per-thread cache. */
  {
    static const struct {
      u64 size, acc;
      u32 lifetime;
    } objs[] = {{100, 0, 5}, {250, 7, 0}, {3000, 12, 1}, {40, 3, 250}, {50, 1, 3}};
    static hp_hib_table_t t;
    static hp_hib_cache_t cache;
    hp_hib_table_init(&t, 3, 1);
    hp_hib_t plain;
    for (u32 i = 0; i < HP_ARRAY_SIZE(objs); i++) {
      hp_chunk_event_t e = ev(objs[i].size, objs[i].acc, 1000,
                              1000 + objs[i].lifetime, 0, 0);
      if (i == 0)
        hp_hib_from_event(&plain, &e);
      else
        hp_hib_add_event(&plain, &e);
      hp_hib_cache_add_event(&cache, &t, &e);
    }
    hp_hib_cache_flush(&cache, &t);
    static hp_hib_t cached;
    hp_hib_table_drain(&t, copy_hib, &cached);
    const hp_hib_t *hs[2] = {&plain, &cached};
    for (u32 j = 0; j < 2; j++) {
      const hp_mib_t *m = &hs[j]->mib;
      EXPECT_EQ(hs[j]->stack_id, 7);
      EXPECT_EQ(m->alloc_count, 5);
      EXPECT_EQ(m->total_size, 100 + 250 + 3000 + 40 + 50);
      EXPECT_EQ(m->min_size, 40);
      EXPECT_EQ(m->max_size, 3000);
      EXPECT_EQ(m->total_access_count, 23);
      EXPECT_EQ(m->min_access_count, 0);
      EXPECT_EQ(m->max_access_count, 12);
      EXPECT_EQ(m->total_lifetime, 259);
      EXPECT_EQ(m->min_lifetime, 0);
      EXPECT_EQ(m->max_lifetime, 250);
      EXPECT_EQ(m->total_access_density, 2 + 7 + 2);
      EXPECT_EQ(m->min_access_density, 0);
      EXPECT_EQ(m->max_access_density, 7);
      EXPECT_EQ(m->total_lifetime_access_density, 2000 + 28 + 666);
      EXPECT_EQ(m->min_lifetime_access_density, 0);
      EXPECT_EQ(m->max_lifetime_access_density, 2000);
      EXPECT_EQ(hs[j]->ext.max_size64, 3000);
      EXPECT_EQ(hs[j]->ext.bytes_medium, 100 + 250 + 40 + 50);
      EXPECT_EQ(hs[j]->ext.bytes_xlarge, 3000);
    }
    EXPECT_EQ(hp_memcmp(&plain, &cached, sizeof(plain)), 0);
  }

  /* A 4 ms clock: an end is read a tick late, so the lifetime access
   * density divides by the lifetime less 4 ms; the lifetime itself keeps
   * it.  An object freed in the tick it was allocated in (100 to 104)
   * divides by max(0, 1): density 50, lifetime density 50 * 1000.  One of
   * 54 ms divides by 50.  A continuation's piece (its start read as the
   * previous end, a tick late too) by its whole 50 ms.  The table path
   * (hp_hib_add_body) divides the same way. */
  hp_clock.res_ms = 4;
  hp_chunk_event_t t1 = ev(10, 5, 100, 104, 0, 0);
  hp_hib_from_event(&a, &t1);
  EXPECT_EQ(a.mib.total_lifetime, 4);
  EXPECT_EQ(a.mib.total_lifetime_access_density, 50000);
  hp_chunk_event_t t2 = ev(10, 5, 100, 154, 0, 0);
  hp_hib_from_event(&b, &t2);
  EXPECT_EQ(b.mib.total_lifetime, 54);
  EXPECT_EQ(b.mib.total_lifetime_access_density, 1000);
  hp_chunk_event_t t3 = ev(10, 5, 104, 154, 0, 0);
  t3.continuation = true;
  hp_hib_from_event(&c, &t3);
  EXPECT_EQ(c.mib.total_lifetime_access_density, 1000);
  {
    const hp_chunk_event_t *ts[3] = {&t1, &t2, &t3};
    static hp_hib_table_t t;
    static hp_hib_cache_t cache;
    hp_hib_table_init(&t, 3, 1);
    hp_hib_t plain, cached;
    for (u32 i = 0; i < 3; i++) {
      if (i == 0)
        hp_hib_from_event(&plain, ts[i]);
      else
        hp_hib_add_event(&plain, ts[i]);
      hp_hib_cache_add_event(&cache, &t, ts[i]);
    }
    hp_hib_cache_flush(&cache, &t);
    hp_hib_table_drain(&t, copy_hib, &cached);
    const hp_hib_t *hs[2] = {&plain, &cached};
    for (u32 j = 0; j < 2; j++) {
      /* Two objects; the continuation adds its density to the total. */
      EXPECT_EQ(hs[j]->mib.total_lifetime_access_density, 50000 + 1000 + 1000);
      EXPECT_EQ(hs[j]->mib.min_lifetime_access_density, 1000);
      EXPECT_EQ(hs[j]->mib.max_lifetime_access_density, 50000);
    }
  }
  hp_clock.res_ms = res_ms;
  return hp_test_done("hib_test");
}
