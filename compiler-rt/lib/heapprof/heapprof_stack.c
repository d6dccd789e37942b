/*===- heapprof_stack.c - frame-pointer unwinding -----------------------===
 *
 * Part of heapprof.  The walks never read outside [fp, stack_top) of the
 * current thread's stack.  hp_unwind_fp follows frame pointers only, so a
 * frame without one (libc) ends it instead of faulting; hp_unwind steps
 * over such frames with their CFI (heapprof_cfi.c).
 *===----------------------------------------------------------------------===*/
#include "heapprof_internal.h"

static HP_ALWAYS_INLINE bool frame_ok(uptr f, uptr below, uptr top) {
  return f > below && !(f & 7) && f + 2 * sizeof(uptr) <= top;
}

/* The folding rule: is pc among the last HP_FOLD_WINDOW PCs of the walk?
 * ring holds them, walked counts them; pc is added. Nearest first: in
 * recursive code the repeat is usually one or two frames back. */
static HP_ALWAYS_INLINE bool fold_repeat(uptr *ring, u32 walked, uptr pc) {
  u32 w = walked < HP_FOLD_WINDOW ? walked : HP_FOLD_WINDOW;
  bool repeat = false;
  for (u32 j = 1; j <= w && !repeat; j++)
    repeat = ring[(walked - j) % HP_FOLD_WINDOW] == pc;
  ring[walked % HP_FOLD_WINDOW] = pc;
  return repeat;
}

/* One step of either walk: keeps pc unless it folds as a repeat; false
 * when the walk must stop (max frames kept, or HP_MAX_WALK walked). */
static HP_ALWAYS_INLINE bool take_frame(uptr *pcs, u32 *n, u32 max,
                                        uptr *ring, u32 *walked, uptr pc,
                                        bool fold) {
  bool repeat = fold && fold_repeat(ring, *walked, pc);
  ++*walked;
  if (!repeat) {
    pcs[(*n)++] = pc;
    if (*n >= max)
      return false;
  }
  return *walked < HP_MAX_WALK;
}

/* Frame at fp: fp[0] = caller's frame pointer, fp[1] = return address into
 * the caller.  The return address of a frame is kept only when the caller's
 * own frame lies inside the stack too; so the walk stops below the thread's
 * top (a wrapper frame placed there, or libc's start-up code) instead of
 * recording a PC in it. */
u32 hp_unwind_fp(uptr *pcs, u32 max, uptr fp, uptr stack_top, bool fold) {
  u32 n = 0, walked = 0;
  uptr ring[HP_FOLD_WINDOW]; /* the last frames walked, for folding */
  if (!max || !frame_ok(fp, 0, stack_top))
    return 0;
  for (;;) {
    const uptr *frame = (const uptr *)fp;
    uptr ret = frame[1];
    if (ret < 4096)
      break;
    if (!take_frame(pcs, &n, max, ring, &walked, ret - 1, fold))
      break;
    uptr next = frame[0];
    if (!frame_ok(next, fp, stack_top) ||
        !frame_ok(((const uptr *)next)[0], next, stack_top))
      break;
    fp = next;
  }
  return n;
}

/* The recipe cache: per thread, direct-mapped on the return address.  An
 * entry is written tag last, so a signal handler that allocates on this
 * thread in the middle of an update sees the old entry or none. */
#define CFI_CACHE_BITS 10
static HP_TLS struct {
  uptr tag[1u << CFI_CACHE_BITS];
  u64 recipe[1u << CFI_CACHE_BITS];
} cfi_cache;

static HP_NOINLINE u64 cfi_miss(uptr pc, u32 i) {
  u64 r = hp_cfi_compute(pc);
  cfi_cache.tag[i] = 0;
  __atomic_signal_fence(__ATOMIC_SEQ_CST);
  cfi_cache.recipe[i] = r;
  __atomic_signal_fence(__ATOMIC_SEQ_CST);
  cfi_cache.tag[i] = pc;
  return r;
}

static HP_ALWAYS_INLINE u64 cfi_lookup(uptr pc) {
  u32 i = (u32)((pc * 0x9E3779B97F4A7C15ull) >> (64 - CFI_CACHE_BITS));
  if (HP_LIKELY(cfi_cache.tag[i] == pc)) {
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    return cfi_cache.recipe[i];
  }
  return cfi_miss(pc, i);
}

u64 hp_cfi_recipe(uptr pc) { return cfi_lookup(pc); }

/* The walk with CFI recipes.  A frame's state is its return address ra
 * (into the caller), the caller's rsp after the return (sp) and its rbp
 * (bp).  The caller's own step is computed before ra is kept: ra is kept
 * only when the caller's frame (its CFA) lies inside the stack, the rule
 * the frame-pointer walk has too, so a thread's wrapper frame at stack_top
 * is never recorded.  A walk that reaches the outermost frame (_start, a
 * thread's clone) drops the trailing frames in libc: the main thread's
 * __libc_start_main and its helper, as the frame-pointer walk never had
 * them. */
/* What a walk read from the stack, in order (see the stack-id cache
 * below); NULL when nobody records. */
#define SC_READS 62
typedef struct walk_rec {
  u32 n;          /* reads; more than SC_READS: too long to record */
  bool uncached;  /* the result depends on more than the reads */
  uptr addr[SC_READS], val[SC_READS];
} walk_rec_t;

static HP_ALWAYS_INLINE uptr rd(walk_rec_t *rec, uptr addr) {
  uptr v = *(const uptr *)addr;
  if (rec) {
    if (rec->n < SC_READS) {
      rec->addr[rec->n] = addr;
      rec->val[rec->n] = v;
    }
    rec->n++;
  }
  return v;
}

static HP_ALWAYS_INLINE u32 walk(uptr *pcs, u32 max, uptr fp, uptr stack_top,
                                 bool fold, walk_rec_t *rec) {
  u32 n = 0, walked = 0;
  uptr ring[HP_FOLD_WINDOW];
  if (!max || !frame_ok(fp, 0, stack_top))
    return 0;
  uptr ra = rd(rec, fp + sizeof(uptr)), bp = rd(rec, fp),
       sp = fp + 2 * sizeof(uptr);
  bool reached_end = false;
  for (;;) {
    if (ra < 4096)
      break;
    u64 r = cfi_lookup(ra - 1);
    u64 kind = r & HP_CFI_KIND_MASK;
    uptr next_ra, next_bp, next_sp;
    if (HP_LIKELY(r == HP_CFI_FRAME_POINTER)) {
      /* The common case, a function with a frame pointer: written as the
       * frame-pointer step so the CPU need not wait for the recipe. */
      if (!frame_ok(bp, sp - 2 * sizeof(uptr), stack_top))
        break;
      next_ra = rd(rec, bp + sizeof(uptr));
      next_bp = rd(rec, bp);
      next_sp = bp + 2 * sizeof(uptr);
    } else if (kind == HP_CFI_STEP) {
      uptr cfa = ((r & HP_CFI_CFA_RBP) ? bp : sp) + (uptr)(u32)(r >> 32);
      if (cfa < sp + sizeof(uptr) || cfa > stack_top || (cfa & 7))
        break;
      next_ra = rd(rec, cfa - sizeof(uptr));
      next_sp = cfa;
      u32 rule = (u32)(r >> 3) & 3;
      if (rule == 0) {
        next_bp = bp;
      } else if (rule == 1) {
        uptr at = cfa + (uptr)(s64)(int16_t)(u16)(r >> 16);
        if (at < sp || at + sizeof(uptr) > stack_top)
          break;
        next_bp = rd(rec, at);
      } else {
        next_bp = 0;
      }
    } else if (kind == HP_CFI_END) {
      reached_end = true;
      break;
    } else {
      /* The frame-pointer step, with the checks of hp_unwind_fp: the
       * caller's frame (bp) inside the stack, above this one. */
      if (!frame_ok(bp, sp - 2 * sizeof(uptr), stack_top))
        break;
      next_ra = rd(rec, bp + sizeof(uptr));
      next_bp = rd(rec, bp);
      next_sp = bp + 2 * sizeof(uptr);
    }
    if (!take_frame(pcs, &n, max, ring, &walked, ra - 1, fold))
      break;
    ra = next_ra;
    bp = next_bp;
    sp = next_sp;
  }
  if (reached_end) {
    uptr lo = hp_cfi_libc_lo,
         hi = __atomic_load_n(&hp_cfi_libc_hi, __ATOMIC_ACQUIRE);
    if (rec && !hi) /* libc not located yet: a later walk may trim more */
      rec->uncached = true;
    while (n > 0 && pcs[n - 1] >= lo && pcs[n - 1] < hi)
      n--;
  }
  return n;
}

u32 hp_unwind(uptr *pcs, u32 max, uptr fp, uptr stack_top, bool fold) {
  return walk(pcs, max, fp, stack_top, fold, NULL);
}

static HP_NOINLINE u32 walk_recorded(uptr *pcs, u32 max, uptr fp,
                                     uptr stack_top, bool fold,
                                     walk_rec_t *rec) {
  return walk(pcs, max, fp, stack_top, fold, rec);
}

/* ------------------------------------------------- the stack-id cache
 *
 * A walk is a function of the words it reads from the stack (the entry
 * frame's saved rbp and return address, then each caller's), of fp and
 * stack_top, of max and fold, and of the CFI recipes of the return
 * addresses read, which depend on the code alone.  So when every word a
 * previous walk from the same fp read is still the same, this walk would
 * read the same words, take the same steps and keep the same PCs: the
 * previous stack id is the answer, without the walk, the folding or the
 * depot.  mprof reused what it knew of the caller chain the same way; here
 * nothing is guessed, every word is compared.
 *
 *   sc_table[hash(fp, return address)] --> | seq | fp | top | max,fold |
 *                                          | id | n | (addr, value) x n |
 *
 * One global table (threads' stacks are disjoint, so their entries never
 * match each other's), direct-mapped, a seqlock per entry: seq is odd
 * while a writer (who got it with a CAS, so a signal handler that
 * allocates in the middle of an update does not write too) fills the
 * entry; a reader that sees it odd or changed treats the entry as a miss.
 * A reader never dereferences a recorded address outside [fp, stack_top)
 * of its own stack (a torn entry can hold anything), where every word a
 * walk reads lies.  A slot whose entry keeps failing its comparison
 * (binary trees: the same fp and return address on a different path each
 * time) is left alone for a while, so such programs pay little
 * more than the comparison of the first words. */
#define SC_BITS 11
typedef struct sc_entry {
  u32 seq;
  u16 n;
  u8 fails, rest;
  u32 id, limits;
  uptr fp, top;
  u32 off[SC_READS]; /* address - fp */
  uptr val[SC_READS];
} sc_entry_t;
static sc_entry_t *sc_table;

void hp_stack_cache_init(void) {
  if (!sc_table)
    sc_table = hp_mmap_noreserve(sizeof(sc_entry_t) << SC_BITS,
                                 "stack id cache");
}

#define LD(p) __atomic_load_n(p, __ATOMIC_RELAXED)
#define ST(p, v) __atomic_store_n(p, v, __ATOMIC_RELAXED)

/* The id of e's walk if e recorded a walk from fp that this stack would
 * repeat; 0 otherwise. */
static HP_ALWAYS_INLINE u32 sc_lookup(sc_entry_t *e, uptr fp, uptr top,
                                      u32 limits) {
  u32 s1 = __atomic_load_n(&e->seq, __ATOMIC_ACQUIRE);
  if ((s1 & 1) || LD(&e->fp) != fp || LD(&e->top) != top ||
      LD(&e->limits) != limits)
    return 0;
  u32 n = LD(&e->n);
  if (!n || n > SC_READS)
    return 0;
  uptr span = top - sizeof(uptr) - fp; /* fp + 16 <= top: no wrap */
  for (u32 k = 0; k < n; k++) {
    u32 off = LD(&e->off[k]);
    if (off > span || *(const uptr *)(fp + off) != LD(&e->val[k]))
      return 0;
  }
  u32 id = LD(&e->id);
  __atomic_thread_fence(__ATOMIC_ACQUIRE);
  return LD(&e->seq) == s1 ? id : 0;
}

static HP_NOINLINE void sc_fill(sc_entry_t *e, uptr fp, uptr top, u32 limits,
                                u32 id, const walk_rec_t *rec) {
  u32 s = LD(&e->seq);
  if ((s & 1) || !__atomic_compare_exchange_n(&e->seq, &s, s + 1, false,
                                              __ATOMIC_ACQUIRE,
                                              __ATOMIC_RELAXED))
    return;
  __atomic_thread_fence(__ATOMIC_RELEASE);
  ST(&e->fp, fp);
  ST(&e->top, top);
  ST(&e->limits, limits);
  ST(&e->id, id);
  ST(&e->n, (u16)rec->n);
  for (u32 k = 0; k < rec->n; k++) {
    ST(&e->off[k], (u32)(rec->addr[k] - fp));
    ST(&e->val[k], rec->val[k]);
  }
  __atomic_store_n(&e->seq, s + 2, __ATOMIC_RELEASE);
}

u32 hp_stack_id(uptr fp, uptr stack_top, u32 max, bool fold) {
  uptr pcs[HP_MAX_STACK_DEPTH];
  if (max > HP_MAX_STACK_DEPTH)
    max = HP_MAX_STACK_DEPTH;
  if (!sc_table || !max || !frame_ok(fp, 0, stack_top))
    return hp_stackdepot_put(pcs, hp_unwind(pcs, max, fp, stack_top, fold));
  u32 limits = max | (u32)fold << 8;
  uptr ra = ((const uptr *)fp)[1];
  sc_entry_t *e = &sc_table[((fp >> 4) ^ ra) * 0x9E3779B97F4A7C15ull >>
                            (64 - SC_BITS)];
  /* A slot that failed 3 times in a row rests for 255 calls: not even
   * compared. */
  u8 fails = LD(&e->fails);
  if (HP_UNLIKELY(fails >= 3)) {
    u8 rest = LD(&e->rest) + 1;
    ST(&e->rest, rest);
    if (rest < 255)
      return hp_stackdepot_put(pcs, hp_unwind(pcs, max, fp, stack_top, fold));
    ST(&e->rest, 0);
    fails = 0;
  }
  u32 id = sc_lookup(e, fp, stack_top, limits);
  if (HP_LIKELY(id)) {
    if (HP_UNLIKELY(fails))
      ST(&e->fails, 0);
    return id;
  }
  ST(&e->fails, fails + 1);
  walk_rec_t rec;
  rec.n = 0;
  rec.uncached = false;
  u32 n = walk_recorded(pcs, max, fp, stack_top, fold, &rec);
  id = hp_stackdepot_put(pcs, n);
  /* Stack offsets fit 32 bits (stacks are far smaller than 4 GiB). */
  if (!rec.uncached && rec.n && rec.n <= SC_READS &&
      stack_top - fp < (1ull << 32))
    sc_fill(e, fp, stack_top, limits, id, &rec);
  return id;
}

u32 hp_fold_recursion(uptr *pcs, u32 n) {
  /* Judged against the original walk (not the kept frames), so the result
   * depends only on the stack. */
  uptr ring[HP_FOLD_WINDOW];
  u32 k = 0;
  for (u32 i = 0; i < n; i++)
    if (!fold_repeat(ring, i, pcs[i]))
      pcs[k++] = pcs[i];
  return k;
}
