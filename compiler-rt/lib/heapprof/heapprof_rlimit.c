/*===- heapprof_rlimit.c - the program's own memory limits ---------------===
 *
 * Part of heapprof.  A program may lower its own address-space or
 * data-size limit (setrlimit(RLIMIT_AS / RLIMIT_DATA); Chromium's sandbox
 * gives its renderers 4 GiB of data and its GPU process 16 GiB).  Linux
 * counts the runtime's reservations (HP_RESERVED_BYTES, about 19 TiB of
 * untouched address space, private and writable) against both, so from
 * then on every mapping failed: heapprof's own (the stack depot's, at the
 * next new stack: "out-of-memory", and the program aborted) and the
 * program's (Chromium's renderers died of it, each restarted, for ever).
 *
 * So the limits a program sets for itself are the program's: setrlimit,
 * setrlimit64, prlimit and prlimit64 on the process itself add the
 * runtime's reservations to an RLIMIT_AS or RLIMIT_DATA value (soft or
 * hard) below them (below(), below), and getrlimit and the rest give such
 * a value back less them, so the program reads what it set and can set it
 * again (raising its soft limit to its hard one, a common idiom, works as
 * without heapprof).  A value above them is left alone.  A limit the
 * process started with is not touched: under one below the reservations
 * the runtime could not have started (heapprof run refuses,
 * heapprof_report.c).  heapprof's own memory besides the reservations (the
 * stack depot, the tables) still counts against the program's limit.
 *
 * An exec gives the new image the soft limits the program set
 * (hp_rlimit_before_exec); its hard limits stay that much higher,
 * since a hard limit, once lowered, cannot be raised again if the exec
 * fails, and the process goes on (a shell's child that runs a script
 * itself after ENOEXEC) with every mapping refused; nor can the new
 * image's runtime lower it at start: under such a limit the image runs
 * without heapprof (hp_limits_refuse_start).  A posix_spawn child, which
 * exits if its exec fails, gets both (hp_rlimit_spawn_child, from
 * heapprof_spawn.c).
 *
 * The system calls are made here with the instruction (no errno of glibc's
 * wrappers in between, and nothing a vfork child may not do).
 *===----------------------------------------------------------------------===*/
#include "heapprof_internal.h"

#include <errno.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

/* The kernel's values this file set for the two limits, soft and hard
 * (0: none, or a value not raised): only those are read back less
 * added[].  Written by the program's setrlimit calls (relaxed atomics: a
 * race between two of them leaves one of the values, as the kernel does);
 * inherited by a fork with the limits themselves. */
static rlim_t set_cur[2], set_max[2];
/* What was added to them: the runtime's reservations when they were set. */
static rlim_t added[2];

static int slot(int resource) {
  return resource == RLIMIT_AS ? 0 : resource == RLIMIT_DATA ? 1 : -1;
}

static long raw_prlimit(pid_t pid, int resource, const struct rlimit *nw,
                        struct rlimit *old) {
  return hp_raw_syscall6(SYS_prlimit64, pid, resource, (long)nw, (long)old,
                         0, 0);
}

static int result(long ret) {
  if ((unsigned long)ret > -4096ul) {
    errno = (int)-ret;
    return -1;
  }
  return 0;
}

static bool self(pid_t pid) {
  return pid == 0 || pid == getpid();
}

/* The address space the runtime holds in reservations now: its shadow
 * and allocator regions and its tables; HP_RESERVED_BYTES before the
 * runtime's init, which makes them. */
static rlim_t reserved_now(void) {
  const uptr(*r)[2];
  u32 n = hp_reserved_ranges(&r);
  rlim_t sum = 0;
  for (u32 k = 0; k < n; k++)
    sum += r[k][1] - r[k][0];
  return HP_MAX(sum, (rlim_t)HP_RESERVED_BYTES);
}

/* A finite value below the reservations cannot have been meant to count
 * them (the process is past it already): it is the program's own budget,
 * and gets them added.  A value above them was computed with them in it
 * (a program that limits itself to what it maps now plus a margin, from
 * /proc/self/statm) and is left alone. */
static bool below(rlim_t v, rlim_t have) {
  return v != RLIM_INFINITY && v < have;
}

static rlim_t raised(rlim_t v, rlim_t add) {
  return v > RLIM_INFINITY - add ? RLIM_INFINITY : v + add;
}

static rlim_t seen(rlim_t v, rlim_t set, rlim_t add) {
  return v != RLIM_INFINITY && v == set && v >= add ? v - add : v;
}

/* ------------------------------------------------------------ ballast
 *
 * The allocator's spans are carved out of its reservations, which the
 * kernel counted once, when they were made: the heap growing inside them
 * is no growth to the kernel, so a limit the program set (raised by the
 * reservations) never refused a malloc the primary served (256 MiB set,
 * 6.4 GB of 64 KiB blocks given).  So once the program holds such a
 * limit, a ballast mapping as large as the spans made (less the pages
 * the allocator gave back) stands for them:
 * the kernel counts it against both limits (private, writable), and it
 * grows by each new span (hp_rlimit_charge, an mremap the kernel checks
 * as it would a heap's brk), so the heap, the program's own mappings and
 * heapprof's memory beside the reservations share the program's budget
 * as without heapprof.  The ballast is never touched (MAP_NORESERVE: no
 * memory, no commit charge), out of core dumps, and out of mlockall's
 * reach: made unlocked and grown by mremap, which keeps its flags under
 * MCL_FUTURE, and passed over by MCL_CURRENT (heapprof_mlock.c).  The
 * spans are never unmade, but their free pages are given back (an idle
 * pass, malloc_trim, release_freed_pages, and at the limit itself: a
 * refill the limit refuses trims and tries again), as glibc's heap trims
 * its top: the ballast shrinks by what goes (hp_rlimit_released), and
 * such pages handed out again are charged again (hp_rlimit_reused), so a
 * program that frees blocks of one size gets blocks of another (before,
 * the ballast stood for every span ever made, and a program that freed
 * its 256 MiB of 4 KiB blocks got no 1 KiB block).  It shrinks too for a
 * checkpoint's duration (hp_rlimit_lend), and outlives the limit
 * (charged on, so a limit lowered again finds it up to date); the spans
 * made before the first limit, less their pages given back, are added
 * when it is set. */
static struct {
  hp_spinlock_t lock;
  uptr beg, len; /* the mapping: one page, then what it stands for, less
                    lent */
  u64 charged;   /* span bytes it stands for */
  u64 lent;      /* bytes of it given back for a checkpoint (hp_rlimit_lend)
                    and not yet taken again */
  bool lending;  /* a checkpoint is being written (between hp_rlimit_lend
                    and hp_rlimit_repay) */
  u64 credit;    /* bytes it stands for beyond charged, which the next
                    charges use first (pages given back in the sandbox,
                    where it cannot shrink) */
} ballast;

/* Bytes of the spans' pages given back to the kernel now (released by
 * the allocator, not handed out since): the heap's share of the spans
 * made is what the ballast stands for, less them.  Written by
 * hp_rlimit_released and hp_rlimit_reused (atomics; under the ballast's
 * lock while there is one). */
static u64 given_back;

/* The mapping, bytes longer (mremap, which the kernel checks against the
 * limits as a heap's growth); lock held, beg set, not in the sandbox. */
static bool ballast_extend_locked(u64 bytes) {
  void *p = (void *)syscall(SYS_mremap, ballast.beg, ballast.len,
                            ballast.len + bytes, MREMAP_MAYMOVE);
  if (p == MAP_FAILED)
    return false;
  __atomic_store_n(&ballast.beg, (uptr)p, __ATOMIC_RELAXED);
  __atomic_store_n(&ballast.len, ballast.len + bytes, __ATOMIC_RELAXED);
  return true;
}

/* What a checkpoint borrowed, taken back, and as much of it as the
 * kernel allows when not all (partial: halving the rest, page-aligned);
 * lock held.  False while some is still owed. */
static bool repay_locked(bool partial) {
  int saved = errno;
  while (ballast.lent) {
    if (ballast_extend_locked(ballast.lent)) {
      ballast.lent = 0;
      break;
    }
    if (!partial)
      break;
    u64 lo = 0, hi = ballast.lent; /* lo is granted, hi refused */
    while (hi - lo > HP_PAGE_SIZE) {
      u64 mid = HP_ROUND_DOWN(lo + (hi - lo) / 2, HP_PAGE_SIZE);
      if (mid > lo && ballast_extend_locked(mid - lo))
        lo = mid;
      else
        hi = mid;
    }
    ballast.lent -= lo;
    break;
  }
  errno = saved;
  return !ballast.lent;
}

/* The credit the ballast keeps outside the sandbox: it grows by a batch
 * of this much beyond a charge of pages handed out again, and shrinks
 * once pages given back leave it more than twice that.  So it stands for
 * at most 1 MiB the heap does not hold, and only in a program whose heap
 * gave pages back: a mapping of the program's is refused that much
 * sooner at most; the heap itself uses the credit first. */
#define CREDIT_BATCH (512ull << 10)

static bool ballast_grow_locked(u64 bytes, bool batch) {
  u64 from_credit = HP_MIN(bytes, ballast.credit);
  ballast.credit -= from_credit;
  ballast.charged += from_credit;
  bytes -= from_credit;
  if (!bytes)
    return true;
  int saved = errno;
  bool ok;
  if (hp_in_sandbox() &&
      !__atomic_load_n(&hp_mlock_future, __ATOMIC_RELAXED)) {
    /* In the program's seccomp sandbox a piece of its own: an mmap, which
     * a filter written for glibc's malloc allows (mremap it may not).
     * Never unmapped; left out of ballast.beg/len. */
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    ok = p != MAP_FAILED;
  } else {
    /* For pages handed out again (batch), a batch more, kept as credit:
     * they are charged a block at a time, one mremap each (981,300 in 50
     * rounds of 20,000 blocks of 4 KiB trimmed and taken again:
     * docs/performance.md).  At the limit, the bytes alone.  A span, 64
     * KiB at least, is charged as it is: a program that gives nothing
     * back holds no credit. */
    ok = batch && ballast_extend_locked(bytes + CREDIT_BATCH);
    if (ok)
      ballast.credit += CREDIT_BATCH;
    else
      ok = ballast_extend_locked(bytes);
  }
  errno = saved;
  if (ok)
    ballast.charged += bytes;
  return ok;
}

/* Makes the ballast if there is none, and brings it up to the spans made
 * now; called before the limit goes to the kernel (under the old one,
 * which let the spans be made).  A ballast that cannot be made or grown
 * leaves the limit held without it, or short of the spans (the heap then
 * grows past it, as it did before). */
static void ballast_sync(void) {
  hp_spin_lock(&ballast.lock);
  if (!ballast.beg) {
    int saved = errno;
    void *p = mmap(NULL, HP_PAGE_SIZE, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p != MAP_FAILED && !hp_in_sandbox()) {
      madvise(p, HP_PAGE_SIZE, MADV_DONTDUMP);
      /* MCL_FUTURE locked it: unlocked, its growth stays so. */
      if (__atomic_load_n(&hp_mlock_future, __ATOMIC_RELAXED))
        munlock(p, HP_PAGE_SIZE);
    }
    errno = saved;
    if (p != MAP_FAILED) {
      ballast.len = HP_PAGE_SIZE;
      __atomic_store_n(&ballast.beg, (uptr)p, __ATOMIC_RELAXED);
    }
  }
  u64 spans = hp_primary_span_bytes();
  u64 back = __atomic_load_n(&given_back, __ATOMIC_RELAXED);
  spans = spans > back ? spans - back : 0;
  if (ballast.beg && spans > ballast.charged)
    ballast_grow_locked(spans - ballast.charged, false);
  hp_spin_unlock(&ballast.lock);
}

bool hp_rlimit_charge(u64 bytes) {
  if (HP_LIKELY(!__atomic_load_n(&ballast.beg, __ATOMIC_RELAXED)))
    return true; /* no ballast: no limit set, or dropped at exit */
  hp_spin_lock(&ballast.lock);
  /* Dropped meanwhile (the exit profile): nothing to charge.  What a
   * checkpoint borrowed is taken back first (outside one): the room it
   * lent is the program's budget, not more of it. */
  bool ok = !ballast.beg || ((ballast.lending || repay_locked(false)) &&
                             ballast_grow_locked(bytes, false));
  hp_spin_unlock(&ballast.lock);
  return ok;
}

/* A checkpoint at the limit: its records, its module list and its buffers
 * are mappings of heapprof's beside the reservations, which the kernel
 * refused once the heap had filled the program's budget ("out of memory
 * while gathering the profile's records ...; not written"), where the exit
 * profile, which drops the ballast, was written.  So for the checkpoint's
 * duration (under the dump lock: one at a time) the ballast shrinks to its
 * one page, lending the heap's share of the budget to the dump, and
 * hp_rlimit_repay grows it back once the dump's mappings are gone.  Spans
 * made meanwhile are charged as always.  A mapping of the program's made
 * meanwhile (another thread's) may take the room lent: the repayment is
 * then refused, and every new span is refused until it goes through, so
 * the heap stays within the budget; the program's own mappings may exceed
 * it by what is lent for as long as it holds them. */
void hp_rlimit_lend(void) {
  if (!__atomic_load_n(&ballast.beg, __ATOMIC_RELAXED) || hp_in_sandbox())
    return;
  hp_spin_lock(&ballast.lock);
  ballast.lending = true;
  if (ballast.beg && ballast.len > HP_PAGE_SIZE) {
    int saved = errno;
    /* Shrinking never moves the mapping. */
    void *p = (void *)syscall(SYS_mremap, ballast.beg, ballast.len,
                              HP_PAGE_SIZE, 0);
    if (p != MAP_FAILED) {
      ballast.lent += ballast.len - HP_PAGE_SIZE;
      __atomic_store_n(&ballast.len, HP_PAGE_SIZE, __ATOMIC_RELAXED);
    }
    errno = saved;
  }
  hp_spin_unlock(&ballast.lock);
}

void hp_rlimit_repay(void) {
  if (!__atomic_load_n(&ballast.beg, __ATOMIC_RELAXED))
    return;
  hp_spin_lock(&ballast.lock);
  ballast.lending = false;
  if (ballast.beg)
    repay_locked(true);
  hp_spin_unlock(&ballast.lock);
}

/* Pages of the heap given back: the ballast shrinks by as much (what a
 * checkpoint borrowed first, which it then owes no more), or in the
 * sandbox, where its pieces cannot, keeps it as credit for the next
 * charges. */
void hp_rlimit_released(u64 bytes) {
  if (HP_LIKELY(!__atomic_load_n(&ballast.beg, __ATOMIC_RELAXED))) {
    __atomic_add_fetch(&given_back, bytes, __ATOMIC_RELAXED);
    return;
  }
  hp_spin_lock(&ballast.lock);
  __atomic_add_fetch(&given_back, bytes, __ATOMIC_RELAXED);
  u64 drop = HP_MIN(bytes, ballast.charged);
  ballast.charged -= drop;
  u64 owed = HP_MIN(drop, ballast.lent);
  ballast.lent -= owed;
  ballast.credit += drop - owed;
  /* Beyond two batches of credit, the mapping shrinks to one batch. */
  if (ballast.credit > 2 * CREDIT_BATCH && ballast.beg && !hp_in_sandbox()) {
    u64 cut = HP_MIN(ballast.credit - CREDIT_BATCH,
                     (u64)ballast.len - HP_PAGE_SIZE);
    int saved = errno;
    /* Shrinking never moves the mapping. */
    void *p = (void *)syscall(SYS_mremap, ballast.beg, ballast.len,
                              ballast.len - cut, 0);
    errno = saved;
    if (p != MAP_FAILED) {
      __atomic_store_n(&ballast.len, ballast.len - cut, __ATOMIC_RELAXED);
      ballast.credit -= cut;
    }
  }
  hp_spin_unlock(&ballast.lock);
}

bool hp_rlimit_reused(u64 bytes) {
  if (HP_LIKELY(!__atomic_load_n(&ballast.beg, __ATOMIC_RELAXED))) {
    /* Every page handed out again was counted when given back. */
    __atomic_sub_fetch(&given_back, bytes, __ATOMIC_RELAXED);
    return true;
  }
  hp_spin_lock(&ballast.lock);
  bool ok = !ballast.beg || ((ballast.lending || repay_locked(false)) &&
                             ballast_grow_locked(bytes, true));
  if (ok)
    __atomic_sub_fetch(&given_back, bytes, __ATOMIC_RELAXED);
  hp_spin_unlock(&ballast.lock);
  return ok;
}

void hp_rlimit_drop_ballast(void) {
  if (!__atomic_load_n(&ballast.beg, __ATOMIC_RELAXED))
    return;
  hp_spin_lock(&ballast.lock);
  if (ballast.beg) {
    int saved = errno;
    munmap((void *)ballast.beg, ballast.len);
    errno = saved;
    __atomic_store_n(&ballast.beg, 0, __ATOMIC_RELAXED);
    ballast.len = ballast.charged = ballast.lent = ballast.credit = 0;
    ballast.lending = false;
  }
  hp_spin_unlock(&ballast.lock);
}

void hp_rlimit_lock(void) { hp_spin_lock(&ballast.lock); }
void hp_rlimit_unlock(void) { hp_spin_unlock(&ballast.lock); }

bool hp_rlimit_ballast(uptr *beg, uptr *end) {
  uptr b = __atomic_load_n(&ballast.beg, __ATOMIC_RELAXED);
  *beg = b;
  *end = b + __atomic_load_n(&ballast.len, __ATOMIC_RELAXED);
  return b != 0;
}

static int do_prlimit(pid_t pid, int resource, const struct rlimit *nw,
                      struct rlimit *old) {
  int k = self(pid) ? slot(resource) : -1;
  if (k < 0)
    return result(raw_prlimit(pid, resource, nw, old));
  struct rlimit mine;
  rlim_t add = __atomic_load_n(&added[k], __ATOMIC_RELAXED);
  bool holds = __atomic_load_n(&set_cur[k], __ATOMIC_RELAXED) ||
               __atomic_load_n(&set_max[k], __ATOMIC_RELAXED);
  bool up_cur = false, up_max = false;
  if (nw) {
    mine = *nw;
    /* While the kernel holds a value this file raised, the same amount,
     * so that the hard limit it holds is the one a later call compares
     * with.  Else what is reserved now, with the checkpoints' baseline
     * shadow (16 TiB more) reserved first, so that a checkpoint after the
     * limit still gets it. */
    rlim_t have = holds ? add : reserved_now();
    up_cur = below(nw->rlim_cur, have);
    up_max = below(nw->rlim_max, have);
    if ((up_cur || up_max) && !holds) {
      if (hp_rtl.inited && !hp_in_sandbox())
        hp_shadow_baseline_try_init();
      have = reserved_now();
    }
    add = have;
    if (up_cur || up_max)
      ballast_sync();
    if (up_cur)
      mine.rlim_cur = raised(nw->rlim_cur, add);
    if (up_max)
      mine.rlim_max = raised(nw->rlim_max, add);
    if (mine.rlim_cur > mine.rlim_max)
      mine.rlim_cur = mine.rlim_max;
  }
  int r = result(raw_prlimit(pid, resource, nw ? &mine : NULL, old));
  if (r == 0 && old) {
    rlim_t old_add = __atomic_load_n(&added[k], __ATOMIC_RELAXED);
    old->rlim_cur = seen(old->rlim_cur,
                         __atomic_load_n(&set_cur[k], __ATOMIC_RELAXED),
                         old_add);
    old->rlim_max = seen(old->rlim_max,
                         __atomic_load_n(&set_max[k], __ATOMIC_RELAXED),
                         old_add);
  }
  if (r == 0 && nw) {
    __atomic_store_n(&added[k], add, __ATOMIC_RELAXED);
    __atomic_store_n(&set_cur[k], up_cur ? mine.rlim_cur : 0,
                     __ATOMIC_RELAXED);
    __atomic_store_n(&set_max[k], up_max ? mine.rlim_max : 0,
                     __ATOMIC_RELAXED);
  }
  return r;
}

/* glibc declares them with its enum for the resource (under _GNU_SOURCE)
 * and the *64 forms with struct rlimit64, the same layout on x86-64. */
HP_INTERFACE int setrlimit(__rlimit_resource_t resource,
                           const struct rlimit *rl) {
  return do_prlimit(0, resource, rl, NULL);
}
HP_INTERFACE int setrlimit64(__rlimit_resource_t resource,
                             const struct rlimit64 *rl) {
  return do_prlimit(0, resource, (const struct rlimit *)rl, NULL);
}
HP_INTERFACE int getrlimit(__rlimit_resource_t resource, struct rlimit *rl) {
  return do_prlimit(0, resource, NULL, rl);
}
HP_INTERFACE int getrlimit64(__rlimit_resource_t resource,
                             struct rlimit64 *rl) {
  return do_prlimit(0, resource, NULL, (struct rlimit *)rl);
}
HP_INTERFACE int prlimit(pid_t pid, __rlimit_resource_t resource,
                         const struct rlimit *nw, struct rlimit *old) {
  return do_prlimit(pid, resource, nw, old);
}
HP_INTERFACE int prlimit64(pid_t pid, __rlimit_resource_t resource,
                           const struct rlimit64 *nw, struct rlimit64 *old) {
  return do_prlimit(pid, resource, (const struct rlimit *)nw,
                    (struct rlimit *)old);
}

/* The kernel's value, not set_cur alone: a raw system call of the
 * program's may have replaced it since. */
bool hp_rlimit_program_set(int resource) {
  int k = slot(resource);
  if (k < 0)
    return false;
  rlim_t cur = __atomic_load_n(&set_cur[k], __ATOMIC_RELAXED);
  struct rlimit now;
  return cur && raw_prlimit(0, resource, NULL, &now) == 0 &&
         now.rlim_cur == cur;
}

bool hp_rlimit_program_holds(void) {
  return hp_rlimit_program_set(RLIMIT_AS) ||
         hp_rlimit_program_set(RLIMIT_DATA);
}

/* The soft limits this file raised, back to the program's values for the
 * exec (hard ones untouched); exec_failed raises them again.  errno is
 * kept: the exec's is the caller's. */
static void set_soft(bool program) {
  for (int k = 0; k < 2; k++) {
    rlim_t cur = __atomic_load_n(&set_cur[k], __ATOMIC_RELAXED);
    if (!cur)
      continue;
    int resource = k == 0 ? RLIMIT_AS : RLIMIT_DATA;
    struct rlimit now;
    if (raw_prlimit(0, resource, NULL, &now) != 0)
      continue;
    now.rlim_cur = program ? cur - added[k] : cur;
    raw_prlimit(0, resource, &now, NULL);
  }
}

void hp_rlimit_before_exec(void) {
  if (!hp_in_sandbox())
    set_soft(true);
}

/* A posix_spawn child of heapprof's (heapprof_spawn.c): a process of its
 * own that exits if its exec fails, so its hard limits can be the
 * program's too, as natively.  Raw calls only: it runs in its parent's
 * memory. */
void hp_rlimit_spawn_child(void) {
  for (int k = 0; k < 2; k++) {
    rlim_t cur = __atomic_load_n(&set_cur[k], __ATOMIC_RELAXED);
    rlim_t max = __atomic_load_n(&set_max[k], __ATOMIC_RELAXED);
    if (!cur && !max)
      continue;
    int resource = k == 0 ? RLIMIT_AS : RLIMIT_DATA;
    struct rlimit now;
    if (raw_prlimit(0, resource, NULL, &now) != 0)
      continue;
    if (cur && now.rlim_cur == cur)
      now.rlim_cur = cur - added[k];
    if (max && now.rlim_max == max)
      now.rlim_max = max - added[k];
    if (now.rlim_cur > now.rlim_max)
      now.rlim_cur = now.rlim_max;
    raw_prlimit(0, resource, &now, NULL);
  }
}

void hp_rlimit_exec_failed(void) {
  if (!hp_in_sandbox())
    set_soft(false);
}
