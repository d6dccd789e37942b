// A sampled profile is a raw profile like any other: llvm-profdata 19 reads
// it, heapprof show and heapprof report say it is estimated (tag 8 of the
// extension, docs/formats.md), and sampled profiles of several processes
// merge into one whose counts are the sums (estimates add up).  Profiles of
// different rates merge too and say so.
//
// RUN: %clang_rt_heapprof -O0 %s -o %t
// RUN: rm -rf %t.a %t.b %t.c && mkdir -p %t.a %t.b %t.c
// RUN: %env_heapprof_opts=profile_dir=%t.a:sample_bytes=65536:sample_seed=1 %run %t
// RUN: %env_heapprof_opts=profile_dir=%t.b:sample_bytes=65536:sample_seed=2 %run %t
// RUN: %env_heapprof_opts=profile_dir=%t.c:sample_bytes=4096:sample_seed=3 %run %t
// RUN: llvm-profdata show --memory %t.a/*.profraw --profiled-binary %t | FileCheck %s --check-prefix=PROFDATA
// RUN: heapprof show %t.a/*.profraw | FileCheck %s --check-prefix=SHOW
// RUN: heapprof merge -o %t.ab.profraw %t.a/*.profraw %t.b/*.profraw
// RUN: heapprof show %t.a/*.profraw > %t.a.show
// RUN: heapprof show %t.b/*.profraw > %t.b.show
// RUN: heapprof show %t.ab.profraw > %t.ab.show
// RUN: FileCheck %s --check-prefix=SHOW < %t.ab.show
// RUN: %python %S/Inputs/alloc_total.py %t.a.show %t.b.show %t.ab.show | FileCheck %s --check-prefix=SUM
// RUN: llvm-profdata show --memory %t.ab.profraw --profiled-binary %t | FileCheck %s --check-prefix=PROFDATA
// RUN: llvm-profdata merge %t.a/*.profraw %t.b/*.profraw --profiled-binary %t -o %t.memprofdata
// RUN: heapprof report %t.ab.profraw | FileCheck %s --check-prefix=REPORT
// RUN: heapprof report --format json %t.ab.profraw | FileCheck %s --check-prefix=JSON
// RUN: heapprof merge -o %t.ac.profraw %t.a/*.profraw %t.c/*.profraw
// RUN: heapprof report %t.ac.profraw | FileCheck %s --check-prefix=MIXED
// RUN: heapprof report --format json %t.ac.profraw | FileCheck %s --check-prefix=MIXED-JSON
// RUN: heapprof show %t.ac.profraw | FileCheck %s --check-prefix=MIXED-SHOW
#include <stdlib.h>

__attribute__((noinline)) void *widget(void) { return malloc(300); }

int main(void) {
  for (int i = 0; i < 100000; i++) {
    void *volatile p = widget();
    free(p);
  }
  return 0;
}
// PROFDATA: MemprofProfile:
// PROFDATA: AllocSites:
// PROFDATA: SymbolName: widget
// PROFDATA: AllocCount:
// SHOW: sampled: estimated, sampled at 65536 bytes
// SUM: last is the sum of the others: yes
// REPORT: sampled estimated, sampled at 65536 bytes: counts, bytes and lifetimes are estimates
// JSON: "sampled_bytes": 65536
// MIXED: sampled estimated, sampled at several rates
// MIXED-JSON: "sampled_bytes": 0
// MIXED-SHOW: sampled: estimated, sampled at several rates (merged
