// Sampled mode's estimates on a program whose numbers are known
// (Inputs/sampled_sites.h): site a allocates 200000 blocks of 1000 bytes,
// site b 2000 blocks of 64 KiB.
//
// With sample_bytes=N an allocation of s bytes is sampled with probability
// p = 1 - exp(-s/N) and counts as 1/p objects (an integer weight W, floor or
// ceil of 1/p with E[W] = 1/p), so a site of n objects has an estimated count
// with mean n and variance n (1-p)/p (binomial sampling) plus at most 1/4
// per sampled object (the rounding of W).  At N = 65536:
//   a: p = 1 - exp(-1000/65536)  = 0.015143, variance 200000 * 65.04
//      + 0.25 * 3029 = 1.3008e7, sigma 3607: 5 sigma is [181965, 218035];
//   b: p = 1 - exp(-1)           = 0.632121, variance 2000 * 0.58198
//      + 0.2433 * 1264 = 1471, sigma 38.4: 5 sigma is [1808, 2192];
//   c: 1000 more of 64 KiB, still live at exit (weighted by the dump's
//      fold, not by a free): variance 1000 * 0.58198 + 0.2433 * 632 = 736,
//      sigma 27.1: 5 sigma is [864, 1136]; live at dump equals the count.
// Bytes and accesses are weighted by the same W, so the average size is
// exactly the size.  sample_seed makes the run reproducible; the bounds are
// what any seed must meet but once in ~1.7 million runs.  Each object is
// written once by an instrumented store, unsampled ones too, in memory glibc
// hands out again: a sampled object starts from clean counters, so each one
// shows exactly 1 access.  (The string functions count nothing in sampled
// mode.)
//
// RUN: %clang_heapprof -O0 %s -o %t
// RUN: %env_heapprof_opts=log_path=stderr:print_module_map=0:sample_bytes=65536:sample_seed=7 %run %t 2> %t.sampled
// RUN: %python %S/Inputs/check_estimates.py %t.sampled 181965:218035:1000.00 1808:2192:65536.00 864:1136:65536.00 | FileCheck %s --check-prefix=EST
// RUN: FileCheck %s --check-prefix=HEAD < %t.sampled
// Another seed, other samples, the same bounds.
// RUN: %env_heapprof_opts=log_path=stderr:print_module_map=0:sample_bytes=65536:sample_seed=12345 %run %t 2> %t.sampled2
// RUN: %python %S/Inputs/check_estimates.py %t.sampled2 181965:218035:1000.00 1808:2192:65536.00 864:1136:65536.00 | FileCheck %s --check-prefix=EST
// sample_bytes=0 (the default) is exact.
// RUN: %env_heapprof_opts=log_path=stderr:print_module_map=0:sample_bytes=0 %run %t 2> %t.exact
// RUN: %python %S/Inputs/check_estimates.py %t.exact 200000:200000:1000.00 2000:2000:65536.00 1000:1000:65536.00 | FileCheck %s --check-prefix=EST
// RUN: FileCheck %s --check-prefix=EXACT < %t.exact
#include "../Inputs/sampled_sites.h"

int main(void) {
  run_sampled_sites();
  return 0;
}
// EST: context 1: ok
// EST-NEXT: context 2: ok
// EST-NEXT: context 3: ok
// HEAD: Estimated, sampled at 65536 bytes (sample_bytes)
// HEAD: Memory allocation stack id = 1
// HEAD-NEXT: alloc_count [[A:[0-9]+]], size
// HEAD-NEXT: access_count (ave/min/max): 1.00 / 1 / 1
// HEAD: Memory allocation stack id = 3
// HEAD-NEXT: alloc_count [[C:[0-9]+]], size
// HEAD: live at dump: [[C]], continued from earlier dumps: 0
// EXACT-NOT: Estimated
// EXACT: alloc_count 200000, size (ave/min/max) 1000.00 / 1000 / 1000
// EXACT-NEXT: access_count (ave/min/max): 1.00 / 1 / 1
