/* StackDepot: equal stacks share an id, ids are stable and dense,
 * concurrent insertion of the same stacks agrees on their ids, stacks come
 * back as they went in (frames 2 GiB or more apart too), and a stack of
 * frames near each other takes 4 bytes a frame. */
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
  uptr got[HP_MAX_STACK_DEPTH];
  EXPECT(hp_stackdepot_get(ib, got, &n));
  EXPECT_EQ(n, 3);
  EXPECT(got[0] == 1000 && got[1] == 2000 && got[2] == 3001);
  EXPECT(hp_stackdepot_get(e, got, &n) && n == 0);
  EXPECT(!hp_stackdepot_get(0, got, &n));
  EXPECT(!hp_stackdepot_get(hp_stackdepot_count() + 1000, got, &n));
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
    EXPECT(hp_stackdepot_get(sid[3], got, &m));
    EXPECT(m == 5 && got[2] == 0x7203 && got[3] == 0x7306);
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
  EXPECT(hp_stackdepot_get(ids[0][1234], got, &n));
  EXPECT(n == pn && !hp_memcmp(got, pcs, pn * sizeof(uptr)));

  /* Frames as far from the first as 4-byte offsets can say (2^31 - 1 up,
   * 2^31 down), then one past (2^31 up), an executable's and a library's
   * addresses, near ones again: the stack comes back as it went in, and a
   * stack that differs from it in any one frame by 2^32 (the same low
   * half: the same 4-byte offset where it has one) is another stack, also
   * when the front cache has the first's id for it (the same size, first
   * two and last frames). */
  {
    const uptr lib = 0x7f1234560000ull, exe = 0x555555554000ull;
    uptr far[12] = {lib,
                    lib + 0x7fffffffull, /* +(2^31 - 1): 4 bytes */
                    lib - 0x80000000ull, /* -2^31: the last that fits */
                    lib + 0x10,
                    lib + 0x80000000ull, /* +2^31: 8 bytes from here on */
                    lib + 0x20,
                    exe,
                    exe + 0x40,
                    lib + 0x24,
                    exe + 8,
                    lib - 0x80000001ull,
                    exe + 8 + 0x100000000ull};
    u32 fid = hp_stackdepot_put(far, 12);
    EXPECT_EQ(hp_stackdepot_put(far, 12), fid);
    EXPECT(hp_stackdepot_get(fid, got, &n));
    EXPECT(n == 12 && !hp_memcmp(got, far, sizeof(far)));
    uptr other[12];
    u32 changed = 0;
    for (u32 i = 0; i < 12; i++) {
      hp_memcpy(other, far, sizeof(far));
      other[i] += 0x100000000ull;
      u32 oid = hp_stackdepot_put(other, 12);
      changed += oid != fid && hp_stackdepot_put(other, 12) == oid &&
                 hp_stackdepot_get(oid, got, &n) && n == 12 &&
                 !hp_memcmp(got, other, sizeof(other));
    }
    EXPECT_EQ(changed, 12);
    EXPECT_EQ(hp_stackdepot_put(far, 12), fid);
  }

  /* 20,000 new stacks of 30 frames within one module: 32 bytes of entry
   * header with the first PC, and 29 offsets of 4 bytes, 148 bytes,
   * rounded to 8: 152 bytes a stack, 3,040,000 bytes (2.9 MiB): the arena
   * maps at most 4 more 1 MiB blocks (the first may continue one already
   * mapped).  As 8-byte PCs (32 + 240 = 272 bytes a stack) they took
   * 5,440,000 bytes, 5 or 6 blocks. */
  {
    u64 before_bytes = hp_stackdepot_bytes();
    uptr s30[30];
    for (u32 k = 0; k < 20000; k++) {
      for (u32 i = 0; i < 30; i++)
        s30[i] = 0x7f0000400000ull + (uptr)k * 4096 + i * 97;
      hp_stackdepot_put(s30, 30);
    }
    u64 grown = hp_stackdepot_bytes() - before_bytes;
    EXPECT(grown <= 4u << 20);
    if (grown > 4u << 20)
      printf("stackdepot_test: 20,000 stacks of 30 frames took %llu "
                "bytes of arena\n", (unsigned long long)grown);
  }
  return hp_test_done("stackdepot_test");
}
