/* Timestamps: the coarse clock read through the vDSO's own entry gives
 * what glibc's clock_gettime gives, and hp_now_ms()/hp_end_ms() bracket
 * the true time as heapprof_clock.h says. */
#include "hp_test.h"
#include <sys/auxv.h>
#include <time.h>

static u64 glibc_coarse_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
  return (u64)ts.tv_sec * 1000000000ull + (u64)ts.tv_nsec;
}

int main(void) {
  __heapprof_init();
  EXPECT(hp_clock.ready);
  EXPECT(hp_clock.res_ms >= 1);
  /* A kernel that maps a vDSO (every x86-64 Linux; valgrind hides it) has
   * __vdso_clock_gettime, and init takes it instead of glibc's wrapper. */
  if (getauxval(AT_SYSINFO_EHDR))
    EXPECT(hp_clock_gettime != clock_gettime);
  else
    EXPECT(hp_clock_gettime == clock_gettime);

  /* The same clock: every read lies between glibc's reads around it, and
   * over 10 ms of readings it moves (the coarse clock ticks every res_ms,
   * at most 10 ms on any HZ Linux has). */
  u64 first = hp_coarse_ns(), last = first;
  for (int i = 0; i < 2000; i++) {
    u64 a = glibc_coarse_ns();
    u64 n = hp_coarse_ns();
    u64 b = glibc_coarse_ns();
    EXPECT(a <= n && n <= b);
    EXPECT(n >= last);
    last = n;
    if (i % 100 == 0) {
      struct timespec d = {0, 500000}; /* 0.5 ms: 20 of them, 10 ms */
      nanosleep(&d, NULL);
    }
  }
  EXPECT(last > first);

  /* A start is never after the true time (CLOCK_MONOTONIC, which its
   * coarse version never passes, read after it), and an end is at least
   * res_ms after a start read before it.  (That the coarse clock lags by
   * less than res_ms is the kernel's, not checked here: a VM's late tick
   * would make it flaky.) */
  for (int i = 0; i < 1000; i++) {
    u32 start = hp_now_ms();
    u32 end = hp_end_ms(hp_now_ms());
    struct timespec t1;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    u64 ns1 = (u64)t1.tv_sec * 1000000000ull + (u64)t1.tv_nsec;
    EXPECT((u64)start * 1000000u <= ns1 - hp_clock.coarse0_ns);
    EXPECT(end >= start + hp_clock.res_ms);
  }
  return hp_test_done("clock_test");
}
