// Integer flags that are shifted into bytes or cast to a counter are range
// checked like the others: a value out of range is an error naming the
// option, exit code 1 before main.  Before, max_allocation_size_mb=2^44
// (a limit of 16 EiB) wrapped to 0 bytes when shifted by 20 and every
// malloc(100) returned NULL; pmu_sample_every=-5 became 2^32-5 and no call
// was ever measured; negative thresholds were taken as 0.
// RUN: %clang_rt_heapprof -O0 %s -o %t
// RUN: %env_heapprof_opts=max_allocation_size_mb=17592186044416 %python %S/Inputs/exit_code.py 1 %t 2>&1 | FileCheck %s --check-prefix=RANGE-MAX
// RUN: %env_heapprof_opts=pmu_events=1:pmu_sample_every=-5 %python %S/Inputs/exit_code.py 1 %t 2>&1 | FileCheck %s --check-prefix=RANGE-PMU
// RUN: %env_heapprof_opts=pmu_sample_every=0 %python %S/Inputs/exit_code.py 1 %t 2>&1 | FileCheck %s --check-prefix=RANGE-PMU
// RUN: %env_heapprof_opts=pmu_sample_every=4294967297 %python %S/Inputs/exit_code.py 1 %t 2>&1 | FileCheck %s --check-prefix=RANGE-PMU
// RUN: %env_heapprof_opts=cycle_sample_every=0 %python %S/Inputs/exit_code.py 1 %t 2>&1 | FileCheck %s --check-prefix=RANGE-CYC
// RUN: %env_heapprof_opts=cycle_sample_every=1073741825 %python %S/Inputs/exit_code.py 1 %t 2>&1 | FileCheck %s --check-prefix=RANGE-CYC
// RUN: %env_heapprof_opts=peak_threshold_kb=-1 %python %S/Inputs/exit_code.py 1 %t 2>&1 | FileCheck %s --check-prefix=RANGE-PEAK
// RUN: %env_heapprof_opts=peak_threshold_kb=18014398509481984 %python %S/Inputs/exit_code.py 1 %t 2>&1 | FileCheck %s --check-prefix=RANGE-PEAK
// RUN: %env_heapprof_opts=release_freed_pages=1:release_threshold_kb=-1 %python %S/Inputs/exit_code.py 1 %t 2>&1 | FileCheck %s --check-prefix=RANGE-REL
// RUN: %env_heapprof_opts=release_idle_ms=-2 %python %S/Inputs/exit_code.py 1 %t 2>&1 | FileCheck %s --check-prefix=RANGE-IDLE
// RUN: %env_heapprof_opts=release_idle_ms=1073741825 %python %S/Inputs/exit_code.py 1 %t 2>&1 | FileCheck %s --check-prefix=RANGE-IDLE
// Edge values are accepted: a 2^40 MiB limit lets a 100-byte and a 2 MiB
// malloc through; a 1 MiB limit fails the 2 MiB one only.
// RUN: %env_heapprof_opts=dump_at_exit=0:max_allocation_size_mb=1099511627776:pmu_sample_every=1073741824:cycle_sample_every=1073741824:peak_threshold_kb=0:release_threshold_kb=0:release_idle_ms=-1 %run %t 2>&1 | FileCheck %s --check-prefix=EDGE
// RUN: %env_heapprof_opts=dump_at_exit=0:max_allocation_size_mb=1:pmu_sample_every=1:cycle_sample_every=1:peak_threshold_kb=1099511627776:release_threshold_kb=1099511627776:release_idle_ms=1073741824 %run %t 2>&1 | FileCheck %s --check-prefix=LIMIT1
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  void *volatile small = malloc(100);
  void *volatile big = malloc(2 << 20);
  fprintf(stderr, "small %s big %s\n", small ? "ok" : "NULL",
          big ? "ok" : "NULL");
  free(small);
  free(big);
  return 0;
}
// RANGE-MAX: HeapProf: ERROR: option 'max_allocation_size_mb' out of range in HEAPPROF_OPTIONS (see help=1)
// RANGE-MAX-NOT: small
// RANGE-PMU: HeapProf: ERROR: option 'pmu_sample_every' out of range in HEAPPROF_OPTIONS (see help=1)
// RANGE-PMU-NOT: small
// RANGE-CYC: HeapProf: ERROR: option 'cycle_sample_every' out of range in HEAPPROF_OPTIONS (see help=1)
// RANGE-CYC-NOT: small
// RANGE-PEAK: HeapProf: ERROR: option 'peak_threshold_kb' out of range in HEAPPROF_OPTIONS (see help=1)
// RANGE-PEAK-NOT: small
// RANGE-REL: HeapProf: ERROR: option 'release_threshold_kb' out of range in HEAPPROF_OPTIONS (see help=1)
// RANGE-REL-NOT: small
// RANGE-IDLE: HeapProf: ERROR: option 'release_idle_ms' out of range in HEAPPROF_OPTIONS (see help=1)
// RANGE-IDLE-NOT: small

// EDGE-NOT: HeapProf: ERROR
// EDGE: small ok big ok
// LIMIT1-NOT: HeapProf: ERROR
// LIMIT1: small ok big NULL
