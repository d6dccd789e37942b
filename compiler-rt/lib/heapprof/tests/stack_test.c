/* The frame-pointer walk on a hand-built stack: it records each frame's
 * return address - 1, keeps a frame only when its caller's frame is inside
 * the stack, and never reads outside [fp, top). */
#include "hp_test.h"

#include <signal.h>
#include <sys/time.h>
#include <limits.h>
#include <stdlib.h>
#include <pthread.h>

static void *recipes_thread(void *arg);
static void *small_stack_thread(void *arg);

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

/* A fake stack of n frames with the given return addresses - 1 (frame
 * n-1's caller is at the returned top, so n-1 frames are walked). */
static uptr fake_build(uptr *st, const uptr *pcs, u32 n) {
  for (u32 f = 0; f < n; f++) {
    st[f * 4] = (uptr)&st[f * 4 + 4];
    st[f * 4 + 1] = pcs[f] + 1;
  }
  return (uptr)&st[4 * n];
}

/* Does the folding walk from st keep what the plain rule keeps of the
 * frames it walks? */
static bool fold_agrees(uptr *st, uptr top, u32 max) {
  uptr plain[64], want[64], got[64];
  u32 np = hp_unwind(plain, 64, (uptr)st, 0, top, false);
  u32 nw = fold_reference(plain, np, want);
  if (nw > max)
    nw = max;
  u32 ng = hp_unwind(got, max, (uptr)st, 0, top, true);
  return ng == nw && !hp_memcmp(got, want, nw * sizeof(uptr));
}

/* Walks in a signal handler, on their own fake stack, while the thread is
 * in the middle of its own folding walks or between them. */
static uptr sig_st[4 * 40 + 8], sig_top;
static volatile sig_atomic_t sig_walks, sig_bad;
static void on_alarm(int sig) {
  (void)sig;
  if (!fold_agrees(sig_st, sig_top, 30))
    sig_bad++;
  sig_walks++;
}

/* What hp_stack_id must answer: the depot id of hp_unwind's stack. */
static u32 reference_id(uptr fp, uptr top, u32 max, bool fold) {
  uptr pcs[64];
  return hp_stackdepot_put(pcs, hp_unwind(pcs, max, fp, 0, top, fold));
}

/* Zeroes st's n words and links a fake chain of `frames` frames at slots
 * 0, 4, 8...: each the saved fp (the caller's frame, 4 slots up) and the
 * return address ra0 + step * f + 1. */
static void fake_frames(uptr *st, size_t n, int frames, uptr ra0, uptr step) {
  hp_memset(st, 0, n * sizeof(uptr));
  for (int f = 0; f < frames; f++) {
    st[f * 4] = (uptr)&st[f * 4 + 4];
    st[f * 4 + 1] = ra0 + step * (uptr)f + 1;
  }
}

/* A function built without frame pointers that keeps data in rbp, as
 * Debian's perl is: it saves its caller's rbp (CFI: CFA = rsp + 16, rbp
 * at CFA - 16) and calls; nofp_ret is the return address of that call.
 * Never run: the walks below read its CFI only. */
__asm__(".text\n"
        ".p2align 4\n"
        ".type nofp_fn, @function\n"
        "nofp_fn:\n"
        ".cfi_startproc\n"
        "  pushq %rbp\n"
        ".cfi_def_cfa_offset 16\n"
        ".cfi_offset %rbp, -16\n"
        "  call abort@PLT\n"
        "nofp_ret:\n"
        "  popq %rbp\n"
        ".cfi_def_cfa_offset 8\n"
        "  ret\n"
        ".cfi_endproc\n"
        ".size nofp_fn, .-nofp_fn\n");
extern const char nofp_ret[];

int main(void) {
  /* The walks' caches are in the thread's state, made by its first
   * allocation in a program; here before the first walk.  (Without one
   * every recipe is computed: the signal handler below, walking while
   * the thread is inside the loader's lock in a computation, can then
   * wait on that lock for ever.) */
  hp_thread_release(hp_thread_acquire());
  /* A fake stack: frames at slots 0, 4, 8, 12 (each: saved fp, return). */
  uptr st[32];
  fake_frames(st, 32, 4, 0x1000, 0x100);
  uptr top = (uptr)&st[16];
  uptr pcs[8];
  /* Frame 3's caller frame is at slot 16 == top: outside, so frame 3's
   * return address (into code above the stack's top) is not kept; frames
   * 0..2 are. */
  u32 n = hp_unwind(pcs, 8, (uptr)&st[0], 0, top, false);
  EXPECT_EQ(n, 3);
  EXPECT_EQ(pcs[0], 0x1000);
  EXPECT_EQ(pcs[1], 0x1100);
  EXPECT_EQ(pcs[2], 0x1200);
  /* max cuts the walk. */
  EXPECT_EQ(hp_unwind(pcs, 2, (uptr)&st[0], 0, top, false), 2);
  EXPECT_EQ(hp_unwind(pcs, 0, (uptr)&st[0], 0, top, false), 0);
  /* A garbage frame pointer (below the current frame) ends the walk. */
  st[4] = (uptr)&st[0];
  EXPECT_EQ(hp_unwind(pcs, 8, (uptr)&st[0], 0, top, false), 1);
  st[4] = (uptr)&st[8];
  /* A misaligned caller pointer in frame 2: frames 0 and 1 still have
   * valid callers, frame 1's caller (frame 2) has not -> 2 PCs. */
  st[8] = (uptr)&st[12] + 3;
  EXPECT_EQ(hp_unwind(pcs, 8, (uptr)&st[0], 0, top, false), 2);
  st[8] = (uptr)&st[12];
  /* A pointer far outside the stack, same place. */
  st[8] = 0x7fffffff0000ull;
  EXPECT_EQ(hp_unwind(pcs, 8, (uptr)&st[0], 0, top, false), 2);
  st[8] = (uptr)&st[12];
  /* The first frame at the top: a stack above the thread's, walked by
   * CFI alone; its return address is 0: nothing. */
  EXPECT_EQ(hp_unwind(pcs, 8, top, 0, top, false), 0);
  /* A zero return address ends it. */
  st[5] = 0;
  EXPECT_EQ(hp_unwind(pcs, 8, (uptr)&st[0], 0, top, false), 1);
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
    u32 np = hp_unwind(plain, 64, (uptr)&big[0], 0, top2, false);
    EXPECT_EQ(np, F - 1); /* the last frame's caller is at the top */
    u32 nf = hp_unwind(folded, 64, (uptr)&big[0], 0, top2, true);
    u32 nr = hp_fold_recursion(plain, np);
    EXPECT_EQ(nf, nr);
    EXPECT(!hp_memcmp(folded, plain, nf * sizeof(uptr)));
    /* 23 frames walked: 0x10 0x20 0x30, the repeats folded, 0x40 0x50
     * 0x60, 0x20 again (4 after the last one: folded), then 9 new ones. */
    EXPECT_EQ(nf, 15);
    /* max counts kept frames. */
    EXPECT_EQ(hp_unwind(folded, 5, (uptr)&big[0], 0, top2, true), 5);
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
      EXPECT_EQ(hp_unwind(got, 64, (uptr)&fake[0], 0, (uptr)&fake[4 * N], true),
                nw1);
      EXPECT(!hp_memcmp(got, want, nw1 * sizeof(uptr)));
      EXPECT_EQ(hp_unwind_fp(got, 64, (uptr)&fake[0], (uptr)&fake[4 * N],
                             true),
                nw1);
      EXPECT(!hp_memcmp(got, want, nw1 * sizeof(uptr)));
    }
  }
  /* The folding table (a slot per hashed PC, with the PC's last position
   * across the thread's walks): the same as the plain rule whatever the
   * table holds from earlier walks.  Stacks of up to 200 distinct PCs (more
   * than the table's 64 slots: PCs share slots, push each other out within
   * the window), walks of other stacks in between, limits. */
  {
    enum { N = 60 };
    static uptr st[4 * N + 8];
    uptr pcs[N];
    u64 x = 0x5851F42D4C957F2Dull;
    u32 bad = 0;
    for (int round = 0; round < 3000; round++) {
      u32 distinct = 2 + (u32)(round % 200);
      for (u32 i = 0; i < N; i++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        pcs[i] = 0x600000 + ((x >> 33) % distinct) * 0x18;
      }
      u32 n = 2 + (u32)((x >> 20) % (N - 1));
      uptr top = fake_build(st, pcs, n);
      u32 max = (x >> 45) % 4 ? 64 : 1 + (u32)((x >> 50) % 40);
      bad += !fold_agrees(st, top, max);
    }
    EXPECT_EQ(bad, 0);
    /* One walk's frames are not in the next one's window: a walk ending
     * with X, then one starting with X keeps it. */
    enum { X = 0x610000, Y = 0x610100, Z = 0x610200, W = 0x610300 };
    uptr a[] = {Y, X, W}, b[] = {X, Z, W};
    uptr got[8];
    uptr top = fake_build(st, a, 3);
    EXPECT_EQ(hp_unwind(got, 8, (uptr)st, 0, top, true), 2);
    EXPECT(got[1] == X);
    top = fake_build(st, b, 3);
    EXPECT_EQ(hp_unwind(got, 8, (uptr)st, 0, top, true), 2);
    EXPECT(got[0] == X && got[1] == Z);
    /* X 8 frames after X folds, 9 after it does not (a folded frame
     * still counts as walked: the third X, 2 after the second, folds). */
    uptr c[] = {X, 0x620000, 0x620100, 0x620200, 0x620300, 0x620400,
                0x620500, 0x620600, X, 0x620700, X, W};
    uptr got2[16];
    top = fake_build(st, c, 12);
    EXPECT_EQ(hp_unwind(got2, 16, (uptr)st, 0, top, true), 9);
    EXPECT(got2[7] == 0x620600 && got2[8] == 0x620700);
    uptr d[] = {X, 0x620000, 0x620100, 0x620200, 0x620300, 0x620400,
                0x620500, 0x620600, 0x620700, X, W};
    top = fake_build(st, d, 11);
    EXPECT_EQ(hp_unwind(got2, 16, (uptr)st, 0, top, true), 10);
    EXPECT(got2[9] == X);
    /* Signal handlers walking in the middle of the thread's walks. */
    uptr sp[40];
    for (u32 i = 0; i < 40; i++)
      sp[i] = 0x630000 + (i % 7) * 0x18 + (i % 3) * 0x1000;
    sig_top = fake_build(sig_st, sp, 40);
    struct sigaction sa;
    hp_memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_alarm;
    sigaction(SIGALRM, &sa, NULL);
    struct itimerval it = {{0, 50}, {0, 50}};
    setitimer(ITIMER_REAL, &it, NULL);
    bad = 0;
    for (int round = 0; round < 200000 && (round < 20000 || sig_walks < 200);
         round++) {
      u32 distinct = 2 + (u32)(round % 90);
      for (u32 i = 0; i < N; i++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        pcs[i] = 0x600000 + ((x >> 33) % distinct) * 0x18;
      }
      top = fake_build(st, pcs, N);
      bad += !fold_agrees(st, top, 64);
    }
    struct itimerval off = {{0, 0}, {0, 0}};
    setitimer(ITIMER_REAL, &off, NULL);
    signal(SIGALRM, SIG_DFL);
    EXPECT_EQ(bad, 0);
    EXPECT(sig_walks > 0);
    EXPECT_EQ(sig_bad, 0);
  }
  /* The stack-id cache: the same answer as walking, whatever changed
   * above the entry frame since the last walk from it. */
  {
    __heapprof_init();
    enum { F = 12 };
    uptr st2[4 * F + 8];
    fake_frames(st2, 4 * F + 8, F, 0x20000, 0x40);
    uptr fp = (uptr)&st2[0], top3 = (uptr)&st2[4 * F];
    u32 id0 = reference_id(fp, top3, 30, true);
    EXPECT_EQ(hp_stack_id(fp, 0, top3, 30, true), id0);
    EXPECT_EQ(hp_stack_id(fp, 0, top3, 30, true), id0); /* from the cache */
    /* A different return address 9 frames up: same fp, same first return
     * addresses, another stack. */
    st2[9 * 4 + 1] = 0x30001;
    u32 id1 = reference_id(fp, top3, 30, true);
    EXPECT(id1 != id0);
    EXPECT_EQ(hp_stack_id(fp, 0, top3, 30, true), id1);
    /* Back: the first stack again. */
    st2[9 * 4 + 1] = 0x20000 + 0x40 * 9 + 1;
    EXPECT_EQ(hp_stack_id(fp, 0, top3, 30, true), id0);
    /* The chain cut 5 frames up (a saved rbp pointing down). */
    st2[5 * 4] = (uptr)&st2[0];
    u32 id2 = reference_id(fp, top3, 30, true);
    EXPECT(id2 != id0);
    EXPECT_EQ(hp_stack_id(fp, 0, top3, 30, true), id2);
    st2[5 * 4] = (uptr)&st2[6 * 4];
    EXPECT_EQ(hp_stack_id(fp, 0, top3, 30, true), id0);
    /* Other limits are other walks. */
    EXPECT_EQ(hp_stack_id(fp, 0, top3, 4, true),
              reference_id(fp, top3, 4, true));
    EXPECT(hp_stack_id(fp, 0, top3, 4, true) != id0);
    EXPECT_EQ(hp_stack_id(fp, 0, top3, 30, true), id0);
    /* A shorter stack top. */
    uptr top4 = (uptr)&st2[4 * 7];
    EXPECT_EQ(hp_stack_id(fp, 0, top4, 30, true),
              reference_id(fp, top4, 30, true));
    EXPECT(hp_stack_id(fp, 0, top4, 30, true) != id0);
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
      EXPECT_EQ(hp_stack_id(from, 0, top3, 30, (x >> 33) & 1),
                reference_id(from, top3, 30, (x >> 33) & 1));
    }
  }
  /* Two ways per set: stacks from the same fp with the same first return
   * address (one wrapper called from one place), parting one frame up
   * (frame 1's return address: the wrapper's caller) or four frames up,
   * taken in turn.  Three paths for two ways, so the third evicts one:
   * every answer must still be the walk's, and the three stacks three
   * ids. */
  {
    enum { F = 10 };
    uptr st3[4 * F + 8];
    fake_frames(st3, 4 * F + 8, F, 0x50000, 0x40);
    uptr fp = (uptr)&st3[0], top = (uptr)&st3[4 * F];
    u32 ids[3];
    for (int p = 0; p < 3; p++) {
      st3[1 * 4 + 1] = 0x50000 + 0x40 * 1 + 1 + (p == 1 ? 0x1000 : 0);
      st3[4 * 4 + 1] = 0x50000 + 0x40 * 4 + 1 + (p == 2 ? 0x1000 : 0);
      ids[p] = reference_id(fp, top, 30, true);
    }
    EXPECT(ids[0] != ids[1] && ids[1] != ids[2] && ids[0] != ids[2]);
    /* 0 1 0 1 ... then 0 1 2 0 1 2 ..., then 0 0 1 1 2 2 ... */
    for (int i = 0; i < 600; i++) {
      int p = i < 200 ? i % 2 : i < 400 ? i % 3 : (i / 2) % 3;
      st3[1 * 4 + 1] = 0x50000 + 0x40 * 1 + 1 + (p == 1 ? 0x1000 : 0);
      st3[4 * 4 + 1] = 0x50000 + 0x40 * 4 + 1 + (p == 2 ? 0x1000 : 0);
      EXPECT_EQ(hp_stack_id(fp, 0, top, 30, true), ids[p]);
    }
    /* A stack that ends 3 frames up (a saved rbp pointing down) against
     * the 10-frame one in the other way: 3 PCs, then 9. */
    st3[1 * 4 + 1] = 0x50000 + 0x40 * 1 + 1;
    st3[4 * 4 + 1] = 0x50000 + 0x40 * 4 + 1;
    uptr pcs[64];
    for (int i = 0; i < 10; i++) {
      st3[3 * 4] = (i & 1) ? (uptr)&st3[0] : (uptr)&st3[4 * 4];
      u32 id = hp_stack_id(fp, 0, top, 30, true);
      u32 n = hp_unwind(pcs, 64, fp, 0, top, true);
      EXPECT_EQ(n, (i & 1) ? 3u : 9u);
      EXPECT_EQ(id, hp_stackdepot_put(pcs, n));
      if (!(i & 1))
        EXPECT_EQ(id, ids[0]);
    }
  }
  /* Saved rbps a walk never uses are not compared.  The entry frame's
   * caller is nofp_fn (no frame pointer), whose rbp holds data: the word
   * at fp differs from call to call on the same path (perl allocating 6 M
   * strings from one context walked every time, docs/performance.md "perl
   * under heapprof run").  The walk steps over nofp_fn by its CFI, which
   * restores the rbp saved below it (its caller's frame, needed by the
   * next step) and never reads the data.  So a change of that word leaves
   * the answer to the cache: the same id, no walk (no way filled after a
   * miss).  A change of the saved rbp the next step uses is another stack,
   * which must be walked (one way filled). */
  {
    enum { F = 8 };
    uptr st5[4 * F + 8];
    fake_frames(st5, 4 * F + 8, F, 0x90000, 0x40);
    st5[0] = 0x1234; /* nofp_fn's data in rbp */
    st5[1] = (uptr)nofp_ret;
    st5[2] = (uptr)&st5[4]; /* nofp_fn's caller's frame, saved by it */
    st5[3] = 0xa0001;       /* the return address into that caller */
    uptr fp = (uptr)&st5[0], top = (uptr)&st5[4 * F];
    u32 id = reference_id(fp, top, 30, true);
    /* The set is chosen by st5's address, which moves with the stack's
     * (random) place: it may be one the walks above left failing, even
     * deep and resting (not compared, no fill, for 255 calls), and a first
     * call alone then left the fill counts below to chance.  So first the
     * state the checks start from, whatever the set was: this stack
     * cached, a hit.  A resting set rests 255 calls at most; then a walk
     * fills a way, which the next call hits. */
    for (int i = 0; i < 258; i++)
      EXPECT_EQ(hp_stack_id(fp, 0, top, 30, true), id);
    u64 fills = hp_stack_cache_fills();
    for (int i = 0; i < 100; i++) {
      st5[0] = 0x5000 + (uptr)i * 0x40;
      EXPECT_EQ(hp_stack_id(fp, 0, top, 30, true), id);
    }
    EXPECT_EQ(hp_stack_cache_fills() - fills, 0);
    /* nofp_fn's caller's frame one frame up: one frame fewer. */
    st5[2] = (uptr)&st5[8];
    u32 shorter = reference_id(fp, top, 30, true);
    EXPECT(shorter != id);
    fills = hp_stack_cache_fills();
    EXPECT_EQ(hp_stack_id(fp, 0, top, 30, true), shorter);
    EXPECT_EQ(hp_stack_cache_fills() - fills, 1);
    st5[2] = (uptr)&st5[4];
    st5[0] = 0x9999;
    EXPECT_EQ(hp_stack_id(fp, 0, top, 30, true), id);
  }
  /* The longest walk a way holds.  fake_frames' F frames are walked with
   * 2F reads (frame 0's return address and saved rbp, then each caller's;
   * frame F-1's saved rbp is the top, which ends the walk), all in pairs:
   * F = 31 is SC_READS' 62 reads in 31 windows, the most a way has (its
   * counts are masked when read, not checked).  Repeated, then with a
   * different return address in window 29 (frame 29's, the last PC kept,
   * read by the 30th step): another stack, which a comparison of fewer
   * windows would miss, then back.  (Not the fills: which sets the blocks
   * above left deep or resting depends on where the stack is, and such a
   * set walks without filling.) */
  {
    enum { F = 31 };
    uptr st6[4 * F + 8];
    fake_frames(st6, 4 * F + 8, F, 0xb0000, 0x40);
    uptr fp = (uptr)&st6[0], top = (uptr)&st6[4 * F];
    u32 id = reference_id(fp, top, 40, true);
    for (int i = 0; i < 100; i++)
      EXPECT_EQ(hp_stack_id(fp, 0, top, 40, true), id);
    st6[4 * 29 + 1] += 0x1000;
    u32 other = reference_id(fp, top, 40, true);
    EXPECT(other != id);
    for (int i = 0; i < 100; i++)
      EXPECT_EQ(hp_stack_id(fp, 0, top, 40, true), other);
    st6[4 * 29 + 1] -= 0x1000;
    EXPECT_EQ(hp_stack_id(fp, 0, top, 40, true), id);
  }
  /* Deep sets: six paths from one fp and one first return address (a
   * wrapper such as cfrac's palloc, called from six places), parting at
   * frame 1, 2, 3 or 5, taken in turn; then two that part at frame 8,
   * beyond the return addresses a deep set is chosen by, so they share
   * one.  Far more paths than a set has ways: the set goes deep, and every
   * answer must still be the walk's. */
  {
    enum { F = 12, P = 8 };
    uptr st4[4 * F + 8];
    fake_frames(st4, 4 * F + 8, F, 0x70000, 0x40);
    uptr fp = (uptr)&st4[0], top = (uptr)&st4[4 * F];
    static const int part[P] = {1, 1, 2, 2, 3, 5, 8, 8};
    u32 ids[P];
    for (int p = 0; p < P; p++) {
      fake_frames(st4, 4 * F + 8, F, 0x70000, 0x40);
      st4[part[p] * 4 + 1] += 0x1000 * (uptr)(p + 1);
      ids[p] = reference_id(fp, top, 30, true);
    }
    int distinct = 0;
    for (int p = 0; p < P; p++) {
      bool seen = false;
      for (int q = 0; q < p; q++)
        seen |= ids[q] == ids[p];
      distinct += !seen;
    }
    EXPECT_EQ(distinct, P);
    int bad = 0;
    for (int i = 0; i < 4000; i++) {
      int p = i < 2000 ? i % 6 : i % P;
      fake_frames(st4, 4 * F + 8, F, 0x70000, 0x40);
      st4[part[p] * 4 + 1] += 0x1000 * (uptr)(p + 1);
      bad += hp_stack_id(fp, 0, top, 30, true) != ids[p];
    }
    EXPECT_EQ(bad, 0);
  }
  /* The recipe cache's two levels answer what the CFI says: 20000 return
   * addresses (more than the first level's 1024 entries, so most come back
   * from the second level or are computed again), two rounds: the first
   * fills, the second reads back.  In a thread of its own: the second
   * level is mapped only after 1024 misses, not after 500.  The thread's
   * exit unmaps it; a second thread, which takes over the first's state,
   * gets the same answers from the first level as left and maps a second
   * level of its own after 1024 misses. */
  {
    hp_stack_thread_t *first = NULL;
    for (int k = 0; k < 2; k++) {
      pthread_t th;
      EXPECT_EQ(pthread_create(&th, NULL, recipes_thread, NULL), 0);
      void *res;
      EXPECT_EQ(pthread_join(th, &res), 0);
      hp_stack_thread_t *w = res;
      EXPECT(w != NULL);
      if (k == 0)
        first = w;
      else
        EXPECT(w == first); /* the state was taken over */
      if (w) {
        /* After the exit hook: valid for the next thread. */
        EXPECT(w->cfi.l2 == NULL);
        EXPECT_EQ(w->cfi.misses, 0);
        EXPECT(!w->fold.busy);
      }
    }
  }
  /* The caches are in the thread's state, not in its static TLS: a
   * thread with the smallest stack pthread_create takes is made, and
   * allocates (glibc refuses a stack that cannot hold the static TLS;
   * 17 KiB of caches there made PTHREAD_STACK_MIN fail with EINVAL). */
  {
    pthread_attr_t at;
    pthread_attr_init(&at);
    EXPECT_EQ(pthread_attr_setstacksize(&at, PTHREAD_STACK_MIN), 0);
    pthread_t th;
    EXPECT_EQ(pthread_create(&th, &at, small_stack_thread, NULL), 0);
    void *res = NULL;
    EXPECT_EQ(pthread_join(th, &res), 0);
    EXPECT(res == (void *)1);
    pthread_attr_destroy(&at);
  }
  return hp_test_done("stack_test");
}

/* The recipe test's thread: checks as it goes, returns its walks'
 * caches. */
static void *recipes_thread(void *arg) {
  (void)arg;
  enum { NPC = 20000 };
  static uptr pcs[NPC];
  static u64 want[NPC];
  for (u32 k = 0; k < NPC; k++) {
    pcs[k] = (uptr)&hp_cfi_compute + 7 * (uptr)k;
    want[k] = hp_cfi_compute(pcs[k]);
  }
  u32 steps = 0;
  for (u32 k = 0; k < NPC; k++)
    steps += (want[k] & HP_CFI_KIND_MASK) == HP_CFI_STEP;
  EXPECT(steps > NPC / 2); /* real recipes, not all NONE */
  EXPECT(hp_thread_own() != NULL);
  /* 500 distinct misses: no second level yet. */
  for (u32 k = 0; k < 500; k++)
    EXPECT_EQ(hp_cfi_recipe(pcs[k]), want[k]);
  EXPECT(!hp_stack_cfi_l2_mapped());
  for (int round = 0; round < 2; round++) {
    u32 wrong = 0;
    for (u32 k = 0; k < NPC; k++)
      wrong += hp_cfi_recipe(pcs[k]) != want[k];
    EXPECT_EQ(wrong, 0);
  }
  EXPECT(hp_stack_cfi_l2_mapped());
  hp_thread_t *t = hp_thread_own();
  return t ? &t->walks : NULL;
}

/* A thread on PTHREAD_STACK_MIN: allocates from a few call sites (the
 * walks use its caches) and returns 1. */
static void *small_stack_thread(void *arg) {
  (void)arg;
  void *p[8];
  for (int k = 0; k < 8; k++)
    p[k] = malloc(16 + 8 * k);
  int ok = hp_thread_own() != NULL;
  for (int k = 0; k < 8; k++)
    ok &= p[k] != NULL;
  for (int k = 0; k < 8; k++)
    free(p[k]);
  return (void *)(uptr)ok;
}
