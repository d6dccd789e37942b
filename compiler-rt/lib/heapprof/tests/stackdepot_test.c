/* StackDepot: equal stacks share an id, ids are stable and dense, and
 * concurrent insertion of the same stacks agrees on their ids. */
#include "hp_test.h"
#include <pthread.h>

#define NSTACKS 5000
static u32 ids[4][NSTACKS];

static void make_stack(u32 k, uptr *pcs, u32 *n) {
  *n = 1 + k % 20;
  for (u32 i = 0; i < *n; i++)
    pcs[i] = 0x400000 + k * 64 + i;
}

static void *worker(void *arg) {
  u32 t = (u32)(uptr)arg;
  uptr pcs[32];
  u32 n;
  for (u32 j = 0; j < NSTACKS; j++) {
    u32 k = (j * 7 + t * 1013) % NSTACKS; /* each thread its own order */
    make_stack(k, pcs, &n);
    ids[t][k] = hp_stackdepot_put(pcs, n);
  }
  return NULL;
}

int main(void) {
  __heapprof_init();
  u32 before = hp_stackdepot_count();
  uptr a[3] = {1000, 2000, 3000}, b[3] = {1000, 2000, 3001};
  u32 ia = hp_stackdepot_put(a, 3), ib = hp_stackdepot_put(b, 3);
  EXPECT(ia != 0 && ib != 0 && ia != ib);
  EXPECT_EQ(hp_stackdepot_put(a, 3), ia);
  EXPECT(hp_stackdepot_put(a, 2) != ia); /* a prefix is another stack */
  u32 e = hp_stackdepot_put(a, 0);        /* the empty stack has an id too */
  EXPECT(e != 0);
  EXPECT_EQ(hp_stackdepot_put(b, 0), e);
  u32 n = 0;
  const uptr *got = hp_stackdepot_get(ib, &n);
  EXPECT(got != NULL);
  EXPECT_EQ(n, 3);
  EXPECT(got && got[2] == 3001);
  EXPECT(hp_stackdepot_get(0, &n) == NULL);
  EXPECT(hp_stackdepot_get(hp_stackdepot_count() + 1000, &n) == NULL);
  EXPECT_EQ(hp_stackdepot_count(), before + 4);

  /* Stacks the per-thread front cache cannot tell apart (the same size,
   * first two and last PCs: one slot), interleaved, and stacks of other
   * sizes in between: each keeps its own id. */
  {
    uptr s[6][5];
    u32 sid[6];
    for (u32 k = 0; k < 6; k++) {
      uptr v[5] = {0x7000, 0x7100, 0x7200 + k, 0x7300 + k * 2, 0x7400};
      hp_memcpy(s[k], v, sizeof(v));
      sid[k] = hp_stackdepot_put(s[k], 5);
    }
    u32 distinct = 0;
    for (u32 k = 0; k < 6; k++)
      for (u32 j = 0; j < k; j++)
        distinct += sid[j] != sid[k];
    EXPECT_EQ(distinct, 15);
    u32 wrong = 0;
    for (u32 r = 0; r < 600; r++) {
      u32 k = (r * 5 + r / 7) % 6;
      wrong += hp_stackdepot_put(s[k], 5) != sid[k];
      wrong += hp_stackdepot_put(s[k], 4) == sid[k]; /* a prefix */
      wrong += hp_stackdepot_put(a, 3) != ia;
    }
    EXPECT_EQ(wrong, 0);
    u32 m;
    const uptr *p3 = hp_stackdepot_get(sid[3], &m);
    EXPECT(p3 && m == 5 && p3[2] == 0x7203 && p3[3] == 0x7306);
  }

  pthread_t th[4];
  u32 mid = hp_stackdepot_count();
  for (uptr t = 0; t < 4; t++)
    pthread_create(&th[t], NULL, worker, (void *)t);
  for (int t = 0; t < 4; t++)
    pthread_join(th[t], NULL);
  u32 mismatches = 0;
  for (u32 k = 0; k < NSTACKS; k++)
    for (int t = 1; t < 4; t++)
      mismatches += ids[t][k] != ids[0][k];
  EXPECT_EQ(mismatches, 0);
  /* Exactly NSTACKS new ids (plus whatever the threads' own allocations
   * added: thread start-up allocates from libc). */
  EXPECT(hp_stackdepot_count() - mid >= NSTACKS);
  uptr pcs[32];
  u32 pn;
  make_stack(1234, pcs, &pn);
  got = hp_stackdepot_get(ids[0][1234], &n);
  EXPECT(got && n == pn && !hp_memcmp(got, pcs, pn * sizeof(uptr)));
  return hp_test_done("stackdepot_test");
}
