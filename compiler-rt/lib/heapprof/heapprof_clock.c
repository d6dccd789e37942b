/*===- heapprof_clock.c - timestamps, cpu ids, cycle counts -------------===
 *
 * Part of heapprof.  Calibrates the TSC against CLOCK_MONOTONIC over ~2 ms
 * at init (for the cycle counts; heapprof needs constant_tsc/nonstop_tsc),
 * and takes the coarse clock's origin and resolution for timestamps.
 *===----------------------------------------------------------------------===*/
#include "heapprof_internal.h"

#include <sched.h>
#include <time.h>

hp_clock_t hp_clock;
long hp_cpu_rseq_off;

/* glibc's description of the rseq area it registered (weak: absent before
 * glibc 2.35).  struct rseq begins { u32 cpu_id_start; u32 cpu_id; ... }. */
extern const ptrdiff_t __rseq_offset __attribute__((weak));
extern const unsigned int __rseq_size __attribute__((weak));
#define HP_RSEQ_CPU_ID 4

static u64 mono_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (u64)ts.tv_sec * 1000000000ull + (u64)ts.tv_nsec;
}

u64 hp_coarse_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
  return (u64)ts.tv_sec * 1000000000ull + (u64)ts.tv_nsec;
}

void hp_clock_init(void) {
  if (hp_clock.ready)
    return;
  if (&__rseq_size && &__rseq_offset && __rseq_size >= 2 * sizeof(u32) &&
      __rseq_offset + HP_RSEQ_CPU_ID != 0)
    hp_cpu_rseq_off = (long)__rseq_offset + HP_RSEQ_CPU_ID;
  struct timespec res;
  u64 res_ns = 4000000; /* HZ=250, if the kernel does not say */
  if (!clock_getres(CLOCK_MONOTONIC_COARSE, &res))
    res_ns = (u64)res.tv_sec * 1000000000ull + (u64)res.tv_nsec;
  hp_clock.res_ms = (u32)((res_ns + 999999) / 1000000);
  hp_clock.coarse0_ns = hp_coarse_ns();
  u64 n0 = mono_ns(), t0 = hp_rdtsc();
  u64 n1, t1;
  do {
    n1 = mono_ns();
    t1 = hp_rdtsc();
  } while (n1 - n0 < 2000000);
  u64 hz = (u64)((unsigned __int128)(t1 - t0) * 1000000000u / (n1 - n0));
  if (!hz)
    hz = 1000000000u;
  hp_clock.tsc_hz = hz;
  hp_clock.ms_mult = (u64)(((unsigned __int128)1000 << 32) / hz);
  hp_clock.tsc0 = t0;
  __atomic_store_n(&hp_clock.ready, true, __ATOMIC_RELEASE);
}

u32 hp_cpu_id_slow(void) {
  int c = sched_getcpu();
  return c < 0 ? 0 : (u32)c;
}
