// Each dump holds the peak so far.  Site A allocates 10 x 1 MiB and frees
// them; checkpoint 1; site B keeps 3 x 1 MiB; with PHASE3, site C then
// allocates 12 x 1 MiB while B's 3 MiB are live, and frees them.
//   checkpoint 1: 10 MiB, A 10.
//   exit, two phases: still A's 10 MiB.  A did nothing since checkpoint 1,
//     so the exit dump has no record of A: read alone, it cannot name A
//     (the report says so); read with checkpoint 1, A holds its 10.
//   exit, PHASE3: 15 MiB, B 3 and C 12 (A none).
// The report of a process shows its last dump's peak; heapprof merge keeps
// it too.
// RUN: %clang_heapprof -O0 -g %s -o %t
// RUN: rm -rf %t.2 %t.3 && mkdir -p %t.2 %t.3
// RUN: %env_heapprof_opts=profile_dir=%t.2 %run %t
// RUN: env PHASE3=1 HEAPPROF_OPTIONS=profile_dir=%t.3 %run %t
// RUN: heapprof report --format json --top 0 %t.2/*.1.profraw > %t.ckpt.json
// RUN: %python %S/Inputs/peak_check.py %t.ckpt.json peak_bytes=10485760 site_a=10,10485760
// RUN: heapprof report --format json --top 0 %t.2 > %t.2.json
// RUN: %python %S/Inputs/peak_check.py %t.2.json peak_bytes=10485760 site_a=10,10485760 site_b=0,0
// The exit file alone: the peak, but nobody to name for it.
// RUN: rm %t.2/*.1.profraw
// RUN: heapprof report --format json --top 0 %t.2 > %t.2exit.json
// RUN: %python %S/Inputs/peak_check.py %t.2exit.json peak_bytes=10485760 site_a=0,0 site_b=0,0 peak.unnamed_bytes=10485760
// RUN: heapprof report %t.2 | FileCheck %s --check-prefix=UNNAMED
// UNNAMED: (10485760 bytes (10.0 MiB) of the peak in contexts these dumps don't name
// RUN: llvm-profdata show --memory %t.2/*.profraw --profiled-binary %t | FileCheck %s --check-prefix=PROFDATA
// PROFDATA: NumMibInfo: 1
// RUN: heapprof report --format json --top 0 %t.3 > %t.3.json
// RUN: %python %S/Inputs/peak_check.py %t.3.json peak_bytes=15728640 site_a=0,0 site_b=3,3145728 site_c=12,12582912
// Merge of the checkpoint and the exit dump: the exit dump's peak.
// RUN: heapprof merge -o %t.merged.profraw %t.3
// RUN: heapprof report --format json --top 0 %t.merged.profraw > %t.merged.json
// RUN: %python %S/Inputs/peak_check.py %t.merged.json peak_bytes=15728640 site_a=0,0 site_b=3,3145728 site_c=12,12582912
// RUN: heapprof show %t.merged.profraw | FileCheck %s --check-prefix=MERGED
// MERGED: peak: peak_bytes=15728640
// MERGED: overhead at the peak: requested_bytes=15728640
// RUN: llvm-profdata show --memory %t.merged.profraw --profiled-binary %t | FileCheck %s --check-prefix=PROFDATA3
// PROFDATA3: NumMibInfo: 3
#include <heapprof/heapprof_interface.h>
#include <stdlib.h>

#define MiB (1 << 20)
__attribute__((noinline)) static char *site_a(void) { return malloc(MiB); }
__attribute__((noinline)) static char *site_b(void) { return malloc(MiB); }
__attribute__((noinline)) static char *site_c(void) { return malloc(MiB); }
static char *volatile a[10], *volatile b[3], *volatile c[12];

int main(void) {
  for (int i = 0; i < 10; i++)
    a[i] = site_a();
  for (int i = 0; i < 10; i++)
    free(a[i]);
  if (__heapprof_dump() != 0)
    return 1;
  for (int i = 0; i < 3; i++)
    b[i] = site_b();
  if (getenv("PHASE3")) {
    for (int i = 0; i < 12; i++)
      c[i] = site_c();
    for (int i = 0; i < 12; i++)
      free(c[i]);
  }
  return 0;
}
