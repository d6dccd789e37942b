/* The set-associative table: hits merge, a full set evicts its least
 * recently merged entry into the spill log, and draining returns every
 * record, so per-context totals never depend on the table's size. */
#include "hp_test.h"
#include <pthread.h>
#include <sys/mman.h>

#define MAXID 72
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

/* The per-thread cache batches repeated events (hp_hib_run_t): it must
 * leave exactly what merging every event one at a time leaves.  The
 * reference is that plain cache, written out here: a slot per id mod
 * HP_HIB_CACHE_SLOTS, hp_hib_add_event on a hit, write-back into its own
 * table on a conflict, then a flush.  Both tables are drained in the same
 * order and every record must be byte for byte the same, size bins too. */
#define REC_MAX 4096
static hp_hib_t recs[2][REC_MAX];
static u32 nrecs[2];
static void keep(const hp_hib_t *h, void *arg) {
  u32 w = (u32)(uptr)arg;
  if (nrecs[w] < REC_MAX)
    recs[w][nrecs[w]] = *h;
  nrecs[w]++;
}

/* varied: a context's sizes mostly all different (larson's, a real
 * program's), so most events take hp_hib_cache_add_key and displace a key;
 * a third of them one size, so the second key is hit and moved first. */
static void check_cache_repeats(bool varied) {
  static hp_hib_table_t t_new, t_ref;
  static hp_hib_cache_t cache;
  static hp_hib_t ref_slots[HP_HIB_CACHE_SLOTS];
  static hp_size_bins_t ref_bins, new_bins;
  hp_hib_table_init(&t_new, 7, 2);
  hp_hib_table_init(&t_ref, 7, 2);
  hp_memset(ref_slots, 0, sizeof(ref_slots));
  hp_memset(&ref_bins, 0, sizeof(ref_bins));
  hp_memset(&new_bins, 0, sizeof(new_bins));
  nrecs[0] = nrecs[1] = 0;
  u64 x = varied ? 7 : 99;
  u32 repeats = 0;
  hp_chunk_event_t prev;
  hp_memset(&prev, 0, sizeof(prev));
  for (int i = 0; i < 20000; i++) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    u32 r = (u32)(x >> 33);
    hp_chunk_event_t e;
    hp_memset(&e, 0, sizeof(e));
    /* Runs of one context, then another: ids 1..150 share the 64 slots. */
    e.stack_id = (r % 8) ? (prev.stack_id ? prev.stack_id : 1)
                         : 1 + (r >> 3) % 150;
    if (varied)
      e.size = (r >> 6) % 3 ? 8 + (x >> 5) % 993 : 24;
    else
      e.size = (r >> 6) % 5 ? 24 : (r >> 9) % 3000;
    e.accesses = (r >> 12) % 4 ? 3 : (r >> 14) % 7;
    e.granules = 1 + e.size / 64 + (r >> 25) % 2;
    e.touched_granules = e.accesses ? 1 : 0;
    e.pages = 1;
    e.touched_pages = e.touched_granules;
    e.alloc_ts = (u32)(i / 300) + ((r >> 17) % 9 == 0);
    e.dealloc_ts = (u32)(i / 300) + 4;
    e.alloc_cpu = (r >> 20) % 11 == 0;
    e.dealloc_cpu = (r >> 21) % 13 == 0;
    e.continuation = (r >> 22) % 17 == 0;
    e.malloc_cycles = (r >> 23) % 16 == 0 ? 100 + r % 50 : 0;
    e.free_cycles = (r >> 24) % 16 == 0 ? 200 + r % 70 : 0;
    repeats += e.stack_id == prev.stack_id && e.size == prev.size &&
               e.accesses == prev.accesses && e.alloc_ts == prev.alloc_ts;
    prev = e;
    hp_hib_cache_add_event(&cache, &t_new, &e);
    hp_hib_t *s = &ref_slots[e.stack_id % HP_HIB_CACHE_SLOTS];
    hp_size_bins_add_event(&ref_bins, &e);
    if (s->stack_id == e.stack_id) {
      hp_hib_add_event(s, &e);
    } else {
      if (s->stack_id)
        hp_hib_table_insert(&t_ref, s);
      hp_hib_from_event(s, &e);
    }
  }
  if (varied)
    EXPECT(repeats > 500 && repeats < 5000);
  else
    EXPECT(repeats > 5000); /* the batching was exercised */
  hp_hib_cache_flush(&cache, &t_new);
  for (u32 i = 0; i < HP_HIB_CACHE_SLOTS; i++)
    if (ref_slots[i].stack_id)
      hp_hib_table_insert(&t_ref, &ref_slots[i]);
  hp_hib_table_drain(&t_new, keep, (void *)0);
  hp_hib_table_drain(&t_ref, keep, (void *)1);
  EXPECT_EQ(nrecs[0], nrecs[1]);
  EXPECT(nrecs[0] > 150 && nrecs[0] <= REC_MAX);
  u32 differ = 0;
  for (u32 i = 0; i < nrecs[0] && i < REC_MAX; i++)
    differ += hp_memcmp(&recs[0][i], &recs[1][i], sizeof(hp_hib_t)) != 0;
  EXPECT_EQ(differ, 0);
  hp_hib_table_take_bins(&t_new, &new_bins);
  EXPECT_EQ(hp_memcmp(&new_bins, &ref_bins, sizeof(ref_bins)), 0);
}

/* The owner section (heapprof_hib_table.h): one thread merges events into
 * its cache without the lock, as the free path does (enter, a locked
 * instruction, merge), while another flushes the same cache into the
 * table as fast as it can.  Every event must end up in the table once:
 * a merge that met a flush half way would lose it or count it twice.
 * Ids 1..4 and 65..68 share slots (a conflict writes the slot back from
 * the owner's side too); sizes and accesses vary, so keys move. */
#define RACE_EVENTS 2000000
static hp_hib_cache_t race_cache;
static hp_hib_table_t race_table;
static int race_done;
static u64 race_fence_word;

static void *race_owner(void *arg) {
  (void)arg;
  for (u32 i = 0; i < RACE_EVENTS; i++) {
    hp_chunk_event_t e;
    hp_memset(&e, 0, sizeof(e));
    e.stack_id = 1 + i % 4 + (i / 4 % 2) * 64;
    e.size = 8 + (i % 3) * 8;
    e.accesses = i % 7;
    hp_hib_cache_enter(&race_cache);
    __atomic_fetch_add(&race_fence_word, 1, __ATOMIC_ACQ_REL);
    hp_hib_cache_add_entered(&race_cache, &race_table, &e);
  }
  __atomic_store_n(&race_done, 1, __ATOMIC_RELEASE);
  return NULL;
}

static void check_owner_section(void) {
  hp_hib_table_init(&race_table, 61, 4);
  pthread_t owner;
  pthread_create(&owner, NULL, race_owner, NULL);
  u64 flushes = 0;
  while (!__atomic_load_n(&race_done, __ATOMIC_ACQUIRE)) {
    hp_hib_cache_flush(&race_cache, &race_table);
    flushes++;
  }
  pthread_join(owner, NULL);
  hp_hib_cache_flush(&race_cache, &race_table);
  reset();
  hp_hib_table_drain(&race_table, collect, NULL);
  u64 n = 0, acc = 0, want_acc = 0;
  for (int i = 0; i < MAXID; i++) {
    n += counts[i];
    acc += accesses[i];
  }
  for (u32 i = 0; i < RACE_EVENTS; i++)
    want_acc += i % 7;
  EXPECT_EQ(n, RACE_EVENTS);
  EXPECT_EQ(acc, want_acc);
  EXPECT(flushes > 0);
}

/* Pages of [p, p + size) in memory. */
static u64 resident_pages(const void *p, uptr size) {
  static unsigned char vec[8192];
  uptr pages = (size + 4095) / 4096;
  if (pages > sizeof(vec) || mincore((void *)p, size, vec))
    return ~0ull;
  u64 n = 0;
  for (uptr i = 0; i < pages; i++)
    n += vec[i] & 1;
  return n;
}

/* The memory a table touches is the records of the ways used and the
 * tags, however the contexts spread over the sets.  The default table
 * (16381 sets of 4 ways); 2000 contexts 8 sets apart, over nearly all of
 * them: 2000 records of sizeof(hp_hib_t) = 384 bytes, 750 KiB in 188
 * pages, and at most the whole tag array, 16381 x 64 bytes in 256 pages.
 * (Ways holding their HIBs in place touched a page per context: 8 MB.)
 * Drained and filled again, a way keeps its record; contexts that meet
 * them in their sets take the second ways, and 2000 records more. */
static void count_record(const hp_hib_t *h, void *arg) {
  (void)h;
  (void)arg;
  records++;
}

static void check_memory_touched(void) {
  static hp_hib_table_t t;
  const u32 sets = 16381, n = 2000;
  hp_hib_table_init(&t, sets, 4);
  for (u64 i = 0; i < n; i++)
    insert(&t, 1 + i * 8, 1);
  EXPECT_EQ(t.nrecs, n);
  u64 rec_pages = resident_pages(t.recs, (uptr)sets * 4 * sizeof(hp_hib_t));
  u64 tag_pages = resident_pages(t.tags, (uptr)sets * 4 * sizeof(hp_hib_tag_t));
  EXPECT(rec_pages <= (n * sizeof(hp_hib_t) + 4095) / 4096);
  EXPECT(tag_pages <= (sets * 4 * sizeof(hp_hib_tag_t) + 4095) / 4096);
  reset();
  hp_hib_table_drain(&t, count_record, NULL);
  EXPECT_EQ(records, n);
  for (u64 i = 0; i < n; i++)
    insert(&t, 1 + i * 8, 1);
  EXPECT_EQ(t.nrecs, n);
  for (u64 i = 0; i < n; i++)
    insert(&t, 1 + i * 8 + sets, 1);
  EXPECT_EQ(t.nrecs, 2 * n);
  reset();
  hp_hib_table_drain(&t, count_record, NULL);
  EXPECT_EQ(records, 2 * n);
  EXPECT_EQ(hp_hib_table_evictions(&t), 0);
}

/* A table too small for its contexts evicts at nearly every insert, and
 * the spill log used to keep every eviction: memory grew with the run, not
 * with the contexts (a program of 150,000 contexts: 1.66 GB after 6 M
 * frees).  A full log is compacted first, one record per context, and
 * grows only when that leaves it over half full.  100,000 inserts over 71
 * contexts into a 1x1 table: 99,999 evictions; the log never grows past
 * its first 4096 compaction threshold's doubling (8192 records); the
 * totals per context are every insert's, as in a roomy table. */
static void check_spill_compacted(void) {
  static hp_hib_table_t tiny, roomy;
  hp_hib_table_init(&tiny, 1, 1);
  hp_hib_table_init(&roomy, 61, 4);
  const int n = 100000;
  for (int i = 0; i < n; i++) {
    u64 id = 1 + (u64)i % (MAXID - 1);
    insert(&tiny, id, (u64)i);
    insert(&roomy, id, (u64)i);
  }
  EXPECT_EQ(hp_hib_table_evictions(&tiny), (u64)n - 1);
  EXPECT(tiny.spill_compactions >= 1);
  EXPECT(tiny.spill_cap <= 8192);
  u64 c1[MAXID], a1[MAXID];
  reset();
  hp_hib_table_drain(&roomy, collect, NULL);
  hp_memcpy(c1, counts, sizeof(c1));
  hp_memcpy(a1, accesses, sizeof(a1));
  reset();
  hp_hib_table_drain(&tiny, collect, NULL);
  u32 diff = 0;
  u64 sum = 0, acc = 0;
  for (int i = 0; i < MAXID; i++) {
    diff += c1[i] != counts[i] || a1[i] != accesses[i];
    sum += counts[i];
    acc += accesses[i];
  }
  EXPECT_EQ(diff, 0);
  EXPECT_EQ(sum, (u64)n);
  EXPECT_EQ(acc, (u64)n * (n - 1) / 2);
  /* Each id once in the log after a compaction, plus what came since. */
  EXPECT(records <= (MAXID - 1) + 8192);
}

/* The peak's overhead reads the spill log's room without the log's lock:
 * one word, spill_room, the log's and those of logs a dump took and still
 * reads, moved only when the room changes.  A 1x1 table evicts at every
 * insert of another id: 299 evictions fill a log grown 256 -> 512; taking
 * it hands its 512 over (room unchanged); 10 more evictions start a new
 * log of 256 (768); freeing the taken one leaves the new one's 256. */
static void check_spill_room(void) {
  static hp_hib_table_t t;
  hp_hib_table_init(&t, 1, 1);
  for (int i = 0; i < 300; i++)
    insert(&t, 1 + (u64)i % (MAXID - 1), 1);
  EXPECT_EQ(t.spill_len, 299);
  EXPECT_EQ(t.spill_cap, 512);
  EXPECT_EQ(t.spill_room, 512);
  hp_hib_log_t log;
  reset();
  hp_hib_table_drain_taking_log(&t, collect, NULL, &log);
  EXPECT_EQ(log.len, 299);
  EXPECT_EQ(t.spill_room, 512);
  for (int i = 0; i < 11; i++)
    insert(&t, 1 + (u64)i, 1);
  EXPECT_EQ(t.spill_cap, 256);
  EXPECT_EQ(t.spill_room, 512 + 256);
  hp_hib_log_free(&t, &log);
  EXPECT_EQ(t.spill_room, 256);
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
  check_cache_repeats(false);
  check_cache_repeats(true);
  check_owner_section();
  check_memory_touched();
  check_spill_compacted();
  check_spill_room();
  return hp_test_done("hib_table_test");
}
