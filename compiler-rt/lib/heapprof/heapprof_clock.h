/*===- heapprof_clock.h - timestamps, cpu ids, cycle counts -------------===
 *
 * Part of heapprof.  The malloc/free path reads the TSC once (RDTSC; the
 * timestamp, converted to ms since init with a multiplier calibrated once
 * at init) and the cpu with sched_getcpu().  The cycles an allocator call
 * takes need a second TSC read at its end, so they are measured on one call
 * in cycle_sample_every (per thread).
 *===----------------------------------------------------------------------===*/
#ifndef HEAPPROF_CLOCK_H
#define HEAPPROF_CLOCK_H

/* Written once by hp_clock_init (init, single-threaded), read-only after. */
typedef struct hp_clock {
  u64 tsc0;     /* TSC at init */
  u64 ms_mult;  /* ms = ((tsc - tsc0) * ms_mult) >> 32 */
  u64 tsc_hz;
  bool ready;
} hp_clock_t;
extern hp_clock_t hp_clock;

void hp_clock_init(void);

static HP_ALWAYS_INLINE u64 hp_rdtsc(void) {
  u32 lo, hi;
  __asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
  return ((u64)hi << 32) | lo;
}

/* Milliseconds since init for a TSC value (0 before init). */
static HP_ALWAYS_INLINE u32 hp_tsc_to_ms(u64 tsc) {
  if (HP_UNLIKELY(!hp_clock.ready || tsc < hp_clock.tsc0))
    return 0;
  return (u32)(((unsigned __int128)(tsc - hp_clock.tsc0) * hp_clock.ms_mult) >>
               32);
}

/* The current cpu: sched_getcpu() (a vDSO read, ~3 ns; RDTSCP is ~45 ns in
 * some VMs). */
u32 hp_cpu_id(void);

#endif
