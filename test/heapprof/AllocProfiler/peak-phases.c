// The peak of a program with known phases.  Site A allocates 10 x 1 MiB and
// frees them; then site B keeps 3 x 1 MiB.  The largest live heap is A's
// 10 MiB (B holds nothing then), reached when A's tenth chunk is allocated;
// B's 3 MiB never come close.  With OVERLAP, B allocates its 3 MiB while A
// still holds 10: the peak is 13 MiB, A 10 objects and B 3.  Exact: the
// tracker snapshots the heap at the first free after the top.
// RUN: %clang_heapprof -O0 -g %s -o %t
// RUN: rm -rf %t.d %t.o && mkdir -p %t.d %t.o
// RUN: %env_heapprof_opts=profile_dir=%t.d:print_text=1 %run %t
// RUN: env OVERLAP=1 HEAPPROF_OPTIONS=profile_dir=%t.o:print_text=1 %run %t
// RUN: heapprof report --format json --top 0 %t.d > %t.d.json
// RUN: %python %S/Inputs/peak_check.py %t.d.json peak_bytes=10485760 site_a=10,10485760 site_b=0,0 peak.objects=10 peak.contexts=1
// RUN: heapprof report --format json --top 0 %t.o > %t.o.json
// RUN: %python %S/Inputs/peak_check.py %t.o.json peak_bytes=13631488 site_a=10,10485760 site_b=3,3145728 peak.objects=13 peak.contexts=2
// The allocator's bytes: each 1 MiB chunk is mmap'd with one more page for
// its header (user bytes start page-aligned): 10 x (1 MiB + 4 KiB).
// RUN: %python %S/Inputs/peak_check.py %t.d.json peak.block_bytes=10526720
// heapprof show prints the section and the per-context fields.
// RUN: heapprof show %t.d/*.profraw | FileCheck %s --check-prefix=SHOW
// SHOW: peak_objects=10 peak_bytes=10485760
// SHOW: peak_objects=0 peak_bytes=0
// SHOW: peak: peak_bytes=10485760 peak_block_bytes=10526720 peak_objects=10 peak_ms={{[0-9]+}} peak_contexts=1 threshold_bytes=1048576 snapshots={{[0-9]+}}
// SHOW: overhead at the peak: requested_bytes=10485760 block_bytes=10526720
// The text profile says it too.
// RUN: FileCheck %s --check-prefix=TEXT < %t.d/*.txt
// TEXT: at the peak: 10 objects, 10485760 bytes
// TEXT: Peak: 10485760 bytes (10526720 bytes of blocks), 10 objects, 1 contexts, at {{[0-9]+}} ms
// The report's text.
// RUN: heapprof report %t.o | FileCheck %s --check-prefix=REPORT
// REPORT: == Summary
// REPORT: contexts 2
// REPORT-NEXT: allocator heapprof's own
// REPORT-NEXT: peak 13 objects, 13631488 bytes (13.0 MiB) at {{[0-9]+}} ms (see The peak)
// REPORT: == The peak: the largest live heap, by allocation site and 2 callers
// REPORT-NEXT: 13631488 bytes (13.0 MiB) requested in 13 objects at {{[0-9]+}} ms; the allocator's blocks 13684736 bytes (13.1 MiB)
// REPORT-NEXT: bytes       %  objects  call chain
// REPORT-NEXT: 10485760   76.9%       10  site_a ({{.*}}peak-phases.c:{{[0-9]+}}:{{[0-9]+}}) <- main (
// REPORT-NEXT: 3145728   23.1%        3  site_b ({{.*}}peak-phases.c:{{[0-9]+}}:{{[0-9]+}}) <- main (
// llvm-profdata 19 still reads the profile, extension and all.
// RUN: llvm-profdata show --memory %t.o/*.profraw --profiled-binary %t | FileCheck %s --check-prefix=PROFDATA
// PROFDATA: NumMibInfo: 2
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
