/*===- heapprof_faults.c - page faults in and outside allocator calls ---===
 *
 * Part of heapprof.  See heapprof_faults.h.  A thread's faults go to one of
 * three buckets by where it was at its previous boundary: outside any
 * profiled entry point, in heapprof's own work in one, or in the wrapped
 * call.  Each boundary reads the ring's head and adds the records since the
 * previous boundary to the bucket it leaves.
 *===----------------------------------------------------------------------===*/
#include "heapprof_internal.h"
#include "heapprof_faults.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <pthread.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

/* What hp_faults_init decided, and where it is read (heapprof_faults.h). */
static bool wanted;
bool *hp_faults_flag = &wanted;
static u64 fault_cycles; /* the measured cost of one fault */
static u64 totals[3];    /* print_stats: by bucket */
static u64 desched_calls, desched_cycles; /* sampled calls off the CPU */
enum { OUTSIDE, OWN, IN_CALL };

#define RING_BYTES (2 * HP_PAGE_SIZE) /* the control page and one data page */
#define RECORD 8 /* a PERF_RECORD_SAMPLE with sample_type 0: its header */

HP_TLS hp_fault_thread_t hp_faults_thread;
#define ft hp_faults_thread
/* Median cycles of a first touch of one fresh anonymous page. */
static u64 measure_fault(void) {
  enum { N = 31 };
  char *p = hp_mmap(N * HP_PAGE_SIZE);
  if (!p)
    return 0;
  u64 c[N];
  for (u32 i = 0; i < N; i++) {
    u64 t0 = hp_rdtsc();
    *(volatile char *)(p + i * HP_PAGE_SIZE) = 1;
    c[i] = hp_rdtsc() - t0;
  }
  hp_munmap(p, N * HP_PAGE_SIZE);
  for (u32 i = 1; i < N; i++) /* insertion sort: 31 values */
    for (u32 j = i; j && c[j - 1] > c[j]; j--) {
      u64 x = c[j];
      c[j] = c[j - 1];
      c[j - 1] = x;
    }
  return c[N / 2];
}

void hp_faults_init(void) {
  wanted = hp_flags.alloc_faults && hp_flags.alloc_syscalls &&
           hp_flags.profiling && hp_foreign_state == HP_FOREIGN_ON;
  if (!wanted)
    return;
  fault_cycles = measure_fault();
  /* Before Linux 4.14 (no MADV_WIPEONFORK) the flag stays where it is, and
   * such a copy dies as it did. */
  bool *page = hp_mmap(HP_PAGE_SIZE);
  if (page && madvise(page, HP_PAGE_SIZE, MADV_WIPEONFORK) == 0) {
    *page = true;
    hp_faults_flag = page;
  } else if (page) {
    hp_munmap(page, HP_PAGE_SIZE);
  }
}

static void open_ring(void) {
  ft.tried = true;
  /* perf_event_open is no call of the program's: a seccomp filter of its
   * own may kill for it (heapprof_sandbox.c). A thread without the ring
   * counts no faults. */
  if (hp_in_sandbox())
    return;
  struct perf_event_attr a;
  hp_memset(&a, 0, sizeof(a));
  a.size = sizeof(a);
  a.type = PERF_TYPE_SOFTWARE;
  a.config = PERF_COUNT_SW_PAGE_FAULTS;
  a.sample_period = 1;
  a.exclude_kernel = 1; /* perf_event_paranoid 2 allows user space only */
  a.exclude_hv = 1;
  int saved = errno;
  int fd = (int)syscall(SYS_perf_event_open, &a, (long)0, (long)-1,
                        (long)-1, (long)PERF_FLAG_FD_CLOEXEC);
  if (fd >= 0) {
    /* Read only: the kernel overwrites old records and never waits for a
     * reader; the head only grows. */
    /* syscall() reads every argument as a long, and the sixth travels on
     * the stack: an int there leaves the slot's upper half to chance (a
     * garbage offset made this mmap fail under jemalloc and tcmalloc). */
    void *m = (void *)syscall(SYS_mmap, NULL, (long)RING_BYTES,
                              (long)PROT_READ, (long)MAP_SHARED, (long)fd,
                              (long)0);
    /* The mapping keeps the event alive: no descriptor is held that a
     * program closing every descriptor could close and reuse (heapprof
     * would then close the program's file at thread exit).  close is a
     * cancellation point and malloc is none: a cancel pending at the
     * thread's first malloc was acted on inside it. */
    int cancel;
    pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &cancel);
    close(fd);
    pthread_setcancelstate(cancel, NULL);
    if (m != MAP_FAILED) {
      ft.ring = m;
      ft.mark = __atomic_load_n(&ft.ring->data_head, __ATOMIC_ACQUIRE);
    }
  }
  errno = saved;
}

/* Faults since the previous boundary; moves the mark. */
static HP_ALWAYS_INLINE u64 since_mark(void) {
  u64 h = __atomic_load_n(&ft.ring->data_head, __ATOMIC_ACQUIRE);
  u64 n = (h - ft.mark) / RECORD;
  ft.mark = h;
  return n;
}

static void charge(int bucket, u64 n) {
  __atomic_add_fetch(&totals[bucket], n, __ATOMIC_RELAXED);
  if (bucket == IN_CALL) {
    ft.in_call += n; /* noted when the call is recorded */
  } else if (bucket == OUTSIDE) {
    /* Anything else pending belongs there too (what
     * hp_syscalls_charge_outside would do with it). */
    hp_sys_note_many(HP_SYS_FAULT, n, n * HP_PAGE_SIZE, n * fault_cycles);
    hp_syscalls_charge(HP_SYS_OUTSIDE);
  }
}

void hp_faults_note_call_slow(void) {
  u64 n = ft.in_call;
  if (HP_UNLIKELY(n)) {
    ft.in_call = 0;
    hp_sys_note_many(HP_SYS_FAULT, n, n * HP_PAGE_SIZE, n * fault_cycles);
  }
}

void hp_faults_enter_slow(void) {
  if (ft.depth++)
    return;
  if (HP_UNLIKELY(!ft.ring)) {
    if (ft.tried)
      return;
    open_ring();
    return; /* nothing counted before the ring existed */
  }
  u64 n = since_mark();
  if (HP_UNLIKELY(n))
    charge(OUTSIDE, n);
}

void hp_faults_call_begin_slow(void) {
  if (ft.depth != 1 || !ft.ring)
    return;
  ft.lock = __atomic_load_n(&ft.ring->lock, __ATOMIC_ACQUIRE);
  u64 n = since_mark();
  if (HP_UNLIKELY(n))
    charge(OWN, n);
}

bool hp_faults_call_end_slow(u64 cycles) {
  if (ft.depth != 1 || !ft.ring)
    return false;
  u64 n = since_mark();
  if (HP_UNLIKELY(n))
    charge(IN_CALL, n);
  if (HP_LIKELY(__atomic_load_n(&ft.ring->lock, __ATOMIC_ACQUIRE) == ft.lock))
    return false;
  if (cycles) {
    __atomic_add_fetch(&desched_calls, 1, __ATOMIC_RELAXED);
    __atomic_add_fetch(&desched_cycles, cycles, __ATOMIC_RELAXED);
  }
  return true;
}

void hp_faults_leave_slow(void) {
  if (!ft.depth || --ft.depth || !ft.ring)
    return;
  ft.in_call = 0; /* a call that was not recorded */
  u64 n = since_mark();
  if (HP_UNLIKELY(n))
    charge(OWN, n);
}

/* A quick call's faults (heapprof_faults.h): the thread stays inside. */
void hp_faults_quick_faulted(void) {
  charge(IN_CALL, since_mark());
}

void hp_faults_flush(void) {
  if (!hp_faults_on() || ft.depth || !ft.ring)
    return;
  u64 n = since_mark();
  if (n)
    charge(OUTSIDE, n);
}

void hp_faults_skip(void) {
  if (!hp_faults_on() || ft.depth || !ft.ring)
    return;
  u64 n = since_mark();
  if (n)
    charge(OWN, n);
}

static void drop_ring(void) {
  if (ft.ring)
    syscall(SYS_munmap, (void *)ft.ring, RING_BYTES);
  hp_memset(&ft, 0, sizeof(ft));
}

void hp_faults_thread_exit(void) {
  if (!hp_faults_on())
    return;
  int saved = errno;
  ft.depth = 0;
  hp_faults_flush();
  drop_ring();
  ft.tried = true; /* a destructor's late malloc opens nothing new */
  errno = saved;
}

void hp_faults_fork_child(void) {
  if (!wanted)
    return;
  *hp_faults_flag = true; /* the fork wiped its page */
  int saved = errno;
  drop_ring(); /* the parent thread's event: not this process's faults */
  errno = saved;
}

void hp_faults_print_stats(void) {
  if (!hp_faults_on())
    return;
  hp_faults_skip(); /* printed by a dump: its faults so far are its own */
  static const char *const names[3] = {"faults_outside", "faults_heapprof",
                                       "faults_in_calls"};
  static const char *const desc[3] = {
      "page faults outside allocator calls (first touches: docs/run.md)",
      "page faults in heapprof's own work (not the allocator's)",
      "page faults inside the wrapped calls (in their cycles)"};
  for (int b = 0; b < 3; b++)
    hp_printf("  %-16s %20llu  %s\n", names[b],
              (unsigned long long)__atomic_load_n(&totals[b],
                                                  __ATOMIC_RELAXED),
              desc[b]);
  hp_printf("  %-16s %20llu  %s\n", "descheduled",
            (unsigned long long)__atomic_load_n(&desched_calls,
                                                __ATOMIC_RELAXED),
            "sampled calls that lost the CPU (not in the cycle totals)");
  hp_printf("  %-16s %20llu  %s\n", "desched_cycles",
            (unsigned long long)__atomic_load_n(&desched_cycles,
                                                __ATOMIC_RELAXED),
            "their cycles");
  hp_printf("  %-16s %20llu  %s\n", "fault_cycles",
            (unsigned long long)fault_cycles,
            "measured TSC cycles of one page fault (first touch)");
}
