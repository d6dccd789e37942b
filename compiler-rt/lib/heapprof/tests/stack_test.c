/* The frame-pointer walk on a hand-built stack: it records each frame's
 * return address - 1, keeps a frame only when its caller's frame is inside
 * the stack, and never reads outside [fp, top). */
#include "hp_test.h"

#include <signal.h>
#include <stdlib.h>
#include <sys/time.h>

/* The folding rule written out plainly: drop pcs[i] if it equals one of
 * the (up to) 8 walked PCs before it. */
static u32 fold_reference(const uptr *in, u32 n, uptr *out) {
  u32 k = 0;
  for (u32 i = 0; i < n; i++) {
    bool repeat = false;
    for (u32 j = 1; j <= 8 && j <= i; j++)
      repeat |= in[i - j] == in[i];
    if (!repeat)
      out[k++] = in[i];
  }
  return k;
}

/* What hp_stack_id must answer: the depot id of hp_unwind's stack. */
static u32 reference_id(uptr fp, uptr top, u32 max, bool fold) {
  uptr pcs[64];
  return hp_stackdepot_put(pcs, hp_unwind(pcs, max, fp, top, fold));
}

/* ------------------------------------------------------- the walk memo
 * hp_unwind_memo must keep hp_unwind's PCs whatever the thread's previous
 * walks left in the memo.  Fake stacks: frame f at fs[fs_pos[f]] holds
 * the caller's frame address and a return address from a small pool, so
 * that recursion folds, frame addresses repeat with other contents, and
 * words change far above the frame a walk starts from. */
enum { FS_FRAMES = 330, FS_WORDS = 2800 };
static uptr fs[FS_WORDS];
static u32 fs_pos[FS_FRAMES + 1], fs_count;
static uptr fs_pool[16];
static u32 memo_walks, memo_bad;

static u64 rnd(u64 *x) {
  *x = *x * 6364136223846793005ull + 1442695040888963407ull;
  return *x >> 33;
}

/* Do the two walks agree?  The memo's walk first or second (the plain
 * walk leaves the memo alone, so either order tests the same). */
static bool same_walk(uptr fp, uptr top, u32 max, bool fold) {
  uptr a[64], b[64];
  u32 na = hp_unwind(a, max, fp, top, fold);
  u32 nb = hp_unwind_memo(b, max, fp, top, fold);
  return nb == na && !hp_memcmp(a, b, na * sizeof(uptr));
}

static void check_walk(uptr fp, uptr top, u32 max, bool fold,
                       const char *what) {
  memo_walks++;
  if (!same_walk(fp, top, max, fold) && memo_bad++ < 5)
    printf("walk memo differs (%s): fp %#lx top %#lx max %u fold %d\n", what,
           (unsigned long)fp, (unsigned long)top, max, (int)fold);
}

/* Frames 0..count-1 with return addresses ras[f], gaps of 2..2+maxgap
 * words; the last frame's caller frame is at the returned top (outside:
 * the last return address is not kept). */
static uptr fs_build(u32 count, const uptr *ras, u32 maxgap, u64 *x) {
  u32 p = 0;
  hp_memset(fs, 0, sizeof(fs));
  for (u32 f = 0; f <= count; f++) {
    fs_pos[f] = p;
    p += 2 + (maxgap ? (u32)(rnd(x) % (maxgap + 1)) : 0);
  }
  for (u32 f = 0; f < count; f++) {
    fs[fs_pos[f]] = (uptr)&fs[fs_pos[f + 1]];
    fs[fs_pos[f] + 1] = ras[f] + 1;
  }
  fs_count = count;
  return (uptr)&fs[fs_pos[count]];
}

/* Return addresses into a function with a frame pointer: their recipe is
 * the frame-pointer step (the fake ones have no CFI: the fallback step). */
__attribute__((noinline)) static uptr ret_addr(void) {
  uptr r = (uptr)__builtin_return_address(0);
  __asm__ volatile("" ::: "memory");
  return r;
}
__attribute__((noinline)) static void real_ras(uptr *r) {
  r[0] = ret_addr() - 1;
  r[1] = ret_addr() - 1;
  r[2] = ret_addr() - 1;
  r[3] = ret_addr() - 1;
  r[4] = ret_addr() - 1;
  r[5] = ret_addr() - 1;
  r[6] = ret_addr() - 1;
  r[7] = ret_addr() - 1;
  __asm__ volatile("" ::: "memory");
}

/* Walks from this frame and its recursive callers (two call sites, like
 * binary trees) on the real stack, memo against plain, max varied so that
 * some walks stop in the main thread's tail and step through libc. */
static uptr real_top;
static u64 real_x = 7;
__attribute__((noinline)) static void real_tree(int d) {
  u32 max = rnd(&real_x) % 4 ? 30 : 1 + (u32)(rnd(&real_x) % 40);
  check_walk((uptr)__builtin_frame_address(0), real_top, max,
             rnd(&real_x) % 8 != 0, "real stack");
  if (d > 0) {
    real_tree(d - 1);
    real_tree(d - 1);
  }
  __asm__ volatile("" ::: "memory"); /* no tail calls */
}

/* A handler walking in the middle of the thread's own walks: through the
 * memo when the thread was outside one, plainly when inside. */
static volatile sig_atomic_t handler_walks, handler_bad;
static void on_alarm(int sig) {
  (void)sig;
  if (!same_walk((uptr)__builtin_frame_address(0), real_top, 30, true))
    handler_bad++;
  handler_walks++;
}

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
  /* The fold's filter (a count per hash bucket of the PCs in the window)
   * never changes the answer: long pseudo-random stacks drawn from few
   * distinct PCs (repeats at every distance, PCs sharing buckets, PCs
   * leaving the window and coming back) fold as the plain rule does. */
  {
    u64 x = 0x243F6A8885A308D3ull;
    for (int round = 0; round < 200; round++) {
      enum { N = 64 };
      uptr walk[N], want[N], got[N];
      u32 distinct = 2 + (u32)(round % 40);
      for (u32 i = 0; i < N; i++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        walk[i] = 0x400000 + ((x >> 33) % distinct) * 0x11;
      }
      u32 nw = fold_reference(walk, N, want);
      hp_memcpy(got, walk, sizeof(walk));
      EXPECT_EQ(hp_fold_recursion(got, N), nw);
      EXPECT(!hp_memcmp(got, want, nw * sizeof(uptr)));
      /* The same through the walk, on a fake stack of N frames. */
      uptr fake[4 * N + 8];
      hp_memset(fake, 0, sizeof(fake));
      for (u32 f = 0; f < N; f++) {
        fake[f * 4] = (uptr)&fake[f * 4 + 4];
        fake[f * 4 + 1] = walk[f] + 1;
      }
      /* Frame N-1's caller is at the top: N-1 frames walked. */
      u32 nw1 = fold_reference(walk, N - 1, want);
      EXPECT_EQ(hp_unwind(got, 64, (uptr)&fake[0], (uptr)&fake[4 * N], true),
                nw1);
      EXPECT(!hp_memcmp(got, want, nw1 * sizeof(uptr)));
      EXPECT_EQ(hp_unwind_fp(got, 64, (uptr)&fake[0], (uptr)&fake[4 * N],
                             true),
                nw1);
      EXPECT(!hp_memcmp(got, want, nw1 * sizeof(uptr)));
    }
  }
  /* The stack-id cache: the same answer as walking, whatever changed
   * above the entry frame since the last walk from it. */
  {
    __heapprof_init();
    enum { F = 12 };
    uptr st2[4 * F + 8];
    hp_memset(st2, 0, sizeof(st2));
    for (int f = 0; f < F; f++) {
      st2[f * 4] = (uptr)&st2[f * 4 + 4];
      st2[f * 4 + 1] = 0x20000 + 0x40 * (uptr)f + 1;
    }
    uptr fp = (uptr)&st2[0], top3 = (uptr)&st2[4 * F];
    u32 id0 = reference_id(fp, top3, 30, true);
    EXPECT_EQ(hp_stack_id(fp, top3, 30, true), id0);
    EXPECT_EQ(hp_stack_id(fp, top3, 30, true), id0); /* from the cache */
    /* A different return address 9 frames up: same fp, same first return
     * addresses, another stack. */
    st2[9 * 4 + 1] = 0x30001;
    u32 id1 = reference_id(fp, top3, 30, true);
    EXPECT(id1 != id0);
    EXPECT_EQ(hp_stack_id(fp, top3, 30, true), id1);
    /* Back: the first stack again. */
    st2[9 * 4 + 1] = 0x20000 + 0x40 * 9 + 1;
    EXPECT_EQ(hp_stack_id(fp, top3, 30, true), id0);
    /* The chain cut 5 frames up (a saved rbp pointing down). */
    st2[5 * 4] = (uptr)&st2[0];
    u32 id2 = reference_id(fp, top3, 30, true);
    EXPECT(id2 != id0);
    EXPECT_EQ(hp_stack_id(fp, top3, 30, true), id2);
    st2[5 * 4] = (uptr)&st2[6 * 4];
    EXPECT_EQ(hp_stack_id(fp, top3, 30, true), id0);
    /* Other limits are other walks. */
    EXPECT_EQ(hp_stack_id(fp, top3, 4, true), reference_id(fp, top3, 4, true));
    EXPECT(hp_stack_id(fp, top3, 4, true) != id0);
    EXPECT_EQ(hp_stack_id(fp, top3, 30, true), id0);
    /* A shorter stack top. */
    uptr top4 = (uptr)&st2[4 * 7];
    EXPECT_EQ(hp_stack_id(fp, top4, 30, true), reference_id(fp, top4, 30, true));
    EXPECT(hp_stack_id(fp, top4, 30, true) != id0);
    /* Many changes, at every height, interleaved with unchanged walks and
     * walks from other frames of the same stack: always the walk's id. */
    u64 x = 0x9E3779B97F4A7C15ull;
    for (int i = 0; i < 3000; i++) {
      x = x * 6364136223846793005ull + 1442695040888963407ull;
      u32 f = (u32)(x >> 40) % F, what = (u32)(x >> 20) % 4;
      if (what == 0)
        st2[f * 4 + 1] = 0x20000 + 0x40 * (uptr)((x >> 50) % 6) + 1;
      else if (what == 1)
        st2[f * 4] = (uptr)&st2[(f + 1 + (x >> 52) % 2) * 4];
      uptr from = (uptr)&st2[((x >> 30) % 3) * 4];
      EXPECT_EQ(hp_stack_id(from, top3, 30, (x >> 33) & 1),
                reference_id(from, top3, 30, (x >> 33) & 1));
    }
  }
  /* The walk memo: junctions, changed words, folding across the junction,
   * limits, then many random stacks and a real one with signals. */
  {
    enum { X = 0x500000, STEP = 0x40 };
    uptr ras[FS_FRAMES], got[64];
    u64 x = 0x2545F4914F6CDD1Dull;
    for (u32 f = 0; f < 14; f++)
      ras[f] = X + STEP * f;
    uptr top = fs_build(14, ras, 0, &x);
    /* A walk from frame 3 is recorded; a walk from frame 0 meets it there
     * (same frame, same words) and takes frames 3..12 from the memo. */
    EXPECT_EQ(hp_unwind_memo(got, 30, (uptr)&fs[fs_pos[3]], top, true), 10);
    EXPECT_EQ(hp_unwind_memo(got, 30, (uptr)&fs[fs_pos[0]], top, true), 13);
    for (u32 f = 0; f < 13; f++)
      EXPECT_EQ(got[f], X + STEP * f);
    /* A word far above changed since: frame 9 returns elsewhere. */
    fs[fs_pos[9] + 1] = X + STEP * 20 + 1;
    EXPECT_EQ(hp_unwind_memo(got, 30, (uptr)&fs[fs_pos[0]], top, true), 13);
    EXPECT_EQ(got[8], X + STEP * 8);
    EXPECT_EQ(got[9], X + STEP * 20);
    EXPECT_EQ(got[10], X + STEP * 10);
    /* The same frame address with another return address: frame 2's. */
    fs[fs_pos[2] + 1] = X + STEP * 21 + 1;
    EXPECT_EQ(hp_unwind_memo(got, 30, (uptr)&fs[fs_pos[2]], top, true), 11);
    EXPECT_EQ(got[0], X + STEP * 21);
    EXPECT_EQ(got[1], X + STEP * 3);
    /* A caller frame skipped: frame 1 now points at frame 4. */
    fs[fs_pos[1]] = (uptr)&fs[fs_pos[4]];
    EXPECT_EQ(hp_unwind_memo(got, 30, (uptr)&fs[fs_pos[0]], top, true), 11);
    EXPECT_EQ(got[1], X + STEP * 1);
    EXPECT_EQ(got[2], X + STEP * 4);
    /* max stops the replay where it stops the walk; the next walk goes
     * past that point again. */
    fs_build(14, ras, 0, &x);
    EXPECT_EQ(hp_unwind_memo(got, 30, (uptr)&fs[fs_pos[0]], top, true), 13);
    EXPECT_EQ(hp_unwind_memo(got, 5, (uptr)&fs[fs_pos[0]], top, true), 5);
    EXPECT_EQ(got[4], X + STEP * 4);
    EXPECT_EQ(hp_unwind_memo(got, 30, (uptr)&fs[fs_pos[1]], top, true), 12);
    EXPECT_EQ(got[11], X + STEP * 12);
    /* Another stack top, another fold: not this memo's walks. */
    uptr top9 = (uptr)&fs[fs_pos[9]];
    EXPECT_EQ(hp_unwind_memo(got, 30, (uptr)&fs[fs_pos[0]], top9, true), 8);
    EXPECT_EQ(hp_unwind_memo(got, 30, (uptr)&fs[fs_pos[0]], top, false), 13);
    EXPECT_EQ(hp_unwind_memo(got, 30, (uptr)&fs[fs_pos[0]], top, true), 13);

    /* Folding across the junction.  X, A..H, X: the second X is 9 frames
     * after the first, outside the window: kept (10 PCs).  X, A..G, X, H:
     * 8 after: folded (9 PCs).  The walk from frame 5 is recorded first,
     * so the window of the second X spans the junction. */
    enum { FX = 0x510000, FA = 0x510100, Q = 0x51ff00 };
    for (u32 f = 1; f <= 8; f++)
      ras[f] = FA + STEP * f;
    ras[0] = ras[9] = FX;
    ras[10] = Q;
    top = fs_build(11, ras, 0, &x);
    EXPECT_EQ(hp_unwind_memo(got, 30, (uptr)&fs[fs_pos[5]], top, true), 5);
    EXPECT_EQ(hp_unwind_memo(got, 30, (uptr)&fs[fs_pos[0]], top, true), 10);
    EXPECT_EQ(got[9], FX);
    ras[8] = FX;
    ras[9] = FA + STEP * 8;
    top = fs_build(11, ras, 0, &x);
    EXPECT_EQ(hp_unwind_memo(got, 30, (uptr)&fs[fs_pos[5]], top, true), 5);
    EXPECT_EQ(hp_unwind_memo(got, 30, (uptr)&fs[fs_pos[0]], top, true), 9);
    EXPECT_EQ(got[7], FA + STEP * 7);
    EXPECT_EQ(got[8], FA + STEP * 8);
    /* The binary-trees shape from a deeper frame, then from the leaf:
     * S L R L L R L R R L M folds to S L R M either way. */
    enum { S = 0x520000, L = 0x520100, R = 0x520200, M = 0x520300 };
    const uptr bt[] = {S, L, R, L, L, R, L, R, R, L, M, Q};
    for (u32 f = 0; f < 12; f++)
      ras[f] = bt[f];
    top = fs_build(12, ras, 0, &x);
    EXPECT_EQ(hp_unwind_memo(got, 30, (uptr)&fs[fs_pos[4]], top, true), 3);
    EXPECT_EQ(hp_unwind_memo(got, 30, (uptr)&fs[fs_pos[0]], top, true), 4);
    EXPECT(got[0] == S && got[1] == L && got[2] == R && got[3] == M);

    /* Deeper than the memo (64 frames) and than HP_MAX_WALK (256): A B A
     * B ... folds to A B, and the walk stops after 256 frames (0..255), so
     * a C at frame 256 is never seen; one at frame 255 is. */
    enum { A2 = 0x530000, B2 = 0x530100, C2 = 0x530200 };
    for (u32 f = 0; f < 300; f++)
      ras[f] = f % 2 ? B2 : A2;
    ras[256] = C2;
    top = fs_build(300, ras, 0, &x);
    for (int rep = 0; rep < 2; rep++) {
      EXPECT_EQ(hp_unwind_memo(got, 30, (uptr)&fs[fs_pos[0]], top, true), 2);
      EXPECT(got[0] == A2 && got[1] == B2);
    }
    /* From frame 3 the walk takes frames 3..258: C is among them. */
    EXPECT_EQ(hp_unwind_memo(got, 30, (uptr)&fs[fs_pos[3]], top, true), 3);
    EXPECT(got[0] == B2 && got[1] == A2 && got[2] == C2);
    fs[fs_pos[255] + 1] = C2 + 1;
    EXPECT_EQ(hp_unwind_memo(got, 30, (uptr)&fs[fs_pos[0]], top, true), 3);
    EXPECT_EQ(got[2], C2);
    EXPECT_EQ(hp_unwind_memo(got, 64, (uptr)&fs[fs_pos[0]], top, false), 64);
    EXPECT_EQ(hp_unwind_memo(got, 64, (uptr)&fs[fs_pos[1]], top, false), 64);
    EXPECT(got[0] == B2 && got[63] == A2);

    /* Random stacks and walks, each walk compared with the plain one:
     * 2 to 300 frames, return addresses from a pool of 8 real ones (the
     * frame-pointer recipe), 6 without CFI (the fallback step, where the
     * tail is asked) and 2 in libc (a step by rsp); a few distinct ones or
     * many; frames moved
     * (the same address, other words), return addresses and caller links
     * changed at any height, walks from the first frames with other max,
     * fold and stack tops. */
    real_ras(fs_pool);
    for (u32 i = 0; i < 8; i++)
      EXPECT_EQ(hp_cfi_recipe(fs_pool[i]), HP_CFI_FRAME_POINTER);
    for (u32 i = 8; i < 16; i++)
      fs_pool[i] = 0x540000 + 0x10 * i;
    EXPECT_EQ(hp_cfi_recipe(fs_pool[8]), HP_CFI_NONE);
    /* And two inside libc's qsort whose recipe steps by rsp (no frame
     * pointer): the step reads other words than the frame-pointer step. */
    u32 libc_pcs = 0;
    for (uptr pc = (uptr)&qsort + 1; pc < (uptr)&qsort + 512 && libc_pcs < 2;
         pc++) {
      u64 r = hp_cfi_recipe(pc);
      if ((r & HP_CFI_KIND_MASK) == HP_CFI_STEP && !(r & HP_CFI_CFA_RBP) &&
          (!libc_pcs || r != hp_cfi_recipe(fs_pool[14])))
        fs_pool[14 + libc_pcs++] = pc;
    }
    EXPECT_EQ(libc_pcs, 2);
    u32 count = 0, distinct = 2, maxgap = 0, pool_off = 0;
    for (int it = 0; it < 40000; it++) {
      if (!count || rnd(&x) % 64 == 0) {
        u32 kind = (u32)rnd(&x) % 8;
        count = kind == 0   ? 60 + (u32)rnd(&x) % 240
                : kind == 1 ? 2 + (u32)rnd(&x) % 4
                            : 8 + (u32)rnd(&x) % 30;
        distinct = 2 + (u32)rnd(&x) % 14;
        pool_off = (u32)rnd(&x) % 16;
        maxgap = (u32)rnd(&x) % 3;
        for (u32 f = 0; f < count; f++)
          ras[f] = fs_pool[(pool_off + rnd(&x) % distinct) % 16];
        top = fs_build(count, ras, maxgap, &x);
      }
      u32 what = (u32)rnd(&x) % 16, f = (u32)rnd(&x) % count;
      if (what < 3) {
        fs[fs_pos[f] + 1] = fs_pool[(pool_off + rnd(&x) % distinct) % 16] + 1;
      } else if (what == 3 && f + 2 <= count) {
        fs[fs_pos[f]] = (uptr)&fs[fs_pos[f + 2]]; /* skip a caller */
      } else if (what == 4 && f > 0) {
        fs[fs_pos[f]] = (uptr)&fs[fs_pos[f - 1]]; /* points down: ends */
      } else if (what == 5) {
        fs[fs_pos[f]] = (uptr)&fs[fs_pos[f + 1]]; /* mended */
      } else if (what == 6) {
        /* Frames shifted: the same frame addresses hold other frames. */
        for (u32 g = 0; g < count; g++)
          ras[g] = fs[fs_pos[g] + 1] - 1;
        top = fs_build(count, ras, maxgap, &x);
      }
      u32 from = (u32)rnd(&x) % (count < 6 ? count : 6);
      if (rnd(&x) % 4 == 0)
        from = (u32)rnd(&x) % count;
      u32 max = rnd(&x) % 3 ? 30 : 1 + (u32)rnd(&x) % 64;
      bool fold = rnd(&x) % 8 != 0;
      uptr t = top;
      if (rnd(&x) % 16 == 0)
        t = (uptr)&fs[fs_pos[from + (u32)rnd(&x) % (count - from)] + 2];
      check_walk((uptr)&fs[fs_pos[from]], t, max, fold, "fake stack");
    }

    /* The real stack: a tree of walks from recursive frames, the same
     * with a signal handler walking in the middle of them. */
    extern void *__libc_stack_end;
    real_top = (uptr)__libc_stack_end;
    for (int i = 0; i < 4; i++)
      real_tree(6);
    struct sigaction sa;
    hp_memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_alarm;
    sigaction(SIGALRM, &sa, NULL);
    struct itimerval it = {{0, 50}, {0, 50}};
    setitimer(ITIMER_REAL, &it, NULL);
    for (int i = 0; i < 400 && (i < 40 || handler_walks < 100); i++)
      real_tree(6);
    struct itimerval off = {{0, 0}, {0, 0}};
    setitimer(ITIMER_REAL, &off, NULL);
    signal(SIGALRM, SIG_DFL);
    EXPECT(handler_walks > 0);
    EXPECT_EQ(handler_bad, 0);
    EXPECT_EQ(memo_bad, 0);
    EXPECT(memo_walks > 40000);
  }
  return hp_test_done("stack_test");
}
