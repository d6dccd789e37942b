/*===- heapprof_mlock.c - mlockall without heapprof's reservations ------===
 *
 * Part of heapprof.  mlockall(MCL_CURRENT) locks every mapping of the
 * process into memory, which faults each in whole.  heapprof's
 * reservations (the shadow, 16 TiB; the allocator's regions, 3 TiB; its
 * tables) are address space that is never meant to be resident: with
 * CAP_IPC_LOCK (root) the kernel would try to fill 19 TiB and the machine
 * run out of memory, and without it the call failed with ENOMEM
 * (RLIMIT_MEMLOCK against the whole address space) where the program
 * alone locks its memory (cryptsetup, real-time audio, programs that keep
 * secrets out of swap).
 *
 * So mlockall is interposed (both runtimes).  MCL_FUTURE (with MCL_ONFAULT)
 * goes to the kernel as asked: it concerns mappings made later only; the
 * allocator locks the spans of its regions it takes from then on
 * (heapprof_mlock.h), and the checkpoints' baseline shadow, otherwise
 * reserved by the first checkpoint, is reserved before.
 * MCL_CURRENT is done mapping by mapping, from the process's map read
 * first: every mapping but heapprof's reservations (hp_reserved_ranges),
 * and of the allocator's regions the spans in use (the program's heap:
 * hp_primary_for_each_span_run).  The per-range locks count against
 * RLIMIT_MEMLOCK as the kernel's own check does; the first that fails for
 * a limit or a permission (ENOMEM, EAGAIN, EPERM) fails the call with its
 * errno, what was locked before it staying locked.  Without /proc (the
 * map cannot be read) the call fails with ENOMEM, as for a limit.
 *===----------------------------------------------------------------------===*/
#include "heapprof_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef MCL_ONFAULT
#define MCL_ONFAULT 4
#endif
#ifndef MLOCK_ONFAULT
#define MLOCK_ONFAULT 1
#endif

typedef struct lock_job {
  bool onfault;
  int err; /* the first failure's errno; 0: none */
} lock_job_t;

static void lock_range(lock_job_t *j, uptr beg, uptr end) {
  if (j->err || end <= beg)
    return;
  long r = j->onfault ? syscall(SYS_mlock2, beg, end - beg, MLOCK_ONFAULT)
                      : syscall(SYS_mlock, beg, end - beg);
  /* Other failures (a range the kernel does not lock, as the vsyscall
   * page) are skipped, as mlockall skips such mappings. */
  if (r != 0 && (errno == ENOMEM || errno == EAGAIN || errno == EPERM))
    j->err = errno;
}

/* [beg, end) but heapprof's reservations and the limits' ballast. */
static void lock_outside_reserved(lock_job_t *j, uptr beg, uptr end) {
  const uptr(*res)[2];
  u32 n = hp_reserved_ranges(&res);
  uptr bb, be; /* the ballast (heapprof_rlimit.c), never meant resident */
  if (!hp_rlimit_ballast(&bb, &be))
    bb = be = 0;
  while (beg < end && !j->err) {
    /* The nearest reservation overlapping [beg, end), from beg on. */
    uptr rb = end, re = end;
    for (u32 k = 0; k < n; k++)
      if (res[k][1] > beg && res[k][0] < rb) {
        rb = HP_MAX(res[k][0], beg);
        re = res[k][1];
      }
    if (be > beg && bb < rb) {
      rb = HP_MAX(bb, beg);
      re = be;
    }
    lock_range(j, beg, HP_MIN(rb, end));
    beg = re;
  }
}

static void lock_spans(uptr beg, uptr end, void *arg) {
  lock_range(arg, HP_ROUND_DOWN(beg, HP_PAGE_SIZE),
             HP_ROUND_UP(end, HP_PAGE_SIZE));
}

static int lock_current(bool onfault) {
  /* The process's map, whole, first: locking splits the mappings it
   * lists. */
  hp_buf_t maps = {0};
  int fd = hp_open_proc_self("maps", O_RDONLY | O_CLOEXEC);
  bool ok = fd >= 0 && hp_buf_read_fd(&maps, fd) && maps.len;
  if (fd >= 0)
    close(fd);
  if (!ok) {
    hp_buf_free(&maps);
    errno = ENOMEM;
    return -1;
  }
  lock_job_t j = {onfault, 0};
  for (const char *p = maps.data; *p && !j.err;) {
    uptr beg = hp_parse_hex_prefix(&p);
    uptr end = *p == '-' ? (p++, hp_parse_hex_prefix(&p)) : 0;
    /* Not the kernel's half ([vsyscall]: no mapping of the process's own,
     * which mlock refuses and mlockall passes over). */
    if (!(beg >> 63))
      lock_outside_reserved(&j, beg, end);
    while (*p && *p != '\n')
      p++;
    if (*p)
      p++;
  }
  hp_buf_free(&maps);
  hp_primary_for_each_span_run(lock_spans, &j);
  if (j.err) {
    errno = j.err;
    return -1;
  }
  return 0;
}

bool hp_mlock_future;
static bool future_onfault;

static void note_future(int flags) {
  __atomic_store_n(&future_onfault, (flags & MCL_ONFAULT) != 0,
                   __ATOMIC_RELAXED);
  __atomic_store_n(&hp_mlock_future, true, __ATOMIC_RELEASE);
}

void hp_mlock_new_memory(uptr beg, uptr end) {
  int saved = errno;
  /* In the program's seccomp sandbox mlock is a call its filter, written
   * for glibc's malloc (whose new heap the kernel locks), may kill for.
   * The range is mapped afresh instead, an mmap a malloc makes: the
   * kernel locks the new mapping as MCL_FUTURE (MCL_ONFAULT) asked.
   * Nothing of the program's is in it yet.  A failure (RLIMIT_MEMLOCK)
   * leaves the reservation there, unlocked, as mlock's does.  The new
   * mapping has no MADV_DONTDUMP: the span is in core dumps, as new_span
   * puts it outside the sandbox (MADV_DODUMP), with no madvise here
   * (Security/seccomp_mlock_dump.c). */
  if (hp_in_sandbox()) {
    mmap((void *)beg, end - beg, PROT_READ | PROT_WRITE,
         MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED, -1, 0);
    errno = saved;
    return;
  }
  lock_job_t j = {__atomic_load_n(&future_onfault, __ATOMIC_RELAXED), 0};
  lock_range(&j, HP_ROUND_DOWN(beg, HP_PAGE_SIZE),
             HP_ROUND_UP(end, HP_PAGE_SIZE));
  errno = saved;
}

HP_INTERFACE int munlockall(void) {
  __atomic_store_n(&hp_mlock_future, false, __ATOMIC_RELAXED);
  return (int)syscall(SYS_munlockall);
}

HP_INTERFACE int mlockall(int flags) {
  /* Checkpoints' baselines (heapprof_shadow.h) are reserved by the first,
   * unless it comes after MCL_FUTURE, which would lock 16 TiB: now.
   * Refused (a limit with no room for them: the program's own, set under
   * a limit it started with), mlockall goes on and the checkpoints are
   * not written, said then; it aborted the program ("cannot map
   * 0x100000000000 bytes for checkpoint baseline shadow", blaming the
   * program's own limit: Run/rlimit-mlockall-baseline.c). */
  if ((flags & MCL_FUTURE) && hp_rtl.inited && hp_flags.profiling)
    hp_shadow_baseline_try_init();
  if (!(flags & MCL_CURRENT) || !hp_rtl.inited) {
    int r = (int)syscall(SYS_mlockall, flags);
    if (r == 0 && (flags & MCL_FUTURE))
      note_future(flags);
    return r;
  }
  if (flags & ~(MCL_CURRENT | MCL_FUTURE | MCL_ONFAULT)) {
    errno = EINVAL;
    return -1;
  }
  int saved = errno;
  if (lock_current(flags & MCL_ONFAULT) != 0)
    return -1;
  if (flags & MCL_FUTURE) {
    if (syscall(SYS_mlockall, flags & (MCL_FUTURE | MCL_ONFAULT)) != 0)
      return -1;
    note_future(flags);
  }
  errno = saved;
  return 0;
}
