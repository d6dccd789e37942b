/* The set-associative table: hits merge, a full set evicts its least
 * recently merged entry into the spill log, and draining returns every
 * record, so per-context totals never depend on the table's size. */
#include "hp_test.h"

#define MAXID 64
static u64 counts[MAXID], accesses[MAXID];
static u32 records;

static void collect(const hp_hib_t *h, void *arg) {
  (void)arg;
  counts[h->stack_id] += h->mib.alloc_count;
  accesses[h->stack_id] += h->mib.total_access_count;
  records++;
}

static void insert(hp_hib_table_t *t, u64 id, u64 acc) {
  hp_chunk_event_t e;
  hp_memset(&e, 0, sizeof(e));
  e.stack_id = id;
  e.size = 8;
  e.accesses = acc;
  hp_hib_t h;
  hp_hib_from_event(&h, &e);
  hp_hib_table_insert(t, &h);
}

static void reset(void) {
  hp_memset(counts, 0, sizeof(counts));
  hp_memset(accesses, 0, sizeof(accesses));
  records = 0;
}

int main(void) {
  static hp_hib_table_t t;
  hp_hib_table_init(&t, 3, 2);
  /* ids 1..12: each set (id % 3) sees 4 distinct ids in 2 ways -> 2
   * evictions per set. */
  for (u64 id = 1; id <= 12; id++)
    insert(&t, id, id);
  EXPECT_EQ(hp_hib_table_evictions(&t), 6);
  /* Set 1 now holds 7 and 10; 1 and 4 were spilled.  Re-inserting 10 hits;
   * inserting 1 evicts 7 (least recently merged). */
  insert(&t, 10, 100);
  EXPECT_EQ(hp_hib_table_evictions(&t), 6);
  insert(&t, 1, 1000);
  EXPECT_EQ(hp_hib_table_evictions(&t), 7);
  reset();
  hp_hib_table_drain(&t, collect, NULL);
  EXPECT_EQ(counts[1], 2);
  EXPECT_EQ(accesses[1], 1001);
  EXPECT_EQ(counts[10], 2);
  EXPECT_EQ(accesses[10], 110);
  EXPECT_EQ(counts[7], 1);
  u64 total = 0;
  for (int i = 0; i < MAXID; i++)
    total += counts[i];
  EXPECT_EQ(total, 14);
  EXPECT_EQ(records, 6 + 7); /* 6 table entries + 7 spilled */
  /* Drained means empty. */
  reset();
  hp_hib_table_drain(&t, collect, NULL);
  EXPECT_EQ(records, 0);

  /* Tiny (1x1) and roomy (61x4) tables agree on every context's totals. */
  static hp_hib_table_t tiny, roomy;
  hp_hib_table_init(&tiny, 1, 1);
  hp_hib_table_init(&roomy, 61, 4);
  u64 x = 12345;
  for (int i = 0; i < 5000; i++) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    u64 id = 1 + (x >> 33) % (MAXID - 1);
    insert(&tiny, id, i);
    insert(&roomy, id, i);
  }
  u64 c1[MAXID], a1[MAXID];
  reset();
  hp_hib_table_drain(&roomy, collect, NULL);
  hp_memcpy(c1, counts, sizeof(c1));
  hp_memcpy(a1, accesses, sizeof(a1));
  EXPECT_EQ(hp_hib_table_evictions(&roomy), 0);
  reset();
  hp_hib_table_drain(&tiny, collect, NULL);
  EXPECT(hp_hib_table_evictions(&tiny) > 1000);
  u32 diff = 0;
  u64 sum = 0;
  for (int i = 0; i < MAXID; i++) {
    diff += c1[i] != counts[i] || a1[i] != accesses[i];
    sum += counts[i];
  }
  EXPECT_EQ(diff, 0);
  EXPECT_EQ(sum, 5000);
  return hp_test_done("hib_table_test");
}
