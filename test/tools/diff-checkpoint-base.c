// heapprof diff from a later checkpoint: BASE is checkpoint 2's file alone
// and NEW the directory, which also holds checkpoint 1.  NEW is read from
// BASE's first checkpoint on, so the change is what came after checkpoint
// 2 only, the same as with BASE given from the start (--base twice).
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: %clang_heapprof -O0 -g %s -o %t
// RUN: %env_heapprof_opts=profile_dir=%t.dir %run %t
// RUN: ls %t.dir | count 3
// RUN: heapprof diff %t.dir/heapprof.*.2.profraw %t.dir | FileCheck %s
// RUN: heapprof diff --format json --top 0 %t.dir/heapprof.*.2.profraw %t.dir > %t.alone.json
// RUN: heapprof diff --format json --top 0 --base %t.dir/heapprof.*.1.profraw --base %t.dir/heapprof.*.2.profraw %t.dir > %t.both.json
// RUN: %python %S/Inputs/check-diff-checkpoint.py %t.alone.json 1000 1500
// RUN: %python %S/Inputs/check-diff-checkpoint.py %t.both.json 2000 1500
// Checkpoint 1 to 2 is still phase 2: 1000 allocations, 500 more live.
// RUN: heapprof diff %t.dir/heapprof.*.1.profraw %t.dir/heapprof.*.2.profraw | FileCheck %s --check-prefix=ONE
// Given the other way round, NEW (checkpoint 1) ends before BASE
// (checkpoint 2): read from BASE's first checkpoint on, NEW was BASE
// itself, and the diff said "(no change)" of two checkpoints 1000
// allocations and 500 live objects apart.  An error says which comes
// first, for two files as for two selections of the directory.
// RUN: not heapprof diff %t.dir/heapprof.*.2.profraw %t.dir/heapprof.*.1.profraw 2>&1 | FileCheck %s --check-prefix=REVERSED
// RUN: not heapprof diff %t.dir@2 %t.dir@1 2>&1 | FileCheck %s --check-prefix=REVERSED
// REVERSED: heapprof: error: NEW ends before BASE: of process {{[0-9]+}}, NEW's last dump is checkpoint 1 and BASE's checkpoint 2, so nothing in NEW comes after BASE (give the earlier checkpoint as BASE)
// The same checkpoint on both sides is no change, and the whole run as
// BASE (its exit dump read) is a run of its own, compared from the start:
// RUN: heapprof diff %t.dir@2 %t.dir/heapprof.*.2.profraw | FileCheck %s --check-prefix=SAME
// SAME: allocations 2000 2000 0
// SAME: changed contexts: 0 new, 0 gone, 0 grew, 0 shrank, 0 changed otherwise; 2 unchanged
// RUN: heapprof diff %t.dir %t.dir@1 | FileCheck %s --check-prefix=BACK
// BACK: allocations 2010 1000 -1010
#include <heapprof/heapprof_interface.h>
#include <stdlib.h>

static void *volatile keep[2010];

__attribute__((noinline)) static void *alloc_a(void) { return malloc(48); }
__attribute__((noinline)) static void *alloc_b(void) { return malloc(1000); }

int main(void) {
  for (int i = 0; i < 1000; i++) // phase 1: 1000 a's
    keep[i] = alloc_a();
  __heapprof_dump();
  for (int i = 1000; i < 2000; i++) // phase 2: 1000 more, 500 freed
    keep[i] = alloc_a();
  for (int i = 0; i < 500; i++)
    free(keep[i]);
  __heapprof_dump();
  for (int i = 2000; i < 2010; i++) // phase 3: 10 b's
    keep[i] = alloc_b();
  return 0;
}

// After checkpoint 2: 10 allocations of 1000 bytes, all live; checkpoint
// 2's file counts phase 2's 1000 allocations (48000 bytes) and 1500 live
// objects (72000 bytes).  Checkpoint 1's 1000 a's are not counted again.
// CHECK: == Summary (NEW minus BASE)
// CHECK: allocations 1000 1010 +10
// CHECK-NEXT: bytes 46.9 KiB 56.6 KiB +9.8 KiB
// CHECK-NEXT: live objects 1500 1510 +10
// CHECK-NEXT: live bytes 70.3 KiB 80.1 KiB +9.8 KiB
// CHECK: changed contexts: 1 new, 0 gone, 0 grew, 0 shrank, 0 changed otherwise; 2 unchanged
// CHECK-NEXT: (NEW shares a process with BASE: NEW counts from BASE's first dump of it, BASE's dumps included)
// CHECK: #1  new  bytes +9.8 KiB (0 B -> 9.8 KiB), allocs +10, live +9.8 KiB in +10 objects
// CHECK-NEXT: alloc_b
// CHECK-NOT: #2

// ONE: allocations 1000 2000 +1000
// ONE: live objects 1000 1500 +500
