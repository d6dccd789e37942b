// Two processes of one program, peaks of 10 MiB (site A alone) and 13 MiB
// (with OVERLAP: A's 10 and B's 3 at once).  They never ran at the same
// time, so their peaks don't add: heapprof merge and heapprof report take
// the largest process's peak with its contexts' values.
// RUN: %clang_heapprof -O0 -g %s -o %t
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: %env_heapprof_opts=profile_dir=%t.d %run %t
// RUN: env OVERLAP=1 HEAPPROF_OPTIONS=profile_dir=%t.d %run %t
// RUN: heapprof report --format json --top 0 %t.d > %t.json
// RUN: %python %S/Inputs/peak_check.py %t.json peak_bytes=13631488 site_a=10,10485760 site_b=3,3145728 peak.processes=2
// RUN: heapprof report %t.d | FileCheck %s
// CHECK: == The peak: the largest live heap
// CHECK-NEXT: 13631488 bytes (13.0 MiB) requested in 13 objects at {{[0-9]+}} ms (pid {{[0-9]+}}, the largest of 2 processes)
// RUN: heapprof merge -o %t.merged.profraw %t.d
// RUN: heapprof report --format json --top 0 %t.merged.profraw > %t.merged.json
// RUN: %python %S/Inputs/peak_check.py %t.merged.json peak_bytes=13631488 site_a=10,10485760 site_b=3,3145728 peak.processes=1
// RUN: llvm-profdata show --memory %t.merged.profraw --profiled-binary %t | FileCheck %s --check-prefix=PROFDATA
// Site B is called from two lines of main: three contexts.
// PROFDATA: NumMibInfo: 3
#include <stdlib.h>

#define MiB (1 << 20)
__attribute__((noinline)) static char *site_a(void) { return malloc(MiB); }
__attribute__((noinline)) static char *site_b(void) { return malloc(MiB); }
static char *volatile a[10], *volatile b[3];

int main(void) {
  int overlap = getenv("OVERLAP") != NULL;
  for (int i = 0; i < 10; i++)
    a[i] = site_a();
  if (overlap)
    for (int i = 0; i < 3; i++)
      b[i] = site_b();
  for (int i = 0; i < 10; i++)
    free(a[i]);
  if (!overlap)
    for (int i = 0; i < 3; i++)
      b[i] = site_b();
  return 0;
}
