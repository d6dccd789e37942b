// heapprof report adds up the checkpoints of a process: a run that takes a
// checkpoint in the middle reports exactly what the same run without it
// reports (each object counted once, live state from the last dump), and a
// dump given twice is counted once.
// RUN: rm -rf %t.exit %t.ckpt %t.append && mkdir -p %t.exit %t.ckpt %t.append
// RUN: %clang_heapprof -O0 -g %s -o %t
// RUN: %env_heapprof_opts=profile_dir=%t.exit %run %t
// RUN: env CHECKPOINT=1 HEAPPROF_OPTIONS=profile_dir=%t.ckpt %run %t
// RUN: env CHECKPOINT=1 HEAPPROF_OPTIONS=profile_dir=%t.append:append_dumps=1 %run %t
// RUN: ls %t.ckpt | count 2
// RUN: heapprof report --format json --top 0 %t.exit > %t.exit.json
// RUN: heapprof report --format json --top 0 %t.ckpt > %t.ckpt.json
// RUN: heapprof report --format json --top 0 %t.append > %t.append.json
// RUN: heapprof report --format json --top 0 %t.ckpt %t.ckpt/heapprof.*.1.profraw %t.append > %t.twice.json
// RUN: %python %S/Inputs/compare-reports.py %t.exit.json %t.ckpt.json
// RUN: %python %S/Inputs/compare-reports.py %t.exit.json %t.append.json
// RUN: heapprof report %t.ckpt | FileCheck %s
// heapprof merge's one-dump profile of the checkpoint run reports the same.
// RUN: heapprof merge -o %t.merged.profraw %t.ckpt
// RUN: heapprof report --format json --top 0 %t.merged.profraw > %t.merged.json
// RUN: %python %S/Inputs/compare-reports.py %t.exit.json %t.merged.json
// Two processes of one program add up, context by context.
// RUN: heapprof report --top 0 %t.exit %t.ckpt | FileCheck %s --check-prefix=TWO
// Given the checkpoint run, its checkpoint file once more and the
// append_dumps run (another process): two processes of 2 dumps each, and
// the repeated file's dump counted once.
// RUN: %python -c "import json,sys; r=json.load(open(sys.argv[1])); p=r['summary']['processes']; assert sorted((x['dumps'], x['duplicate_dumps']) for x in p) == [(2, 0), (2, 1)], p" %t.twice.json
#include <heapprof/heapprof_interface.h>
#include <stdlib.h>

enum { NA = 300, NB = 10, NC = 50 };
static char *volatile a[NA], *volatile b[NB], *volatile c[NC];

__attribute__((noinline)) static char *alloc_a(void) { return malloc(48); }
__attribute__((noinline)) static char *alloc_b(void) { return malloc(2000); }
__attribute__((noinline)) static char *alloc_c(void) { return malloc(16); }

int main(void) {
  for (int i = 0; i < NA; i++)
    a[i] = alloc_a();
  for (int i = 0; i < 100; i++)
    free(a[i]);
  for (int i = 0; i < NB; i++) {
    b[i] = alloc_b();
    b[i][0] = 1; // one access before the checkpoint
  }
  if (getenv("CHECKPOINT"))
    __heapprof_dump();
  for (int i = 100; i < NA; i++)
    free(a[i]);
  for (int i = 0; i < NC; i++)
    c[i] = alloc_c();
  for (int i = 0; i < NB; i++)
    b[i][8] = 2; // and one after: 2 per object in total
  return 0;
}

// 300*48 + 10*2000 + 50*16 = 35200 bytes; live at exit: the b's and c's.
// CHECK: == Summary
// CHECK-NEXT: allocations 360 objects, 35200 bytes (34.4 KiB)
// CHECK-NEXT: frees 300 objects
// CHECK-NEXT: live at the end 60 objects, 20800 bytes (20.3 KiB)
// CHECK-NEXT: accesses 20
// CHECK: process {{.*}}report-checkpoint.c.tmp pid {{[0-9]+}}, 2 dumps

// TWO: == Summary
// TWO-NEXT: allocations 720 objects, 70400 bytes (68.8 KiB)
// TWO-NEXT: frees 600 objects
// TWO-NEXT: live at the end 120 objects, 41600 bytes (40.6 KiB)
// TWO-NEXT: accesses 40
// No object is freed before its thread's next allocation: every free
// comes after a later allocation (a[299], then b[9]).
// TWO-NEXT: temporary 0 objects (0.0% of the allocations): freed before their thread allocated again
// TWO-NEXT: contexts 3
// TWO: == Top contexts by bytes
// TWO-NEXT: #1 {{.*}} 39.1 KiB in 20 objects (2000 B each), 20 live (39.1 KiB), 40 accesses
// TWO-NEXT: alloc_b
