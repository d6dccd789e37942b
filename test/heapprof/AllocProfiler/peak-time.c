// The peak's time is read with the clock of every other time in the
// profile (the coarse one: the dump's, the lifetimes', the timeline's), so
// it is never after the dump that holds it.  A heap that only grows has
// its peak taken by the exit dump itself; with FREE the heap tops out, the
// first free takes the peak and the dump follows.  The peak was read with
// CLOCK_MONOTONIC and the dump with CLOCK_MONOTONIC_COARSE, which lags it
// by up to a tick (4 ms at HZ=250): about every other run reported "peak
// ... at 1 ms" and "time span 0 ms (start to last dump)", or peak_ms=5 in a
// dump of 4 ms.  Twelve runs of each, in the raw profile and the report.
// RUN: %clang_heapprof -O0 -g %s -o %t
// RUN: rm -rf %t.d %t.f && mkdir -p %t.d %t.f
// RUN: %python %S/Inputs/peak_time_check.py %t %t.d 12 | FileCheck %s
// RUN: env FREE=1 %python %S/Inputs/peak_time_check.py %t %t.f 12 | FileCheck %s
// CHECK: 12 profiles: peak_ms <= the dump's ms in 12, the report's peak time <= its time span in 12
#include <stdlib.h>

char *volatile kept[64];

int main(void) {
  for (int i = 0; i < 64; i++)
    kept[i] = malloc(1000);
  if (getenv("FREE"))
    for (int i = 0; i < 64; i++)
      free(kept[i]);
  return 0;
}
