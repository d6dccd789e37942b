// llvm-profdata 19 reads heapprof's raw profile of a C program, PIE and
// -no-pie, -O0 and -O2, and every number it prints is the one heapprof's own
// text profile of the same run prints (raw_vs_text.py compares them site by
// site).  The expected values follow from the program below.
// REQUIRES: heapprof-driver
// RUN: %clang_heapprof -O0 %s -o %t.O0
// RUN: rm -rf %t.O0.dir
// RUN: %env_heapprof_opts=profile_dir=%t.O0.dir:print_raw=1:print_text=1 %run %t.O0
// RUN: llvm-profdata show --memory %t.O0.dir/*.profraw --profiled-binary %t.O0 > %t.O0.yaml
// RUN: %python %S/Inputs/raw_vs_text.py %t.O0 %t.O0.yaml %t.O0.dir/*.txt | FileCheck %s
// RUN: FileCheck %s --check-prefix=PIE < %t.O0.yaml
// The comparison notices a difference (here a doctored min access count).
// RUN: sed -e 's|access_count (ave/min/max): 20.00 / 20 / 20|access_count (ave/min/max): 20.00 / 21 / 20|' %t.O0.dir/*.txt > %t.bad.txt
// RUN: not %python %S/Inputs/raw_vs_text.py %t.O0 %t.O0.yaml %t.bad.txt | FileCheck %s --check-prefix=BAD
//
// RUN: %clang_heapprof -O2 %s -o %t.O2
// RUN: rm -rf %t.O2.dir
// RUN: %env_heapprof_opts=profile_dir=%t.O2.dir:print_raw=1:print_text=1 %run %t.O2
// RUN: llvm-profdata show --memory %t.O2.dir/*.profraw --profiled-binary %t.O2 > %t.O2.yaml
// RUN: %python %S/Inputs/raw_vs_text.py %t.O2 %t.O2.yaml %t.O2.dir/*.txt | FileCheck %s
//
// RUN: %clang_heapprof -O0 -no-pie %s -o %t.nopie0
// RUN: llvm-readelf -h %t.nopie0 | FileCheck %s --check-prefix=EXEC
// RUN: rm -rf %t.nopie0.dir
// RUN: %env_heapprof_opts=profile_dir=%t.nopie0.dir:print_raw=1:print_text=1 %run %t.nopie0
// RUN: llvm-profdata show --memory %t.nopie0.dir/*.profraw --profiled-binary %t.nopie0 > %t.nopie0.yaml
// RUN: %python %S/Inputs/raw_vs_text.py %t.nopie0 %t.nopie0.yaml %t.nopie0.dir/*.txt | FileCheck %s
// RUN: FileCheck %s --check-prefix=NOPIE < %t.nopie0.yaml
//
// RUN: %clang_heapprof -O2 -no-pie %s -o %t.nopie2
// RUN: rm -rf %t.nopie2.dir
// RUN: %env_heapprof_opts=profile_dir=%t.nopie2.dir:print_raw=1:print_text=1 %run %t.nopie2
// RUN: llvm-profdata show --memory %t.nopie2.dir/*.profraw --profiled-binary %t.nopie2 > %t.nopie2.yaml
// RUN: %python %S/Inputs/raw_vs_text.py %t.nopie2 %t.nopie2.yaml %t.nopie2.dir/*.txt | FileCheck %s
#include <stdlib.h>

__attribute__((noinline)) int *make_ints(void) { return malloc(10 * sizeof(int)); }
__attribute__((noinline)) char *make_chars(void) { return malloc(100); }
__attribute__((noinline)) long *make_many(void) { return malloc(3 * sizeof(long)); }
__attribute__((noinline)) int *make_untouched(void) { return malloc(64); }
__attribute__((noinline)) int *make_live(void) { return malloc(8 * sizeof(int)); }

int *volatile live;

int main(void) {
  // 10 int stores + 10 int loads: 20 accesses to 40 bytes.
  int *volatile a = make_ints();
  for (int i = 0; i < 10; i++)
    a[i] = i;
  int sum = 0;
  for (int i = 0; i < 10; i++)
    sum += a[i];
  free(a);

  // 100 byte stores to 100 bytes.
  char *volatile c = make_chars();
  for (int i = 0; i < 100; i++)
    c[i] = (char)i;
  free(c);

  // Three objects of 24 bytes from one site; object k gets k+1 stores:
  // 1 + 2 + 3 = 6 accesses, min 1, max 3.  Not unrolled: one call site.
#pragma clang loop unroll(disable)
  for (int k = 0; k < 3; k++) {
    long *volatile p = make_many();
    for (int j = 0; j <= k; j++)
      p[j] = j;
    free(p);
  }

  free(make_untouched());

  // Live at exit, 4 int stores into 32 bytes.
  live = make_live();
  for (int i = 0; i < 4; i++)
    live[i] = i;
  return sum == 45 ? 0 : 1;
}
// Sorted by call stack.  Access density is accesses * 100 / size per object,
// summed: chars 100*100/100 = 100; ints 20*100/40 = 50; live 4*100/32 = 12;
// many 1*100/24 + 2*100/24 + 3*100/24 = 4 + 8 + 12 = 24.
// CHECK: site make_chars<main alloc_count=1 size=100/100/100 access=100/100/100 density=100/100/100
// CHECK-NEXT: site make_ints<main alloc_count=1 size=40/40/40 access=20/20/20 density=50/50/50
// CHECK-NEXT: site make_live<main alloc_count=1 size=32/32/32 access=4/4/4 density=12/12/12
// CHECK-NEXT: site make_many<main alloc_count=3 size=72/24/24 access=6/1/3 density=24/4/12
// CHECK-NEXT: site make_untouched<main alloc_count=1 size=64/64/64 access=0/0/0 density=0/0/0
// CHECK-NEXT: compared 5 sites with the text profile: all equal

// The main executable's segment comes first; its Offset is the load bias:
// non-zero for PIE, 0 for -no-pie.
// PIE: {{^ *}}Segments:
// PIE-NEXT: -
// PIE-NEXT: BuildId: {{[0-9a-f]+}}
// PIE: Offset: 0x{{[1-9A-F][0-9A-F]*}}
// NOPIE: {{^ *}}Segments:
// NOPIE-NEXT: -
// NOPIE-NEXT: BuildId: {{[0-9a-f]+}}
// NOPIE: Offset: 0x0{{$}}
// EXEC: Type: EXEC

// BAD: MISMATCH: {{.*}}: site make_ints<main: access: llvm-profdata ('20.00', '20', '20'), text ('20.00', '21', '20')
// BAD: compared 5 sites with the text profile: 1 differences
