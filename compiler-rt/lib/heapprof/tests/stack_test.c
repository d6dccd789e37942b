/* The frame-pointer walk on a hand-built stack: it records each frame's
 * return address - 1, keeps a frame only when its caller's frame is inside
 * the stack, and never reads outside [fp, top). */
#include "hp_test.h"

int main(void) {
  /* A fake stack: frames at slots 0, 4, 8, 12 (each: saved fp, return). */
  uptr st[32];
  hp_memset(st, 0, sizeof(st));
  uptr top = (uptr)&st[16];
  for (int f = 0; f < 4; f++) {
    st[f * 4] = (uptr)&st[f * 4 + 4]; /* caller's frame */
    st[f * 4 + 1] = 0x1000 + 0x100 * (uptr)f + 1;
  }
  uptr pcs[8];
  /* Frame 3's caller frame is at slot 16 == top: outside, so frame 3's
   * return address (into code above the stack's top) is not kept; frames
   * 0..2 are. */
  u32 n = hp_unwind(pcs, 8, (uptr)&st[0], top, false);
  EXPECT_EQ(n, 3);
  EXPECT_EQ(pcs[0], 0x1000);
  EXPECT_EQ(pcs[1], 0x1100);
  EXPECT_EQ(pcs[2], 0x1200);
  /* max cuts the walk. */
  EXPECT_EQ(hp_unwind(pcs, 2, (uptr)&st[0], top, false), 2);
  EXPECT_EQ(hp_unwind(pcs, 0, (uptr)&st[0], top, false), 0);
  /* A garbage frame pointer (below the current frame) ends the walk. */
  st[4] = (uptr)&st[0];
  EXPECT_EQ(hp_unwind(pcs, 8, (uptr)&st[0], top, false), 1);
  st[4] = (uptr)&st[8];
  /* A misaligned caller pointer in frame 2: frames 0 and 1 still have
   * valid callers, frame 1's caller (frame 2) has not -> 2 PCs. */
  st[8] = (uptr)&st[12] + 3;
  EXPECT_EQ(hp_unwind(pcs, 8, (uptr)&st[0], top, false), 2);
  st[8] = (uptr)&st[12];
  /* A pointer far outside the stack, same place. */
  st[8] = 0x7fffffff0000ull;
  EXPECT_EQ(hp_unwind(pcs, 8, (uptr)&st[0], top, false), 2);
  st[8] = (uptr)&st[12];
  /* The first frame itself outside the stack: nothing. */
  EXPECT_EQ(hp_unwind(pcs, 8, top, top, false), 0);
  /* A zero return address ends it. */
  st[5] = 0;
  EXPECT_EQ(hp_unwind(pcs, 8, (uptr)&st[0], top, false), 1);
  /* Recursion folding: a builder recursing through two call sites L and R
   * (the binary-trees shape) folds to the first occurrences. */
  {
    enum { SITE = 0x10, L = 0x20, R = 0x30, MAIN = 0x40, START = 0x50 };
    uptr a[] = {SITE, L, R, L, L, R, L, R, R, L, MAIN, START};
    u32 k = hp_fold_recursion(a, 12);
    EXPECT_EQ(k, 5);
    EXPECT(a[0] == SITE && a[1] == L && a[2] == R && a[3] == MAIN &&
           a[4] == START);
    /* Another path through the same recursion folds the same way. */
    uptr b[] = {SITE, L, R, R, R, L, L, L, L, MAIN, START};
    EXPECT_EQ(hp_fold_recursion(b, 11), 5);
    EXPECT(!hp_memcmp(a, b, 5 * sizeof(uptr)));
    /* No repeats: unchanged. */
    uptr c[] = {1, 2, 3, 4, 5};
    EXPECT_EQ(hp_fold_recursion(c, 5), 5);
    EXPECT(c[4] == 5);
    /* A repeat further back than the window is a new frame. */
    uptr d[12] = {7, 1, 2, 3, 4, 5, 6, 8, 9, 7, 10, 11};
    EXPECT_EQ(hp_fold_recursion(d, 12), 12);
  }
  /* Folding during the walk gives what folding the walked stack gives. */
  {
    enum { F = 24 };
    uptr big[4 * F + 8];
    hp_memset(big, 0, sizeof(big));
    uptr rets[F] = {0x10, 0x20, 0x30, 0x20, 0x20, 0x30, 0x20, 0x30, 0x30,
                    0x20, 0x40, 0x50, 0x60, 0x20, 0x70, 0x80, 0x90, 0xa0,
                    0xb0, 0xc0, 0xd0, 0xe0, 0xf0, 0x100};
    for (int f = 0; f < F; f++) {
      big[f * 4] = (uptr)&big[f * 4 + 4];
      big[f * 4 + 1] = 0x10000 + rets[f] + 1; /* return address */
    }
    uptr top2 = (uptr)&big[4 * F]; /* frame F-1 has its caller at the top */
    uptr plain[64], folded[64];
    u32 np = hp_unwind(plain, 64, (uptr)&big[0], top2, false);
    EXPECT_EQ(np, F - 1); /* the last frame's caller is at the top */
    u32 nf = hp_unwind(folded, 64, (uptr)&big[0], top2, true);
    u32 nr = hp_fold_recursion(plain, np);
    EXPECT_EQ(nf, nr);
    EXPECT(!hp_memcmp(folded, plain, nf * sizeof(uptr)));
    /* 23 frames walked: 0x10 0x20 0x30, the repeats folded, 0x40 0x50
     * 0x60, 0x20 again (4 after the last one: folded), then 9 new ones. */
    EXPECT_EQ(nf, 15);
    /* max counts kept frames. */
    EXPECT_EQ(hp_unwind(folded, 5, (uptr)&big[0], top2, true), 5);
    EXPECT_EQ(folded[4], 0x10000 + 0x50);
  }
  return hp_test_done("stack_test");
}
