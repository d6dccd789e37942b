/*===- heapprof_foreign.c - profiling another allocator -----------------===
 *
 * Part of heapprof.  allocator=system or allocator=PATH: every allocation
 * function calls through to the allocator the program would have used --
 * the next definition after the runtime in the dynamic loader's search
 * order: glibc's, or the library heapprof run preloads after
 * libheapprof_rt.so -- and profiles the call around it:
 *
 *   allocate: RDTSC -> the wrapped allocator's call -> (sampled) RDTSC ->
 *     unwind -> StackDepot id -> side-table entry for the address.
 *   free: take the address's entry out of the side table -> scan and clear
 *     the object's shadow granules -> the wrapped free -> chunk event into
 *     the thread's HIB cache, as hp_deallocate makes it.
 *
 * The side table replaces the chunk header: address -> {size, stack id,
 * allocation time, cpu, sampled cycles, kind, flags}.  64 stripes, chosen
 * by a hash of the address's 64 KiB region (stripe_of), each an
 * open-addressing table keyed by the address's hash (linear probing,
 * backward-shift deletion, no tombstones) in its own mmap'd array under its
 * own spin lock, doubled when three quarters full.  No malloc anywhere.  A
 * free or realloc of an address that is not in the table (allocated before
 * the runtime was ready, or by a call that bypassed the runtime, e.g.
 * __libc_malloc) passes through unrecorded.
 *
 * Before the wrapped functions are resolved -- dlsym itself may calloc (the
 * dlerror buffer) -- allocations come from a small static bootstrap arena;
 * free ignores its pointers and realloc moves them to the real allocator.
 *
 * Cycles: only the wrapped call is timed (the allocator's own cost, not the
 * profiler's), on the same sampled ticks as heapprof's allocator; with
 * alloc_faults, page faults are counted in and outside the calls and a call
 * during which the thread lost the CPU is not a sample (heapprof_faults.h).
 *
 * sample_bytes=N (sampling): only the allocations the countdown picks
 * (heapprof_sample.h) get a stack and an entry, and their records are
 * weighted; every call is still counted and timed by operation class.  A
 * free looks in the table only when a small counting filter of the
 * entries' addresses (filter_slot) says the address may be there, and a
 * call that makes or frees no sampled object is a quick call (below): an
 * unsampled pair costs the countdown, the class counts, one load of a
 * counter and two of the fault ring's head rather than a stack, the
 * table's lines and locks and a merge (docs/run.md, "Sampled, on another
 * allocator").  An
 * unsampled request over HP_FOREIGN_LARGE gets an entry marked cost-only,
 * so that its free is still counted as large; dumps never see those.
 *===----------------------------------------------------------------------===*/
#include "heapprof_internal.h"
#include "heapprof_liveset.h"

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

int hp_foreign_state;

static struct {
  void *(*malloc)(size_t);
  void (*free)(void *);
  void *(*calloc)(size_t, size_t);
  void *(*realloc)(void *, size_t);
  void *(*memalign)(size_t, size_t);
  void *(*aligned_alloc)(size_t, size_t);
  int (*posix_memalign)(void **, size_t, size_t);
  void *(*valloc)(size_t);
  void *(*pvalloc)(size_t);
  size_t (*malloc_usable_size)(void *);
  /* The allocator library's own operator new[] (nothrow) and delete[],
   * when it defines them (jemalloc, tcmalloc, mimalloc do; glibc does
   * not): C++ allocations then take the library's C++ path. */
  void *(*new_nt)(size_t, const void *);
  void *(*new_array_nt)(size_t, const void *);
  void (*delete_)(void *);
  void (*delete_array)(void *);
} real;

/* The std::nothrow_t argument: an empty struct, passed by reference. */
static const char nothrow_tag;

/* The wrapped allocator's operations, counted in the operation classes
 * of heapprof_opclass.h like heapprof's own (docs/allocator-profiler.md
 * section 2), with two differences: "large" means a request over
 * HP_FOREIGN_LARGE (glibc's default mmap threshold; what the allocator
 * did is its own business), and the block axis is always "-": whether the
 * wrapped allocator handed out a new or a reused block is not visible from
 * outside it. */
#define HP_FOREIGN_LARGE (128u << 10)
enum {
  HP_FOREIGN_OP_MALLOC,
  HP_FOREIGN_OP_CALLOC,
  HP_FOREIGN_OP_REALLOC,
  HP_FOREIGN_OP_MEMALIGN,
  HP_FOREIGN_OP_FREE,
};

/* The operation class of a call of op on memory of that kind. */
static HP_ALWAYS_INLINE u32 foreign_class(int op, u8 kind, uptr size) {
  static const u8 ops[] = {HP_OP_MALLOC, HP_OP_CALLOC, HP_OP_REALLOC,
                           HP_OP_MEMALIGN, HP_OP_FREE};
  u8 o = ops[op];
  if (kind != HP_ALLOC_MALLOC)
    o = o == HP_OP_FREE ? HP_OP_DELETE : HP_OP_NEW;
  return HP_OPC_CLASS(o, size > HP_FOREIGN_LARGE, HP_BLOCK_NONE,
                      hp_thread_count() > 1);
}

/* Every recorded operation (t: the calling thread's state, held): its
 * class's count, its cycles when sampled (not the thread's first call),
 * and the system calls it made (noted by count_syscall). */
static HP_ALWAYS_INLINE void foreign_op_cost(hp_thread_t *t, int op, u8 kind,
                                             uptr size, u64 cycles) {
  if (HP_UNLIKELY(hp_faults_on()))
    hp_faults_note_call(); /* its page faults, as pending system calls */
  bool sys = hp_sys_pending;
  if (!hp_flags.op_classes && !sys)
    return;
  u32 cls = foreign_class(op, kind, size);
  if (HP_UNLIKELY(sys))
    hp_syscalls_charge(cls);
  if (!hp_flags.op_classes)
    return;
  hp_opclass_count(&t->opc, cls);
  if (cycles && t->stats.mallocs + t->stats.frees > 1)
    hp_opclass_sample(&t->opc, cls, cycles);
}

/* --------------------------------------------------------- system calls */

/* The wrapped allocator's system calls, counted two ways (docs/run.md
 * "System calls" says which allocator each one sees):
 *  - libheapprof_rt.so defines mmap, munmap, madvise, mremap, brk and sbrk:
 *    calls through the PLT (jemalloc's, tcmalloc's, mimalloc's) made while
 *    this thread is inside a wrapped allocator call are counted;
 *  - glibc's malloc makes its calls internally, not through the PLT: for
 *    allocator=system, a change of the break (__curbrk, no system call)
 *    across a call counts one brk, and a chunk glibc marks IS_MMAPPED
 *    counts its mmap at allocation and its munmap at free. */
static u64 syscall_counts[HP_FOREIGN_NSYSCALLS];
static HP_TLS u32 in_wrapped; /* inside a wrapped allocator call */
/* busy: this thread is inside the runtime's own bookkeeping (a stripe, the
 * stack depot or the HIB cache may be locked by it).  A call made there --
 * by a signal handler that allocates -- passes through unrecorded instead
 * of waiting for a lock its own thread holds: a free of a recorded object
 * then leaves its entry behind (replaced when the address is reused). */
static HP_TLS u32 busy;
/* Objects the side table could not hold (a mapping failed): not profiled. */
static u64 dropped;
/* Sampled calls over HP_FOREIGN_SLOW_CYCLES, and their cycles: mostly calls
 * during which the thread was preempted (a loaded machine), sometimes a
 * real system call that faulted pages in.  Kept in the totals; counted
 * apart so a benchmark can tell the allocator's cost from the scheduler's
 * (bench/allocprof/allocators.sh). */
#define HP_FOREIGN_SLOW_CYCLES (1ull << 20)
static u64 slow_calls, slow_cycles;
static bool glibc;            /* allocator=system */
static uptr last_brk;

/* One system call of the wrapped allocator: in print_stats' counts, and
 * noted (with its length; its cycles are not measured) for the class of
 * the operation that made it (tagged section 3). */
static HP_ALWAYS_INLINE void count_syscall(int which, uptr bytes) {
  static const u8 sys[HP_FOREIGN_NSYSCALLS] = {
      HP_SYS_MMAP, HP_SYS_MUNMAP, HP_SYS_MADVISE, HP_SYS_MREMAP, HP_SYS_BRK};
  __atomic_add_fetch(&syscall_counts[which], 1, __ATOMIC_RELAXED);
  hp_sys_note(sys[which], bytes, 0);
}

void hp_foreign_syscall_counts(u64 out[HP_FOREIGN_NSYSCALLS]) {
  for (int i = 0; i < HP_FOREIGN_NSYSCALLS; i++)
    out[i] = __atomic_load_n(&syscall_counts[i], __ATOMIC_RELAXED);
}

void hp_foreign_print_stats(void) {
  if (hp_foreign_state != HP_FOREIGN_ON)
    return;
  static const char *const names[HP_FOREIGN_NSYSCALLS] = {
      "alloc_mmap", "alloc_munmap", "alloc_madvise", "alloc_mremap",
      "alloc_brk"};
  u64 c[HP_FOREIGN_NSYSCALLS];
  hp_foreign_syscall_counts(c);
  for (int i = 0; i < HP_FOREIGN_NSYSCALLS; i++)
    hp_printf("  %-16s %20llu  %s\n", names[i], (unsigned long long)c[i],
              "the wrapped allocator's system calls seen (docs/run.md)");
  hp_printf("  %-16s %20llu  %s\n", "slow_calls",
            (unsigned long long)slow_calls,
            "sampled calls over 2^20 cycles (preempted, or page faults)");
  hp_printf("  %-16s %20llu  %s\n", "slow_cycles",
            (unsigned long long)slow_cycles, "their cycles (in the totals)");
  if (dropped)
    hp_printf("  %-16s %20llu  %s\n", "side_dropped",
              (unsigned long long)dropped,
              "objects the side table had no memory for (not profiled)");
}

/* glibc's break, as its sbrk(0) returns it once the break is known (init
 * calls sbrk(0) first): its exported __curbrk, read directly.  sbrk(0) on
 * every call was two calls (heapprof's interposed sbrk, then glibc's) and
 * an errno save around them; NULL if glibc does not export it (then
 * sbrk(0)).  Set once by hp_foreign_init. */
static void *const *glibc_curbrk;

/* glibc: the break moved since last seen (by any thread: each move once). */
static HP_ALWAYS_INLINE void glibc_brk_check(void) {
  uptr b;
  if (HP_LIKELY(glibc_curbrk)) {
    b = (uptr)__atomic_load_n(glibc_curbrk, __ATOMIC_RELAXED);
  } else {
    int saved = errno;
    b = (uptr)sbrk(0);
    errno = saved;
  }
  uptr old = __atomic_load_n(&last_brk, __ATOMIC_RELAXED);
  if (b != old && __atomic_compare_exchange_n(&last_brk, &old, b, false,
                                              __ATOMIC_RELAXED,
                                              __ATOMIC_RELAXED))
    count_syscall(HP_FOREIGN_SYS_BRK, b > old ? b - old : old - b);
}

/* glibc's chunk header: the size word before the user pointer, bit 1
 * IS_MMAPPED. */
static HP_ALWAYS_INLINE bool glibc_mmapped(const void *p) {
  return ((const uptr *)p)[-1] & 2;
}

/* The length of a glibc chunk's mapping (its size word without the flag
 * bits). */
static HP_ALWAYS_INLINE uptr glibc_chunk_len(const void *p) {
  return ((const uptr *)p)[-1] & ~(uptr)7;
}

#ifdef HEAPPROF_SHARED_RUNTIME
/* The interposed calls: the kernel's directly (what glibc's wrappers do),
 * counted inside a wrapped allocator call, with their lengths if they
 * succeeded: a failed one (jemalloc's and glibc's mmap and sbrk of 2^62
 * bytes for a malloc that returns NULL) counts 0 bytes, where its length
 * summed to exabytes past what JSON's int64 holds. */
/* mmap and mmap64 are one call on x86-64 (off_t is 64 bits). */
static void *interposed_mmap(void *addr, size_t len, int prot, int flags,
                             int fd, off_t off) {
  void *p = MAP_FAILED;
  if (off & (HP_PAGE_SIZE - 1))
    errno = EINVAL;
  else /* As longs: syscall() reads them so (heapprof_faults.c). */
    p = (void *)syscall(SYS_mmap, addr, len, (long)prot, (long)flags,
                        (long)fd, (long)off);
  if (in_wrapped)
    count_syscall(HP_FOREIGN_SYS_MMAP, p != MAP_FAILED ? len : 0);
  return p;
}

HP_INTERFACE void *mmap(void *addr, size_t len, int prot, int flags, int fd,
                        off_t off) {
  return interposed_mmap(addr, len, prot, flags, fd, off);
}

HP_INTERFACE void *mmap64(void *addr, size_t len, int prot, int flags, int fd,
                          off_t off) {
  return interposed_mmap(addr, len, prot, flags, fd, off);
}

HP_INTERFACE int munmap(void *addr, size_t len) {
  int r = (int)syscall(SYS_munmap, addr, len);
  if (in_wrapped)
    count_syscall(HP_FOREIGN_SYS_MUNMAP, r == 0 ? len : 0);
  return r;
}

HP_INTERFACE int madvise(void *addr, size_t len, int advice) {
  int r = (int)syscall(SYS_madvise, addr, len, (long)advice);
  if (in_wrapped)
    count_syscall(HP_FOREIGN_SYS_MADVISE, r == 0 ? len : 0);
  return r;
}

HP_INTERFACE void *mremap(void *old, size_t old_len, size_t new_len,
                          int flags, ...) {
  void *new_addr = NULL;
  if (flags & MREMAP_FIXED) {
    va_list ap;
    va_start(ap, flags);
    new_addr = va_arg(ap, void *);
    va_end(ap);
  }
  void *p = (void *)syscall(SYS_mremap, old, old_len, new_len, (long)flags,
                            new_addr);
  if (in_wrapped)
    count_syscall(HP_FOREIGN_SYS_MREMAP, p != MAP_FAILED ? new_len : 0);
  return p;
}

/* brk and sbrk keep libc's idea of the break: libc's own, found on first
 * use (never inside an allocator call before init: init resolves them). */
static int (*next_brk)(void *);
static void *(*next_sbrk)(intptr_t);
static void resolve_brk(void) {
  if (!next_brk)
    next_brk = (int (*)(void *))dlsym(RTLD_NEXT, "brk");
  if (!next_sbrk)
    next_sbrk = (void *(*)(intptr_t))dlsym(RTLD_NEXT, "sbrk");
}

HP_INTERFACE int brk(void *addr) {
  if (in_wrapped)
    count_syscall(HP_FOREIGN_SYS_BRK, 0);
  if (HP_UNLIKELY(!next_brk))
    resolve_brk();
  return next_brk(addr);
}

HP_INTERFACE void *sbrk(intptr_t inc) {
  if (HP_UNLIKELY(!next_sbrk))
    resolve_brk();
  void *p = next_sbrk(inc);
  if (in_wrapped && inc) {
    uptr len = inc < 0 ? (uptr)-inc : (uptr)inc;
    count_syscall(HP_FOREIGN_SYS_BRK, p == (void *)-1 ? 0 : len);
  }
  return p;
}
#else
static void resolve_brk(void) {}
#endif

/* ------------------------------------------------------------ bootstrap */

#define BOOT_SIZE (64u * 1024)
#define BOOT_HEADER 16u
static _Alignas(4096) char boot_arena[BOOT_SIZE];
static uptr boot_used;

static void *boot_alloc(uptr size, uptr align, bool zero) {
  (void)zero; /* the arena is never reused: still zero */
  if (align < BOOT_HEADER)
    align = BOOT_HEADER;
  uptr used = __atomic_load_n(&boot_used, __ATOMIC_RELAXED);
  for (;;) {
    uptr beg = HP_ROUND_UP((uptr)boot_arena + used + BOOT_HEADER, align);
    uptr end = beg + HP_ROUND_UP(size ? size : 1, BOOT_HEADER);
    if (size > BOOT_SIZE || end > (uptr)boot_arena + BOOT_SIZE) {
      errno = ENOMEM;
      return NULL;
    }
    if (__atomic_compare_exchange_n(&boot_used, &used, end - (uptr)boot_arena,
                                    false, __ATOMIC_RELAXED,
                                    __ATOMIC_RELAXED)) {
      ((uptr *)beg)[-1] = size;
      return (void *)beg;
    }
  }
}

static HP_ALWAYS_INLINE bool is_boot(const void *p) {
  return (uptr)p - (uptr)boot_arena < BOOT_SIZE;
}

static uptr boot_size(const void *p) { return ((const uptr *)p)[-1]; }

/* ----------------------------------------------------------- side table */

typedef struct fentry {
  uptr addr; /* 0: empty slot */
  /* size: below 2^48 (no larger allocation succeeds); thread: the
   * allocating thread's number (hp_thread_t's seq: 1, 2, ... in creation
   * order; after 65,535 threads numbers repeat, and two threads of one
   * number look like one: false sharing between them is missed, never
   * invented), for false sharing measured on the real addresses
   * (heapprof_falseshare.h). */
  u64 size : 48;
  u64 thread : 16;
  u32 stack_id;
  u32 ts_ms;
  u32 cycles; /* sampled allocating call, 0 if not sampled */
  u16 cpu;
  u8 kind : 7; /* HP_ALLOC_* */
  /* The last profile (the exit one) folded this entry live: it is in that
   * profile, and its free records no event (the own allocator's
   * HP_CHUNK_LAST, which flags has no bit left for).  Per entry, not per
   * stripe: an object allocated into a stripe after the fold went over it
   * is in no profile yet, and its free before the dump's last write-back
   * counts it allocated and freed. */
  u8 folded : 1;
  u8 flags; /* HP_CHUNK_REPORTED, FENTRY_GEN, HP_CHUNK_WEIGHT_UP,
               FENTRY_COST_ONLY */
} fentry_t;
/* Bits 1-5: hp_fork_gen when allocated, modulo 32 (heapprof_chunk.h); the
 * entry has no room for more.  An object inherited over a multiple of 32
 * nested forks would be taken for the process's own. */
#define FENTRY_GEN_SHIFT 1
#define FENTRY_GEN_MASK 0x3e
static u8 fentry_gen(void) {
  return (u8)((hp_fork_gen << FENTRY_GEN_SHIFT) & FENTRY_GEN_MASK);
}
static bool fentry_inherited(const fentry_t *e) {
  return (e->flags & FENTRY_GEN_MASK) != fentry_gen();
}
/* An unsampled large object's entry (sampling): its size, for its free's
 * operation class; not an object of the profile. */
#define FENTRY_COST_ONLY 0x80
_Static_assert(((HP_CHUNK_REPORTED | HP_CHUNK_WEIGHT_UP | FENTRY_COST_ONLY) &
                FENTRY_GEN_MASK) == 0 &&
                   (HP_CHUNK_REPORTED & HP_CHUNK_WEIGHT_UP) == 0 &&
                   ((HP_CHUNK_REPORTED | HP_CHUNK_WEIGHT_UP) &
                    FENTRY_COST_ONLY) == 0,
               "the entry's flags are distinct bits");
_Static_assert(sizeof(fentry_t) == 32, "side-table entry is 32 bytes");

#define NSTRIPES 64
#define STRIPE_INITIAL 1024

typedef struct stripe {
  hp_spinlock_t lock;
  fentry_t *slots;
  u64 cap, n;
} __attribute__((aligned(64))) stripe_t;

static stripe_t stripes[NSTRIPES];

/* sampling: a count of the table's entries by a hash of their address.
 * A free whose counter reads 0 has no entry: the object was allocated by
 * this thread, or handed to it after its entry went in (the program's own
 * synchronisation orders the increment before the free).  Written under
 * the stripes' locks, read without.  Set once at init. */
static bool sampling;
#define FILTER_BITS 13
static u32 *filter;

static HP_ALWAYS_INLINE u64 hash_addr(uptr a) {
  return (u64)(a >> 4) * 0x9E3779B97F4A7C15ull;
}
/* The stripe is chosen by the address's 64 KiB region, not by the
 * address: allocators hand each thread memory of its own regions (glibc's
 * arenas, jemalloc's, mimalloc's thread-local pages, tcmalloc's batches of
 * a span), so a thread's entries and its stripes' locks stay in its own
 * core's cache.  Chosen by the address alone, every stripe took every
 * thread's entries, and on larson (2 threads) 70% of the time in the table
 * went to taking a lock last held on the other core (docs/design.md,
 * "Profiling another allocator"). */
#define STRIPE_REGION_SHIFT 16
static HP_ALWAYS_INLINE stripe_t *stripe_of(uptr addr) {
  return &stripes[((u64)(addr >> STRIPE_REGION_SHIFT) * 0x9E3779B97F4A7C15ull) >> 58];
}
static HP_ALWAYS_INLINE u64 home_of(u64 h, u64 cap) {
  return (h >> 16) & (cap - 1);
}
static HP_ALWAYS_INLINE u32 *filter_slot(uptr a) {
  return &filter[hash_addr(a) >> (64 - FILTER_BITS)];
}
/* False when addr has no entry for sure. */
static HP_ALWAYS_INLINE bool may_have(uptr addr) {
  return !sampling || __atomic_load_n(filter_slot(addr), __ATOMIC_RELAXED);
}

static void put_slot(fentry_t *slots, u64 cap, const fentry_t *e) {
  u64 i = home_of(hash_addr(e->addr), cap);
  while (slots[i].addr && slots[i].addr != e->addr)
    i = (i + 1) & (cap - 1);
  slots[i] = *e;
}

static bool grow(stripe_t *s) {
  u64 cap = s->cap ? s->cap * 2 : STRIPE_INITIAL;
  fentry_t *slots = hp_mmap(cap * sizeof(fentry_t));
  if (!slots)
    return false;
  for (u64 i = 0; i < s->cap; i++)
    if (s->slots[i].addr)
      put_slot(slots, cap, &s->slots[i]);
  if (s->slots)
    hp_munmap(s->slots, s->cap * sizeof(fentry_t));
  s->slots = slots;
  s->cap = cap;
  return true;
}

/* Puts e in the table.  true with *old when its address was there: that
 * object was freed behind the runtime's back (__libc_free, jemalloc's
 * sdallocx or dallocx, mimalloc's mi_free) and its memory handed out
 * again. */
static HP_ALWAYS_INLINE bool table_insert(const fentry_t *e, fentry_t *old,
                                          bool *old_last) {
  stripe_t *s = stripe_of(e->addr);
  hp_spin_lock(&s->lock);
  if ((s->n + 1) * 4 > s->cap * 3 && !grow(s)) {
    hp_spin_unlock(&s->lock);
    __atomic_add_fetch(&dropped, 1, __ATOMIC_RELAXED);
    return false;
  }
  u64 i = home_of(hash_addr(e->addr), s->cap);
  while (s->slots[i].addr && s->slots[i].addr != e->addr)
    i = (i + 1) & (s->cap - 1);
  bool replaced = s->slots[i].addr != 0;
  if (replaced) {
    *old = s->slots[i];
    *old_last = old->folded;
  } else {
    s->n++;
    if (sampling)
      __atomic_add_fetch(filter_slot(e->addr), 1, __ATOMIC_RELAXED);
  }
  s->slots[i] = *e;
  hp_spin_unlock(&s->lock);
  return replaced;
}

/* Takes addr's entry out into *out; false if it is not there.  *last: the
 * last profile has it live (fentry_t's folded). */
static HP_ALWAYS_INLINE bool table_remove(uptr addr, fentry_t *out,
                                          bool *last) {
  u64 h = hash_addr(addr);
  stripe_t *s = stripe_of(addr);
  hp_spin_lock(&s->lock);
  if (!s->n) {
    hp_spin_unlock(&s->lock);
    return false;
  }
  u64 mask = s->cap - 1, i = home_of(h, s->cap);
  while (s->slots[i].addr != addr) {
    if (!s->slots[i].addr) {
      hp_spin_unlock(&s->lock);
      return false;
    }
    i = (i + 1) & mask;
  }
  *out = s->slots[i];
  *last = out->folded;
  /* Backward shift: move up every later entry of the run that may live in
   * the hole (its home is not cyclically in (hole, j]). */
  for (u64 j = (i + 1) & mask; s->slots[j].addr; j = (j + 1) & mask) {
    u64 k = home_of(hash_addr(s->slots[j].addr), s->cap);
    bool stays = i <= j ? (i < k && k <= j) : (i < k || k <= j);
    if (!stays) {
      s->slots[i] = s->slots[j];
      i = j;
    }
  }
  s->slots[i].addr = 0;
  s->n--;
  if (sampling)
    __atomic_sub_fetch(filter_slot(addr), 1, __ATOMIC_RELAXED);
  hp_spin_unlock(&s->lock);
  return true;
}

/* The size of the live object at addr, 0 if the table does not hold it. */
static uptr table_size(uptr addr) {
  u64 h = hash_addr(addr);
  stripe_t *s = stripe_of(addr);
  uptr size = 0;
  hp_spin_lock(&s->lock);
  if (s->n) {
    u64 mask = s->cap - 1;
    for (u64 i = home_of(h, s->cap); s->slots[i].addr; i = (i + 1) & mask)
      if (s->slots[i].addr == addr) {
        size = s->slots[i].size;
        break;
      }
  }
  hp_spin_unlock(&s->lock);
  return size;
}

static void lock_all(void) {
  for (u32 i = 0; i < NSTRIPES; i++)
    hp_spin_lock(&stripes[i].lock);
}
static void unlock_all(void) {
  for (u32 i = NSTRIPES; i-- > 0;)
    hp_spin_unlock(&stripes[i].lock);
}

/* hp_foreign_hold's: the stripes are this thread's already. */
static bool held;

void hp_foreign_hold(bool on) {
  if (hp_foreign_state != HP_FOREIGN_ON)
    return;
  if (on) {
    busy++;
    lock_all();
    held = true;
  } else {
    held = false;
    unlock_all();
    busy--;
  }
}

/* One entry to fn as a chunk header built from it; what fn changes in the
 * header is written back.  Its stripe is locked (or held). */
static void visit_live(fentry_t *e, hp_chunk_fn fn, void *arg) {
  hp_chunk_header_t h;
  hp_memset(&h, 0, sizeof(h));
  h.state = HP_CHUNK_ALLOCATED;
  h.alloc_kind = e->kind;
  /* Not the generation's bits: bit 1 of them is HP_CHUNK_LAST's, which the
   * fold sets (the header's fork_gen has the generation). */
  h.flags = e->flags & (u8)~FENTRY_GEN_MASK;
  h.requested_size =
      e->size >= HP_SIZE_IN_LARGE ? HP_SIZE_IN_LARGE : (u32)e->size;
  h.timestamp_ms = e->ts_ms;
  h.cpu_id = e->cpu;
  h.alloc_context_id = e->stack_id;
  h.fork_gen = fentry_inherited(e) ? ~hp_fork_gen : hp_fork_gen;
  h.alloc_cycles = e->cycles;
  fn(&h, e->addr, e->size, arg);
  /* The generation's bits are the entry's: the fold's HP_CHUNK_LAST is one
   * of them (folded keeps it instead). */
  if (h.flags & HP_CHUNK_LAST)
    e->folded = 1;
  e->flags = (u8)((h.flags & ~FENTRY_GEN_MASK) | (e->flags & FENTRY_GEN_MASK));
  e->ts_ms = h.timestamp_ms;
  e->cpu = (u16)h.cpu_id;
}

void hp_foreign_for_each_live(hp_chunk_fn fn, void *arg) {
  if (HP_SAMPLED_MODE()) {
    hp_sample_for_each_live(fn, arg);
    return;
  }
  if (hp_foreign_state != HP_FOREIGN_ON)
    return;
  busy++;
  for (u32 si = 0; si < NSTRIPES; si++) {
    stripe_t *s = &stripes[si];
    if (!held)
      hp_spin_lock(&s->lock);
    for (u64 i = 0; i < s->cap; i++) {
      fentry_t *e = &s->slots[i];
      if (e->addr && !(e->flags & FENTRY_COST_ONLY))
        visit_live(e, fn, arg);
    }
    if (!held)
      hp_spin_unlock(&s->lock);
  }
  busy--;
}

static void collect_live(uptr addr, uptr size, u64 stack_id, u32 thread,
                         void *arg) {
  (void)stack_id;
  (void)thread;
  hp_liveset_add(arg, addr, size, 0, 0);
}

void hp_foreign_for_each_live_sorted(hp_chunk_fn fn, void *arg) {
  if (hp_foreign_state != HP_FOREIGN_ON) {
    hp_foreign_for_each_live(fn, arg);
    return;
  }
  hp_live_set_t ls = {0};
  hp_foreign_for_each_object(collect_live, &ls);
  if (ls.failed || !hp_liveset_sort(&ls)) {
    hp_liveset_free(&ls);
    hp_foreign_for_each_live(fn, arg); /* out of memory: table order */
    return;
  }
  busy++;
  for (u64 k = 0; k < ls.n; k++) {
    uptr addr = ls.v[k].beg;
    stripe_t *s = stripe_of(addr);
    if (!held)
      hp_spin_lock(&s->lock);
    if (s->n) {
      u64 mask = s->cap - 1, i = home_of(hash_addr(addr), s->cap);
      while (s->slots[i].addr && s->slots[i].addr != addr)
        i = (i + 1) & mask;
      fentry_t *e = &s->slots[i];
      if (e->addr == addr && !(e->flags & FENTRY_COST_ONLY))
        visit_live(e, fn, arg);
    }
    if (!held)
      hp_spin_unlock(&s->lock);
  }
  busy--;
  hp_liveset_free(&ls);
}

void hp_foreign_for_each_object(hp_foreign_object_fn fn, void *arg) {
  if (hp_foreign_state != HP_FOREIGN_ON)
    return;
  busy++;
  for (u32 si = 0; si < NSTRIPES; si++) {
    stripe_t *s = &stripes[si];
    if (!held)
      hp_spin_lock(&s->lock);
    for (u64 i = 0; i < s->cap; i++)
      if (s->slots[i].addr && !(s->slots[i].flags & FENTRY_COST_ONLY))
        fn(s->slots[i].addr, s->slots[i].size, s->slots[i].stack_id,
           s->slots[i].thread, arg);
    if (!held)
      hp_spin_unlock(&s->lock);
  }
  busy--;
}

/* ------------------------------------------------------------- section */

/* The allocator= value init took: the flag's, or what allocator=auto
 * found. */
static const char *wrapped_name = "heapprof";

void hp_foreign_write_section(hp_buf_t *b, const struct hp_profile_info *info) {
  (void)info;
  int s = __atomic_load_n(&hp_foreign_state, __ATOMIC_ACQUIRE);
  u64 kind = s == HP_FOREIGN_SAMPLED ? HP_ALLOCATOR_GLIBC
             : s != HP_FOREIGN_ON    ? HP_ALLOCATOR_HEAPPROF
             : glibc                 ? HP_ALLOCATOR_GLIBC
                                     : HP_ALLOCATOR_LIBRARY;
  const char *path = kind == HP_ALLOCATOR_LIBRARY ? wrapped_name : "";
  u64 w[2] = {kind, hp_strlen(path)};
  static const char nuls[8];
  hp_buf_append(b, w, sizeof(w));
  hp_buf_append(b, path, w[1]);
  hp_buf_append(b, nuls, 8 - w[1] % 8); /* at least the NUL */
}

/* ----------------------------------------------------------------- init */

/* The wrapped allocator's library: glibc for "system", else the library
 * named, which must be loaded already (heapprof run preloads it after the
 * runtime).  Looked up by handle rather than RTLD_NEXT: in a program built
 * with -fheapprof and run under heapprof run, the next malloc after the
 * executable's runtime would be the preloaded runtime's. */
static void *lib;
static void *next_fn(const char *name) { return dlsym(lib, name); }

/* name as the library itself defines it (the module of its malloc), NULL
 * when it is found only in a library it depends on.  glibc ("system")
 * defines them all itself.  dladdr allocates nothing. */
static void *own_fn(const char *name) {
  void *f = next_fn(name);
  if (!f || glibc)
    return f;
  Dl_info fi, mi;
  void *m = next_fn("malloc");
  if (!m || !dladdr(f, &fi) || !dladdr(m, &mi) || fi.dli_fbase != mi.dli_fbase)
    return NULL;
  return f;
}

/* allocator=auto (heapprof run --follow-exec without --allocator): the
 * allocator library this image links or preloads after the runtime -- the
 * next definition of malloc, when it is not glibc's -- else heapprof's.
 * Every program followed then runs on the allocator it runs on without
 * heapprof: replaced by heapprof's, a program using jemalloc's own API
 * (mallocx, sdallocx) died of an invalid free.  Only the preloaded runtime
 * looks: a program built with -fheapprof keeps heapprof's (its next
 * malloc is the preloaded runtime's).  dlsym and dladdr of symbols that
 * exist allocate nothing. */
static const char *auto_allocator(void) {
#ifdef HEAPPROF_SHARED_RUNTIME
  Dl_info mi, ci;
  void *m = dlsym(RTLD_NEXT, "malloc");
  void *c = dlsym(RTLD_NEXT, "gnu_get_libc_version");
  if (m && c && dladdr(m, &mi) && mi.dli_fname && mi.dli_fname[0] == '/' &&
      dladdr(c, &ci) && ci.dli_fbase != mi.dli_fbase)
    return mi.dli_fname;
#endif
  return "heapprof";
}

/* The options of heapprof's own allocator (docs/flags.md's phkmalloc table
 * and max_allocation_size_mb) do nothing when another allocator serves the
 * program: allocator=system|PATH, or sampled mode on glibc.  Set to other
 * than their defaults they were silently ignored (junk_fill=1 left malloc's
 * bytes as glibc gave them; allocator_may_return_null=0 still returned
 * NULL): say so once, at start. */
static void warn_own_allocator_options(const char *where) {
  hp_flags_t d;
  hp_flags_set_defaults(&d);
  char names[256] = "";
#define OWN_OPTION(name)                                                     \
  if (hp_flag_explicit(&hp_flags, name) && hp_flags.name != d.name) {       \
    size_t n = hp_strlen(names);                                            \
    hp_snprintf(names + n, sizeof(names) - n, "%s%s", n ? ", " : "", #name); \
  }
  OWN_OPTION(allocator_may_return_null)
  OWN_OPTION(max_allocation_size_mb)
  OWN_OPTION(junk_fill)
  OWN_OPTION(zero_fill)
  OWN_OPTION(realloc_in_place)
  OWN_OPTION(release_freed_pages)
#undef OWN_OPTION
  if (names[0])
    hp_report_allocator_options_ignored(where, names);
}

void hp_foreign_init(void) {
  const char *a = hp_flags.allocator;
  if (!hp_strcmp(a, "auto"))
    a = auto_allocator();
  wrapped_name = a;
  bool own = !a[0] || !hp_strcmp(a, "heapprof");
  if (hp_flags.sample_bytes && own) {
    warn_own_allocator_options("sampled mode (sample_bytes)");
    hp_sample_init(); /* sampled mode on glibc: heapprof_sample.c */
    return;
  }
  if (own) {
    __atomic_store_n(&hp_foreign_state, HP_FOREIGN_OFF, __ATOMIC_RELEASE);
    return;
  }
  char where[300];
  hp_snprintf(where, sizeof(where), "allocator=%s", a);
  warn_own_allocator_options(where);
  /* On before resolving: dlsym's own allocations take the bootstrap
   * arena, not heapprof's allocator. */
  __atomic_store_n(&hp_foreign_state, HP_FOREIGN_ON, __ATOMIC_RELEASE);
  lib = dlopen(hp_strcmp(a, "system") ? a : "libc.so.6",
               RTLD_NOLOAD | RTLD_LAZY);
  if (!lib)
    hp_report_foreign_missing(a, "the library is not loaded (heapprof run "
                                 "--allocator=PATH preloads it)");
  real.free = (void (*)(void *))next_fn("free");
  real.calloc = (void *(*)(size_t, size_t))next_fn("calloc");
  real.realloc = (void *(*)(void *, size_t))next_fn("realloc");
  glibc = !hp_strcmp(a, "system");
  real.posix_memalign =
      (int (*)(void **, size_t, size_t))next_fn("posix_memalign");
  /* The optional ones: only the library's own definitions, as for
   * operator new below.  The handle's lookup goes on into the library's
   * dependencies, libc among them: a library without a malloc_usable_size
   * (an interposer that counts calls and forwards them to the allocator
   * after it) got glibc's, which read a jemalloc block as a glibc chunk
   * and crashed node at its first Zone segment; a glibc memalign or valloc
   * would have handed out blocks the library's free does not know.  What
   * the library lacks: the aligned forms through its posix_memalign, the
   * usable size from the side table (hp_foreign_usable_size). */
  real.memalign = (void *(*)(size_t, size_t))own_fn("memalign");
  real.aligned_alloc = (void *(*)(size_t, size_t))own_fn("aligned_alloc");
  real.valloc = (void *(*)(size_t))own_fn("valloc");
  real.pvalloc = (void *(*)(size_t))own_fn("pvalloc");
  real.malloc_usable_size = (size_t(*)(void *))own_fn("malloc_usable_size");
  resolve_brk();
  last_brk = (uptr)sbrk(0);
  if (glibc)
    glibc_curbrk = (void *const *)next_fn("__curbrk");
  /* operator new/delete: only the library's own definitions (a handle's
   * lookup also searches its dependencies, e.g. libstdc++, whose new calls
   * malloc: that one would be counted twice). */
  Dl_info mi, ni;
  void *nw = next_fn("_ZnwmRKSt9nothrow_t");
  void *na = next_fn("_ZnamRKSt9nothrow_t");
  void *dl = next_fn("_ZdlPv"), *da = next_fn("_ZdaPv");
  void *m0 = next_fn("malloc");
  if (m0 && nw && na && dl && da && dladdr(m0, &mi) && dladdr(nw, &ni) &&
      mi.dli_fbase == ni.dli_fbase && dladdr(dl, &ni) &&
      mi.dli_fbase == ni.dli_fbase) {
    real.new_nt = (void *(*)(size_t, const void *))nw;
    real.new_array_nt = (void *(*)(size_t, const void *))na;
    real.delete_ = (void (*)(void *))dl;
    real.delete_array = (void (*)(void *))da;
  }
  /* Last: a resolved malloc is what tells the entry points the others
   * are there. */
  void *m = next_fn("malloc");
  if (!m || !real.free || !real.calloc || !real.realloc ||
      !real.posix_memalign)
    hp_report_foreign_missing(a, "it does not define malloc, free, calloc, "
                                 "realloc and posix_memalign");
  if (hp_flags.sample_bytes) {
    hp_sample_setup();
    filter = hp_mmap_or_die(sizeof(u32) << FILTER_BITS, "sampling filter");
    sampling = true;
  }
  __atomic_store_n((void **)&real.malloc, m, __ATOMIC_RELEASE);
  if (hp_flags.verbosity) {
    Dl_info info;
    if (dladdr(m, &info) && info.dli_fname)
      hp_printf("HeapProf: allocator=%s: profiling the malloc of %s%s\n", a,
                info.dli_fname,
                real.new_nt ? " and its operator new/delete" : "");
    if (sampling)
      hp_printf("HeapProf: sampled mode: one sample per %llu bytes on "
                "average (estimated profiles); every call timed by class\n",
                (unsigned long long)hp_sample_bytes);
  }
  /* Registered before heapprof_signals.c's handlers, so this prepare runs
   * after theirs (reverse order): a dump holds the profile lock, then
   * takes the stripes. */
  hp_atfork(lock_all, unlock_all, unlock_all);
}

bool hp_foreign_decide(void) {
  /* Undecided inside the runtime's own section: init's, on the thread
   * running it (no other section comes before init is done), where
   * waiting for init would wait for itself.  heapprof's allocator path
   * then serves the call with a block of glibc's (hp_own_allocate).  Not
   * the program's __heapprof_default_options(), which must return a
   * constant: init entered again says so (init_entered_again). */
  if (hp_own_here() && !hp_flags_in_default_options() &&
      __atomic_load_n(&hp_foreign_state, __ATOMIC_ACQUIRE) ==
          HP_FOREIGN_UNKNOWN)
    return false;
  hp_rtl_init();
  return __atomic_load_n(&hp_foreign_state, __ATOMIC_ACQUIRE) >=
         HP_FOREIGN_ON;
}

/* True once calls can be profiled; false while the wrapped functions are
 * not resolved yet (callers use the bootstrap arena), init has not
 * finished, or the thread is inside heapprof's bookkeeping (busy) or inside
 * a wrapped call (in_wrapped): callers pass through unrecorded.  A call
 * made inside a wrapped call is the allocator's own doing -- jemalloc's
 * operator delete is a jump to free through the PLT, which lands here --
 * and recording it counted every C++ delete twice, once as a free. */
static HP_ALWAYS_INLINE bool resolved(void) {
  return __atomic_load_n((void **)&real.malloc, __ATOMIC_ACQUIRE) != NULL;
}
static HP_ALWAYS_INLINE bool ready(void) {
  return HP_LIKELY(resolved() && hp_rtl.inited && hp_flags.profiling &&
                   !busy && !in_wrapped);
}

/* The runtime's own section (heapprof_ownalloc.h): the thread's calls pass
 * through unrecorded, as inside heapprof's bookkeeping. */
void hp_foreign_pass_begin(void) { busy++; }
void hp_foreign_pass_end(void) { busy--; }

/* ------------------------------------------------------------ profiling */

enum { TICK_ALLOC, TICK_FREE };

typedef struct op {
  u64 t0;       /* the TSC at the call, read only when sampled */
  u32 now_ms;   /* the coarse clock at the call (as heapprof's allocator) */
  bool sampled;
} op_t;

static HP_ALWAYS_INLINE void op_begin(op_t *o, int tick) {
  /* A thread's first call sets up its state (mmap...): errno is the
   * program's until the wrapped call. */
  hp_thread_t *t = hp_thread_own();
  if (HP_LIKELY(t)) {
    o->sampled = ++t->cycle_tick[tick] >= (u32)hp_flags.cycle_sample_every;
    if (o->sampled)
      t->cycle_tick[tick] = 0;
  } else {
    int saved = errno;
    t = hp_thread_acquire();
    o->sampled = ++t->cycle_tick[tick] >= (u32)hp_flags.cycle_sample_every;
    if (o->sampled)
      t->cycle_tick[tick] = 0;
    hp_thread_release(t);
    errno = saved;
  }
  in_wrapped++;
  /* Sampling: the clock only for the few calls that find or make a sampled
   * object (op_now); the vDSO read was a tenth of the runtime's samples on
   * Redis's pipelined requests. */
  if (!sampling)
    o->now_ms = hp_now_ms();
  if (HP_UNLIKELY(hp_faults_on()))
    hp_faults_call_begin();
  o->t0 = o->sampled ? hp_rdtsc() : 0;
}

/* The sampled call's cycles (at least 1), or 0. */
/* The coarse clock at the call, for an object's timestamps. */
static HP_ALWAYS_INLINE u32 op_now(const op_t *o) {
  return sampling ? hp_now_ms() : o->now_ms;
}

static HP_ALWAYS_INLINE u64 op_end(const op_t *o) {
  u64 c = o->sampled ? hp_rdtsc() - o->t0 : 0;
  /* A sampled call during which the thread lost the CPU is not a sample:
   * its cycles are the scheduler's as much as the allocator's
   * (heapprof_faults.h; counted apart). */
  bool off_cpu = HP_UNLIKELY(hp_faults_on()) && hp_faults_call_end(c);
  in_wrapped--;
  if (HP_UNLIKELY(c > HP_FOREIGN_SLOW_CYCLES) && !off_cpu) {
    __atomic_add_fetch(&slow_calls, 1, __ATOMIC_RELAXED);
    __atomic_add_fetch(&slow_cycles, c, __ATOMIC_RELAXED);
  }
  if (glibc)
    glibc_brk_check();
  return o->sampled && !off_cpu ? c + !c : 0;
}

/* An allocating call's counts (t held): the thread's statistics and its
 * operation class; for glibc, the mmap of a chunk it mapped. */
static HP_ALWAYS_INLINE void count_alloc(hp_thread_t *t, void *p, uptr size,
                                         u8 kind, u64 cycles, int op) {
  if (glibc && op != HP_FOREIGN_OP_REALLOC && glibc_mmapped(p))
    count_syscall(HP_FOREIGN_SYS_MMAP, glibc_chunk_len(p));
  t->stats.mallocs++;
  t->stats.malloced_bytes += size;
  if (cycles) {
    t->stats.malloc_cycles += cycles;
    t->stats.cycle_samples++;
  }
  foreign_op_cost(t, op, kind, size, cycles);
}

/* A freeing call's counts (t held); op: its operation class too (not the
 * freeing half of a realloc). */
static HP_ALWAYS_INLINE void count_free(hp_thread_t *t, uptr size, u8 kind,
                                        u64 cycles, bool op) {
  t->stats.frees++;
  t->stats.freed_bytes += size;
  if (cycles) {
    t->stats.free_cycles += cycles;
    t->stats.cycle_samples++;
  }
  if (op)
    foreign_op_cost(t, HP_FOREIGN_OP_FREE, kind, size, cycles);
}

static void record_unseen_free(const fentry_t *old, bool last);

/* sampling: an allocation the countdown passed over: its call's count and
 * cycles, and for a large one a cost-only entry. */
static void record_unsampled(void *p, uptr size, u8 kind, u64 cycles,
                             int op) {
  int saved = errno;
  busy++;
  hp_thread_t *t = hp_thread_acquire();
  count_alloc(t, p, size, kind, cycles, op);
  hp_thread_release(t);
  if (HP_UNLIKELY(size > HP_FOREIGN_LARGE)) {
    fentry_t e;
    hp_memset(&e, 0, sizeof(e));
    e.addr = (uptr)p;
    e.size = size;
    e.kind = kind;
    e.flags = FENTRY_COST_ONLY;
    fentry_t old;
    bool old_last;
    if (table_insert(&e, &old, &old_last))
      record_unseen_free(&old, old_last);
  }
  busy--;
  errno = saved;
}

/* Records p (size bytes, from the call whose frame is fp) in the table;
 * sampling, only if the countdown picks it. */
static void record_alloc(void *p, uptr size, u8 kind, uptr fp, const op_t *o,
                         u64 cycles, int op) {
  if (sampling && !hp_sample_take(size)) {
    record_unsampled(p, size, kind, cycles, op);
    return;
  }
  int saved = errno;
  busy++;
  /* The memory's counters may hold an unsampled object's accesses (a
   * program built with -fheapprof): this object starts from zero. */
  if (sampling)
    hp_shadow_clear((uptr)p, (uptr)p + (size ? size : 1));
  u32 cpu = hp_cpu_id();
  hp_thread_t *t = hp_thread_acquire();
  fentry_t e;
  e.addr = (uptr)p;
  e.size = size;
  e.stack_id = hp_stack_id(fp, t->stack_lo, t->stack_top,
                           (u32)hp_flags.malloc_context_size,
                           hp_flags.fold_recursion);
  e.ts_ms = op_now(o);
  e.cycles = cycles > UINT32_MAX ? UINT32_MAX : (u32)cycles;
  e.cpu = (u16)cpu;
  e.kind = kind;
  e.folded = 0;
  e.flags = fentry_gen() | (sampling ? hp_sample_draw_weight(size) : 0);
  e.thread = t->seq; /* 0: the shared fallback state's */
  count_alloc(t, p, size, kind, cycles, op);
  hp_last_alloc = ~(uptr)p;
  bool arm = hp_peak.on && hp_peak_alloc(&t->peak, e.stack_id, size, e.ts_ms);
  hp_thread_release(t);
  fentry_t old;
  bool old_last;
  if (table_insert(&e, &old, &old_last))
    record_unseen_free(&old, old_last);
  if (HP_UNLIKELY(hp_flags.false_sharing))
    hp_fshare_real_alloc(e.addr, size, e.stack_id);
  busy--;
  if (HP_UNLIKELY(arm))
    hp_peak_arm(); /* the heap's peak (heapprof_peak.h), as heapprof's own */
  errno = saved;
}

/* The chunk event of an entry taken out of the table: its shadow granules
 * are scanned and cleared now, before the memory can be handed out again. */
static HP_ALWAYS_INLINE void entry_event(hp_chunk_event_t *ev,
                                         const fentry_t *e) {
  uptr size = e->size;
  hp_shadow_scan_t s;
  if (e->flags & HP_CHUNK_REPORTED) /* since the dump's baselines */
    hp_shadow_unfold(e->addr, size, &s);
  else
    hp_shadow_scan(e->addr, size, &s);
  hp_shadow_clear(e->addr, e->addr + (size ? size : 1));
  ev->stack_id = e->stack_id;
  ev->size = size;
  ev->accesses = s.accesses;
  ev->granules = s.granules;
  ev->touched_granules = s.touched_granules;
  ev->pages = s.pages;
  ev->touched_pages = s.touched_pages;
  ev->alloc_ts = hp_lifetime_start(e->ts_ms, fentry_inherited(e));
  ev->alloc_cpu = e->cpu;
  u8 counted = hp_event_continuation(fentry_inherited(e),
                                     e->flags & HP_CHUNK_REPORTED);
  ev->malloc_cycles = counted ? 0 : e->cycles;
  ev->free_cycles = 0;
  ev->continuation = counted;
  ev->live = false;
  ev->temporary = false;
}

/* Merges a freed entry's event; cycles: the freeing call's, or 0; op: the
 * call's class is counted (a free; not the freeing half of a realloc);
 * last: the last profile has the object live (no event). */
static HP_ALWAYS_INLINE void record_free(hp_chunk_event_t *ev,
                                         const fentry_t *e, u32 now_ms,
                                         u64 cycles, bool op, bool last) {
  uptr size = e->size; /* read once: a bit-field */
  int saved = errno;
  busy++;
  ev->dealloc_ts = hp_end_ms(now_ms);
  ev->dealloc_cpu = hp_cpu_id();
  ev->free_cycles = cycles;
  hp_thread_t *t = hp_thread_acquire();
  /* Freed before its thread allocated again; not sampled mode's (it sees
   * only the sampled allocations), nor a realloc's old half. */
  ev->temporary = op && !sampling && hp_last_alloc == ~e->addr;
  count_free(t, size, e->kind, cycles, op);
  if (hp_peak.on)
    hp_peak_free(&t->peak, e->stack_id, size);
  if (!sampling && !last)
    hp_hib_cache_add_event(&t->hibs, &hp_hib_table, ev);
  hp_thread_release(t);
  if (sampling && !last)
    hp_sample_record_event(ev, e->flags);
  busy--;
  errno = saved;
}

/* An object freed behind the runtime's back (table_insert), found when its
 * address came back from the allocator: its free is recorded now, as a
 * free of no call (heapprof saw none: the operation classes count none). */
static void record_unseen_free(const fentry_t *old, bool last) {
  if (old->flags & FENTRY_COST_ONLY)
    return;
  hp_chunk_event_t ev;
  busy++;
  entry_event(&ev, old);
  if (HP_UNLIKELY(hp_flags.false_sharing))
    hp_fshare_real_free(old->addr, old->size);
  busy--;
  record_free(&ev, old, hp_now_ms(), 0, false, last);
}

/* sampling: a free of no sampled object: its call's count and cycles
 * (size: a cost-only entry's, else 0, small). */
static void record_free_unsampled(uptr size, u8 kind, u64 cycles) {
  int saved = errno;
  busy++;
  hp_thread_t *t = hp_thread_acquire();
  count_free(t, size, kind, cycles, true);
  hp_thread_release(t);
  busy--;
  errno = saved;
}

static void count_failure(void) {
  int saved = errno;
  hp_thread_t *t = hp_thread_acquire();
  t->stats.failed_allocs++;
  hp_thread_release(t);
  errno = saved;
}

/* Page-fault boundaries of a profiled entry point (heapprof_faults.h). */
static HP_ALWAYS_INLINE void faults_enter(void) {
  if (HP_UNLIKELY(hp_faults_on()))
    hp_faults_enter();
}
static HP_ALWAYS_INLINE void faults_leave(void) {
  if (HP_UNLIKELY(hp_faults_on()))
    hp_faults_leave();
}

/* ------------------------------------------------ sampling's quick calls */

/* sampling: most calls make and free no sampled object and need only what
 * every call gets, the thread's counts and its operation class.  A call
 * is quick when the thread has its state, is in no other entry point or
 * wrapped call, the cycle tick does not time this call, and the thread took
 * no page fault since its last boundary (hp_faults_quick_begin): it then
 * makes no boundaries and reads no clock and no errno.  After the wrapped call,
 * anything more (a sampled object, a large one, a failure, a page fault or
 * a system call in the call) goes to a quick tail, which records the call
 * as the full path would have (not timed: the tick did not pick it).  A
 * 64-byte pair on jemalloc: docs/performance.md, "Sampled mode on another
 * allocator: quick calls". */
static HP_ALWAYS_INLINE hp_thread_t *quick_begin(int tick) {
  hp_thread_t *t = hp_thread_own();
  if (!sampling || !t || glibc)
    return NULL;
  u32 n = t->cycle_tick[tick] + 1;
  if (n >= (u32)hp_flags.cycle_sample_every || !hp_faults_quick_begin())
    return NULL;
  t->cycle_tick[tick] = n;
  in_wrapped++;
  return t;
}

/* The wrapped call is over: true when nothing else happened in it. */
static HP_ALWAYS_INLINE bool quick_quiet(void) {
  in_wrapped--;
  bool no_fault = hp_faults_quick_end();
  return HP_LIKELY(no_fault && !hp_sys_pending);
}

static HP_ALWAYS_INLINE void quick_count(hp_thread_t *t, int op, u8 kind,
                                         uptr size) {
  if (hp_flags.op_classes)
    hp_opclass_count(&t->opc, foreign_class(op, kind, size));
}

/* An allocation's: true when it is done, counted as unsampled. */
static HP_ALWAYS_INLINE bool quick_alloc_done(hp_thread_t *t, void *p,
                                              uptr size, u8 kind, int op) {
  if (!quick_quiet() || HP_UNLIKELY(!p || size > HP_FOREIGN_LARGE) ||
      !hp_sample_skip(size))
    return false;
  t->stats.mallocs++;
  t->stats.malloced_bytes += size;
  quick_count(t, op, kind, size);
  return true;
}

static HP_NOINLINE void quick_alloc_tail(void *p, uptr size, u8 kind,
                                         uptr fp, int op) {
  hp_faults_quick_enter(); /* the full path's, from the call's end */
  op_t o;
  hp_memset(&o, 0, sizeof(o));
  if (p)
    record_alloc(p, size, kind, fp, &o, 0, op);
  else
    count_failure();
  faults_leave();
}

static HP_ALWAYS_INLINE bool quick_free_done(hp_thread_t *t, u8 kind) {
  if (!quick_quiet())
    return false;
  t->stats.frees++;
  quick_count(t, HP_FOREIGN_OP_FREE, kind, 0);
  return true;
}

static HP_NOINLINE void quick_free_tail(u8 kind) {
  hp_faults_quick_enter();
  record_free_unsampled(0, kind, 0);
  faults_leave();
}

/* A realloc's of an object sampling passed over (no entry: p's old half
 * is freed unseen, as count_free counts it): true when it is done. */
static HP_ALWAYS_INLINE bool quick_realloc_done(hp_thread_t *t, void *n,
                                                uptr size) {
  if (!quick_alloc_done(t, n, size, HP_ALLOC_MALLOC, HP_FOREIGN_OP_REALLOC))
    return false;
  t->stats.reallocs++;
  t->stats.frees++;
  return true;
}

static HP_NOINLINE void quick_realloc_tail(void *n, uptr size, uptr fp) {
  hp_faults_quick_enter();
  if (!n && size) { /* failed: p stays live */
    count_failure();
    faults_leave();
    return;
  }
  op_t o;
  hp_memset(&o, 0, sizeof(o));
  if (n)
    record_alloc(n, size, HP_ALLOC_MALLOC, fp, &o, 0, HP_FOREIGN_OP_REALLOC);
  int saved = errno;
  hp_thread_t *t = hp_thread_acquire();
  t->stats.reallocs++;
  count_free(t, 0, HP_ALLOC_MALLOC, 0, false);
  if (!n) /* realloc(p, 0) freed p: the call is a realloc all the same */
    foreign_op_cost(t, HP_FOREIGN_OP_REALLOC, HP_ALLOC_MALLOC, 0, 0);
  hp_thread_release(t);
  errno = saved;
  faults_leave();
}

/* ---------------------------------------------------------- entry points */

/* sample_bytes=N: every entry point's first test hands over. */
#define SAMPLED(call)                                                        \
  do {                                                                       \
    if (HP_SAMPLED_MODE())                                                   \
      return call;                                                           \
  } while (0)

/* The common shape: bootstrap before resolution, pass-through before
 * init, a quick call when it can be, else time the call and record its
 * result. */
#define ALLOC_CALL(op, size, kind, fp, boot_expr, call_expr)                 \
  do {                                                                       \
    if (HP_UNLIKELY(!resolved()))                                            \
      return boot_expr;                                                      \
    if (HP_UNLIKELY(!ready()))                                               \
      return call_expr;                                                      \
    hp_thread_t *qt = quick_begin(TICK_ALLOC);                               \
    if (qt) {                                                                \
      void *q = call_expr;                                                   \
      if (!quick_alloc_done(qt, q, size, kind, op))                          \
        quick_alloc_tail(q, size, kind, fp, op);                             \
      return q;                                                              \
    }                                                                        \
    faults_enter();                                                          \
    op_t o;                                                                  \
    op_begin(&o, TICK_ALLOC);                                                \
    void *p = call_expr;                                                     \
    u64 cycles = op_end(&o);                                                 \
    if (HP_LIKELY(p))                                                        \
      record_alloc(p, size, kind, fp, &o, cycles, op);                       \
    else                                                                     \
      count_failure();                                                       \
    faults_leave();                                                          \
    return p;                                                                \
  } while (0)

void *hp_foreign_malloc(uptr size, uptr fp) {
  SAMPLED(hp_sample_allocate(size, 0, HP_ALLOC_MALLOC, fp, false));
  ALLOC_CALL(HP_FOREIGN_OP_MALLOC, size, HP_ALLOC_MALLOC, fp,
             boot_alloc(size, 0, false), real.malloc(size));
}

void *hp_foreign_calloc(uptr n, uptr size, uptr fp) {
  SAMPLED(hp_sample_calloc(n, size, fp));
  uptr total;
  if (__builtin_mul_overflow(n, size, &total))
    total = 0; /* the wrapped calloc fails it */
  ALLOC_CALL(HP_FOREIGN_OP_CALLOC, total, HP_ALLOC_MALLOC, fp,
             boot_alloc(total, 0, true), real.calloc(n, size));
}

static void *posix_memalign_ptr(uptr align, uptr size, int *rc) {
  void *p = NULL;
  *rc = real.posix_memalign(&p, align, size);
  return *rc ? NULL : p;
}

/* An aligned allocation with malloc's contract (NULL, errno). */
static void *aligned_malloc(uptr align, uptr size) {
  int rc;
  void *p = posix_memalign_ptr(align, size, &rc);
  if (!p)
    errno = rc;
  return p;
}

/* A library without memalign, aligned_alloc, valloc or pvalloc of its own
 * (own_fn): the block from its posix_memalign, which every wrapped
 * allocator defines, at the alignment glibc's memalign would give (a
 * power of two, at least a pointer's; posix_memalign refuses others). */
static void *aligned_fallback(uptr align, uptr size) {
  uptr a = sizeof(void *);
  while (a < align && a)
    a <<= 1;
  if (!a) {
    errno = EINVAL;
    return NULL;
  }
  return aligned_malloc(a, size);
}

void *hp_foreign_memalign(uptr align, uptr size, uptr fp) {
  SAMPLED(hp_sample_memalign(align, size, fp));
  ALLOC_CALL(HP_FOREIGN_OP_MEMALIGN, size, HP_ALLOC_MALLOC, fp,
             boot_alloc(size, align, false),
             real.memalign ? real.memalign(align, size)
                           : aligned_fallback(align, size));
}

void *hp_foreign_aligned_alloc(uptr align, uptr size, uptr fp) {
  SAMPLED(hp_sample_aligned_alloc(align, size, fp));
  ALLOC_CALL(HP_FOREIGN_OP_MEMALIGN, size, HP_ALLOC_MALLOC, fp,
             boot_alloc(size, align, false),
             real.aligned_alloc ? real.aligned_alloc(align, size)
                                : aligned_fallback(align, size));
}

void *hp_foreign_valloc(uptr size, uptr fp) {
  SAMPLED(hp_sample_valloc(size, fp));
  ALLOC_CALL(HP_FOREIGN_OP_MEMALIGN, size, HP_ALLOC_MALLOC, fp,
             boot_alloc(size, HP_PAGE_SIZE, false),
             real.valloc ? real.valloc(size)
                         : aligned_fallback(HP_PAGE_SIZE, size));
}

void *hp_foreign_pvalloc(uptr size, uptr fp) {
  SAMPLED(hp_sample_pvalloc(size, fp));
  /* Recorded as the pages it asks for, as heapprof's allocator and
   * sampled mode record it (pvalloc(10): 4096 bytes; pvalloc(0): a
   * page).  A size whose rounding to pages overflows: glibc fails it, and
   * an allocator that wraps it around (tcmalloc hands out a page) gave
   * nothing of that size; recorded as 0 bytes (the leak check at exit
   * would otherwise read 2^64 bytes of address space as the object). */
  uptr rounded = size ? HP_ROUND_UP(size, HP_PAGE_SIZE) : HP_PAGE_SIZE;
  uptr recorded = rounded < size ? 0 : rounded;
  if (!real.pvalloc && resolved() && !recorded) {
    errno = ENOMEM;
    return NULL;
  }
  ALLOC_CALL(HP_FOREIGN_OP_MEMALIGN, recorded, HP_ALLOC_MALLOC, fp,
             boot_alloc(HP_ROUND_UP(size, HP_PAGE_SIZE), HP_PAGE_SIZE, false),
             real.pvalloc ? real.pvalloc(size)
                          : aligned_fallback(HP_PAGE_SIZE, rounded));
}

int hp_foreign_posix_memalign(void **out, uptr align, uptr size, uptr fp) {
  SAMPLED(hp_sample_posix_memalign(out, align, size, fp));
  void *p;
  int rc = 0;
  if (HP_UNLIKELY(!resolved())) {
    p = boot_alloc(size, align, false);
    rc = p ? 0 : ENOMEM;
  } else if (HP_UNLIKELY(!ready())) {
    p = posix_memalign_ptr(align, size, &rc);
  } else {
    faults_enter();
    op_t o;
    op_begin(&o, TICK_ALLOC);
    p = posix_memalign_ptr(align, size, &rc);
    u64 cycles = op_end(&o);
    if (!rc)
      record_alloc(p, size, HP_ALLOC_MALLOC, fp, &o, cycles,
                   HP_FOREIGN_OP_MEMALIGN);
    else
      count_failure();
    faults_leave();
  }
  if (!rc)
    *out = p;
  return rc;
}

void *hp_foreign_allocate(uptr size, uptr align, u8 kind, uptr fp,
                          bool zero) {
  SAMPLED(hp_sample_allocate(size, align, kind, fp, zero));
  if (kind != HP_ALLOC_MALLOC && !align && !zero && real.new_nt)
    ALLOC_CALL(HP_FOREIGN_OP_MALLOC, size, kind, fp,
               boot_alloc(size, 0, false),
               (kind == HP_ALLOC_NEW ? real.new_nt
                                     : real.new_array_nt)(size, &nothrow_tag));
  if (zero)
    ALLOC_CALL(HP_FOREIGN_OP_CALLOC, size, kind, fp,
               boot_alloc(size, align, true), real.calloc(1, size));
  if (!align)
    ALLOC_CALL(HP_FOREIGN_OP_MALLOC, size, kind, fp,
               boot_alloc(size, 0, false), real.malloc(size));
  if (align < sizeof(void *))
    align = sizeof(void *);
  ALLOC_CALL(HP_FOREIGN_OP_MEMALIGN, size, kind, fp,
             boot_alloc(size, align, false), aligned_malloc(align, size));
}

/* The wrapped allocator's release for memory of that kind. */
static HP_ALWAYS_INLINE void release(void *p, u8 kind) {
  if (kind == HP_ALLOC_MALLOC || !real.delete_)
    real.free(p);
  else if (kind == HP_ALLOC_NEW)
    real.delete_(p);
  else
    real.delete_array(p);
}

void hp_foreign_free(void *p, u8 kind, uptr fp) {
  if (HP_SAMPLED_MODE()) {
    hp_sample_free(p, kind, fp);
    return;
  }
  (void)fp;
  if (!p || is_boot(p))
    return;
  /* A block of glibc's that init's section handed out before the wrapped
   * allocator was known (heapprof_ownalloc.h): glibc's to free, not the
   * wrapped library's. */
  if (HP_UNLIKELY(hp_own_live) && hp_own_block((uptr)p)) {
    hp_own_free(p);
    return;
  }
  if (HP_UNLIKELY(!ready())) {
    if (resolved())
      release(p, kind);
    return;
  }
  hp_thread_t *qt;
  if (!may_have((uptr)p) && (qt = quick_begin(TICK_FREE))) {
    release(p, kind);
    if (!quick_free_done(qt, kind))
      quick_free_tail(kind);
    return;
  }
  faults_enter();
  /* At a top of the heap: snapshot it while p is still live. */
  if (HP_UNLIKELY(__atomic_load_n(&hp_peak.armed, __ATOMIC_RELAXED)))
    hp_peak_at_top();
  fentry_t e;
  busy++;
  /* From before the entry leaves the table (its stripe's lock orders the
   * store before a dump's walk of it) until its event is merged: the last
   * dump waits for it (hp_thread_flush_hibs_settled). */
  hp_thread_t *own = hp_thread_own();
  if (own)
    __atomic_store_n(&own->hibs.merging, 1, __ATOMIC_RELAXED);
  bool last = false;
  bool found = may_have((uptr)p) && table_remove((uptr)p, &e, &last);
  bool object = found && !(e.flags & FENTRY_COST_ONLY);
  hp_chunk_event_t ev;
  if (object)
    entry_event(&ev, &e);
  if (HP_UNLIKELY(hp_flags.false_sharing) && object)
    hp_fshare_real_free(e.addr, e.size);
  busy--;
  if (glibc && glibc_mmapped(p))
    count_syscall(HP_FOREIGN_SYS_MUNMAP, glibc_chunk_len(p));
  op_t o;
  op_begin(&o, TICK_FREE);
  release(p, kind);
  u64 cycles = op_end(&o);
  if (object)
    record_free(&ev, &e, op_now(&o), cycles, true, last);
  else if (sampling)
    record_free_unsampled(found ? e.size : 0, found ? e.kind : kind, cycles);
  if (own)
    __atomic_store_n(&own->hibs.merging, 0, __ATOMIC_RELEASE);
  faults_leave();
}

void *hp_foreign_realloc(void *p, uptr size, uptr fp) {
  SAMPLED(hp_sample_realloc(p, size, fp));
  if (HP_UNLIKELY(p && is_boot(p))) {
    /* Off the arena: a fresh object of the wrapped allocator. */
    void *n = hp_foreign_malloc(size, fp);
    if (n)
      hp_memcpy(n, p, HP_MIN(size, boot_size(p)));
    return n;
  }
  if (HP_UNLIKELY(p && hp_own_live) && hp_own_block((uptr)p))
    return hp_own_realloc(p, size);
  if (HP_UNLIKELY(!resolved()))
    return boot_alloc(size, 0, false);
  if (HP_UNLIKELY(!ready()))
    return real.realloc(p, size);
  hp_thread_t *qt;
  if (p && !may_have((uptr)p) && (qt = quick_begin(TICK_ALLOC))) {
    void *n = real.realloc(p, size);
    if (!quick_realloc_done(qt, n, size))
      quick_realloc_tail(n, size, fp);
    return n;
  }
  faults_enter();
  if (HP_UNLIKELY(p && __atomic_load_n(&hp_peak.armed, __ATOMIC_RELAXED)))
    hp_peak_at_top();
  fentry_t e;
  busy++;
  hp_thread_t *own = hp_thread_own(); /* as hp_foreign_free's */
  if (own)
    __atomic_store_n(&own->hibs.merging, 1, __ATOMIC_RELAXED);
  bool last = false;
  bool found = p && may_have((uptr)p) && table_remove((uptr)p, &e, &last);
  bool object = found && !(e.flags & FENTRY_COST_ONLY);
  hp_chunk_event_t ev;
  if (object)
    entry_event(&ev, &e);
  if (HP_UNLIKELY(hp_flags.false_sharing) && object)
    hp_fshare_real_free(e.addr, e.size);
  busy--;
  bool old_mm = glibc && p && glibc_mmapped(p);
  uptr old_len = old_mm ? glibc_chunk_len(p) : 0;
  op_t o;
  op_begin(&o, TICK_ALLOC);
  void *n = real.realloc(p, size);
  u64 cycles = op_end(&o);
  if (glibc && (n || (p && !size))) {
    bool new_mm = n && glibc_mmapped(n);
    if (old_mm)
      count_syscall(new_mm ? HP_FOREIGN_SYS_MREMAP : HP_FOREIGN_SYS_MUNMAP,
                    new_mm ? glibc_chunk_len(n) : old_len);
    else if (new_mm)
      count_syscall(HP_FOREIGN_SYS_MMAP, glibc_chunk_len(n));
  }
  if (!n && (size || !p)) {
    /* Failed: p is untouched and stays live (its counts so far were
     * scanned into the lost event). */
    if (found) {
      busy++;
      fentry_t old; /* p's own entry, taken out above: none */
      bool old_last;
      (void)table_insert(&e, &old, &old_last);
      if (HP_UNLIKELY(hp_flags.false_sharing) && object)
        hp_fshare_real_alloc(e.addr, e.size, e.stack_id);
      busy--;
    }
    if (own)
      __atomic_store_n(&own->hibs.merging, 0, __ATOMIC_RELEASE);
    count_failure();
    faults_leave();
    return NULL;
  }
  if (object)
    record_free(&ev, &e, op_now(&o), 0, false, last);
  if (own)
    __atomic_store_n(&own->hibs.merging, 0, __ATOMIC_RELEASE);
  if (n)
    record_alloc(n, size, HP_ALLOC_MALLOC, fp, &o, cycles,
                 HP_FOREIGN_OP_REALLOC);
  if (p) {
    int saved = errno;
    hp_thread_t *t = hp_thread_acquire();
    t->stats.reallocs++;
    /* sampling: the old half of an object that was not sampled is freed
     * all the same (record_free counts a sampled one's), so that the
     * counts are those of full profiling. */
    if (sampling && !object)
      count_free(t, found ? e.size : 0, HP_ALLOC_MALLOC, 0, false);
    /* realloc(p, 0) freed p: one realloc all the same, on the freed
     * object's size, and its system calls (glibc's munmap of a large
     * chunk) are its own; they went to the next call's class. */
    if (!n)
      foreign_op_cost(t, HP_FOREIGN_OP_REALLOC, HP_ALLOC_MALLOC,
                      found ? e.size : 0, cycles);
    hp_thread_release(t);
    errno = saved;
  }
  faults_leave();
  return n;
}

void *hp_foreign_reallocarray(void *p, uptr n, uptr size, uptr fp) {
  uptr total;
  if (__builtin_mul_overflow(n, size, &total)) {
    errno = ENOMEM;
    return NULL;
  }
  return hp_foreign_realloc(p, total, fp);
}

uptr hp_foreign_glibc_next_chunk(uptr p) {
  if (!glibc || hp_foreign_state != HP_FOREIGN_ON || is_boot((void *)p) ||
      glibc_mmapped((void *)p))
    return 0;
  return p - 2 * sizeof(uptr) + glibc_chunk_len((void *)p);
}

uptr hp_foreign_usable_size(const void *p) {
  SAMPLED(hp_sample_usable_size(p));
  if (!p)
    return 0;
  if (is_boot(p))
    return boot_size(p);
  if (!resolved())
    return 0;
  if (real.malloc_usable_size)
    return real.malloc_usable_size((void *)p);
  /* A library without one of its own (own_fn): the size asked for, which
   * the block holds at least; 0 for an object the table does not hold (one
   * sampling passed over, or not the library's). */
  return table_size((uptr)p);
}
