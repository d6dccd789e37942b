// __heapprof_dump() checkpoints with print_raw=1: every checkpoint file and
// the exit file is a complete raw profile llvm-profdata accepts, each agrees
// with its text twin, the files add up to the run with every object and
// every access counted once (an object live across a dump is a
// continuation afterwards: alloc_count 0), and `llvm-profdata merge` takes
// all of them at once.
// REQUIRES: heapprof-driver
// RUN: %clang_heapprof -O0 %s -o %t
// RUN: rm -rf %t.dir %t.out && mkdir %t.out
// RUN: %env_heapprof_opts=profile_dir=%t.dir:print_raw=1:print_text=1 %run %t
// RUN: ls %t.dir | FileCheck %s --check-prefix=FILES
// RUN: mv %t.dir/heapprof.dumps.c.tmp.*.1.profraw %t.out/1.profraw
// RUN: mv %t.dir/heapprof.dumps.c.tmp.*.1.txt %t.out/1.txt
// RUN: mv %t.dir/heapprof.dumps.c.tmp.*.2.profraw %t.out/2.profraw
// RUN: mv %t.dir/heapprof.dumps.c.tmp.*.2.txt %t.out/2.txt
// RUN: mv %t.dir/heapprof.dumps.c.tmp.*.profraw %t.out/exit.profraw
// RUN: mv %t.dir/heapprof.dumps.c.tmp.*.txt %t.out/exit.txt
// RUN: llvm-profdata show --memory %t.out/1.profraw --profiled-binary %t > %t.out/1.yaml
// RUN: llvm-profdata show --memory %t.out/2.profraw --profiled-binary %t > %t.out/2.yaml
// RUN: llvm-profdata show --memory %t.out/exit.profraw --profiled-binary %t > %t.out/exit.yaml
// RUN: %python %S/Inputs/raw_vs_text.py %t %t.out/1.yaml %t.out/1.txt | FileCheck %s --check-prefix=DUMP1
// RUN: %python %S/Inputs/raw_vs_text.py %t %t.out/2.yaml %t.out/2.txt | FileCheck %s --check-prefix=DUMP2
// RUN: %python %S/Inputs/raw_vs_text.py %t %t.out/exit.yaml %t.out/exit.txt | FileCheck %s --check-prefix=EXIT
// RUN: %python %S/Inputs/raw_vs_text.py --sum %t %t.out/1.yaml %t.out/1.txt %t.out/2.yaml %t.out/2.txt %t.out/exit.yaml %t.out/exit.txt | FileCheck %s --check-prefix=SUM
// RUN: llvm-profdata merge %t.out/1.profraw %t.out/2.profraw %t.out/exit.profraw --profiled-binary %t -o %t.memprofdata
// The result is an indexed profile ("\xfflprofi\x81").
// RUN: od -A n -t x1 -N 8 %t.memprofdata | FileCheck %s --check-prefix=INDEXED
#include <heapprof/heapprof_interface.h>
#include <stdlib.h>

__attribute__((noinline)) int *keep(void) { return malloc(25 * sizeof(int)); }
__attribute__((noinline)) int *temp(void) { return malloc(50); }
__attribute__((noinline)) int *late(void) { return malloc(32); }

int main(void) {
  int *volatile p = keep();
  for (int i = 0; i < 25; i++) // 25 stores before dump 1
    p[i] = i;
  int *volatile t = temp();
  t[0] = 1; // 1 store
  free(t);
  if (__heapprof_dump() != 0)
    return 1;
  int sum = 0;
  for (int i = 0; i < 5; i++) // 5 loads between the dumps
    sum += p[i];
  if (__heapprof_dump() != 0)
    return 1;
  p[0] = p[1]; // 1 load + 1 store after dump 2
  free(p);
  int *volatile l = late(); // live at exit, 1 store
  l[0] = sum;
  return 0;
}
// FILES: heapprof.dumps.c.tmp.[[PID:[0-9]+]].1.profraw
// FILES-NEXT: heapprof.dumps.c.tmp.[[PID]].1.txt
// FILES-NEXT: heapprof.dumps.c.tmp.[[PID]].2.profraw
// FILES-NEXT: heapprof.dumps.c.tmp.[[PID]].2.txt
// FILES-NEXT: heapprof.dumps.c.tmp.[[PID]].profraw
// FILES-NEXT: heapprof.dumps.c.tmp.[[PID]].txt

// Density of one 100-byte object with 25 accesses: 25; 50 bytes, 1: 2.
// DUMP1: site keep<main alloc_count=1 size=100/100/100 access=25/25/25 density=25/25/25
// DUMP1-NEXT: site temp<main alloc_count=1 size=50/50/50 access=1/1/1 density=2/2/2
// DUMP1-NEXT: compared 2 sites with the text profile: all equal

// keep is a continuation: no allocation, no size, its 5 new accesses.
// DUMP2: site keep<main alloc_count=0 size=0/{{[0-9]+}}/{{[0-9]+}} access=5/5/5
// DUMP2-NEXT: compared 1 sites with the text profile: all equal

// EXIT: site keep<main alloc_count=0 size=0/{{[0-9]+}}/{{[0-9]+}} access=2/2/2
// EXIT-NEXT: site late<main alloc_count=1 size=32/32/32 access=1/1/1 density=3/3/3
// EXIT-NEXT: compared 2 sites with the text profile: all equal

// Added up: one keep object with 25 + 5 + 2 accesses.
// SUM: site keep<main alloc_count=1 size=100/100/100 access=32/25/25
// SUM-NEXT: site late<main alloc_count=1 size=32/32/32 access=1/1/1
// SUM-NEXT: site temp<main alloc_count=1 size=50/50/50 access=1/1/1
// SUM: compared 5 sites with the text profile: all equal

// INDEXED: ff 6c 70 72 6f 66 69 81
