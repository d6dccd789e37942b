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
  u32 n = hp_unwind(pcs, 8, (uptr)&st[0], top);
  EXPECT_EQ(n, 3);
  EXPECT_EQ(pcs[0], 0x1000);
  EXPECT_EQ(pcs[1], 0x1100);
  EXPECT_EQ(pcs[2], 0x1200);
  /* max cuts the walk. */
  EXPECT_EQ(hp_unwind(pcs, 2, (uptr)&st[0], top), 2);
  EXPECT_EQ(hp_unwind(pcs, 0, (uptr)&st[0], top), 0);
  /* A garbage frame pointer (below the current frame) ends the walk. */
  st[4] = (uptr)&st[0];
  EXPECT_EQ(hp_unwind(pcs, 8, (uptr)&st[0], top), 1);
  st[4] = (uptr)&st[8];
  /* A misaligned caller pointer in frame 2: frames 0 and 1 still have
   * valid callers, frame 1's caller (frame 2) has not -> 2 PCs. */
  st[8] = (uptr)&st[12] + 3;
  EXPECT_EQ(hp_unwind(pcs, 8, (uptr)&st[0], top), 2);
  st[8] = (uptr)&st[12];
  /* A pointer far outside the stack, same place. */
  st[8] = 0x7fffffff0000ull;
  EXPECT_EQ(hp_unwind(pcs, 8, (uptr)&st[0], top), 2);
  st[8] = (uptr)&st[12];
  /* The first frame itself outside the stack: nothing. */
  EXPECT_EQ(hp_unwind(pcs, 8, top, top), 0);
  /* A zero return address ends it. */
  st[5] = 0;
  EXPECT_EQ(hp_unwind(pcs, 8, (uptr)&st[0], top), 1);
  return hp_test_done("stack_test");
}
