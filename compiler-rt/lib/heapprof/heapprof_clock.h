/*===- heapprof_clock.h - timestamps, cpu ids, cycle counts -------------===
 *
 * Part of heapprof.  Timestamps are milliseconds since init from the coarse
 * clock (CLOCK_MONOTONIC_COARSE, a vDSO read without RDTSC: RDTSC is a
 * 23.5 ns VM trap on some hosts, twice per malloc/free pair; called at the
 * vDSO's own entry, not through glibc's wrapper), and the cpu comes from
 * the thread's rseq area (hp_cpu_id).  The coarse clock ticks every res_ms (4 ms at
 * HZ=250), so a start is read as hp_now_ms() (never after the true time)
 * and an end as hp_end_ms(hp_now_ms()) (never before it while the ticks
 * that advance the coarse clock come on time): a measured lifetime is then
 * at least the true one and at most 2 res_ms more.  A late tick (a loaded
 * VM: once 6 ms late in CI) makes an end read short by its lateness.  The
 * TSC is
 * read only by calls whose cycles are measured (one in cycle_sample_every
 * per thread and kind).
 *===----------------------------------------------------------------------===*/
#ifndef HEAPPROF_CLOCK_H
#define HEAPPROF_CLOCK_H

#include <time.h>

/* Written once by hp_clock_init (init, single-threaded), read-only after. */
typedef struct hp_clock {
  u64 coarse0_ns; /* CLOCK_MONOTONIC_COARSE at init */
  u32 res_ms;     /* its resolution, rounded up */
  bool ready;
} hp_clock_t;
extern hp_clock_t hp_clock;

void hp_clock_init(void);

static HP_ALWAYS_INLINE u64 hp_rdtsc(void) {
  u32 lo, hi;
  __asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
  return ((u64)hi << 32) | lo;
}

/* clock_gettime: the vDSO's own entry when hp_clock_init found it (a call
 * less than glibc's wrapper, ~1 ns of a coarse read's ~3-5 here), else
 * glibc's.  Written once by hp_clock_init. */
typedef int (*hp_clock_gettime_fn)(clockid_t, struct timespec *);
extern hp_clock_gettime_fn hp_clock_gettime;

/* CLOCK_MONOTONIC_COARSE in nanoseconds. */
static HP_ALWAYS_INLINE u64 hp_coarse_ns(void) {
  struct timespec ts;
  hp_clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
  return (u64)ts.tv_sec * 1000000000ull + (u64)ts.tv_nsec;
}

/* Milliseconds since init by the coarse clock: at most the true time (0
 * before init). */
static HP_ALWAYS_INLINE u32 hp_now_ms(void) {
  if (HP_UNLIKELY(!hp_clock.ready))
    return 0;
  return (u32)((hp_coarse_ns() - hp_clock.coarse0_ns) / 1000000u);
}

/* The end of an interval whose end the coarse clock read as now_ms: at
 * least the true time. */
static HP_ALWAYS_INLINE u32 hp_end_ms(u32 now_ms) {
  return now_ms + hp_clock.res_ms;
}

/* The current cpu.  glibc (2.35 on) registers every thread's rseq area,
 * where the kernel keeps the cpu id current: reading it is one load off the
 * thread pointer (0.6 ns here), where sched_getcpu() is a call (3.3 ns) and
 * RDTSCP ~45 ns in some VMs.  hp_cpu_rseq_off is that field's offset from
 * the thread pointer, set by hp_clock_init when glibc registered rseq (0
 * otherwise: valgrind, glibc.pthread.rseq=0, an older glibc); then, or while
 * the kernel has not filled the field in, sched_getcpu() answers. */
extern long hp_cpu_rseq_off;
u32 hp_cpu_id_slow(void);
static HP_ALWAYS_INLINE u32 hp_cpu_id(void) {
  long off = hp_cpu_rseq_off;
  if (HP_LIKELY(off)) {
    int32_t c = *(volatile const int32_t *)((char *)__builtin_thread_pointer() + off);
    if (HP_LIKELY(c >= 0))
      return (u32)c;
  }
  return hp_cpu_id_slow();
}

#endif
