// heapprof diff --by: rank the contexts by another measure than requested
// bytes, here live bytes between two checkpoints (a load test's leak).
// Before checkpoint 1, keep_c keeps 100 objects of 300 bytes.  Between
// checkpoints 1 and 2:
//   churn_a  allocates and frees 1000 x 1000 B: bytes +1,000,000, live 0
//   keep_b   keeps 50 x 200 B:                  bytes +10,000, live +10,000
//   keep_c   keeps 10 more x 300 B and frees 60 of its first 100:
//            bytes +3000, allocs +10, live -15,000 (110 - 60 = 50 objects
//            of 300 B = 15,000 B, from 30,000) in -50 objects
// By bytes churn_a is first; by live keep_b is first, churn_a (0) second,
// keep_c last; by shrink of live keep_c first; by change of live keep_c
// (15,000) before keep_b (10,000).  keep_c grew by bytes but shrank by live.
// The same from a directory of one file per checkpoint and from one file
// of append_dumps=1 read at FILE@1 and FILE@2.
// RUN: rm -rf %t.many %t.one %t.base && mkdir -p %t.many %t.one %t.base
// RUN: %clang_heapprof -O0 -g %s -o %t
// RUN: %env_heapprof_opts=profile_dir=%t.many %run %t
// RUN: mv %t.many/heapprof.*.1.profraw %t.base/
// RUN: %env_heapprof_opts=profile_dir=%t.one:append_dumps=1 %run %t
// RUN: cp %t.one/heapprof.*.profraw %t.app.profraw
//
// The default is today's: by growth of bytes.
// RUN: heapprof diff %t.base %t.many > %t.default.txt
// RUN: heapprof diff --by bytes %t.base %t.many > %t.bytes.txt
// RUN: cmp %t.default.txt %t.bytes.txt
// RUN: FileCheck %s --check-prefix=BYTES < %t.default.txt
// RUN: heapprof diff %t.app.profraw@1 %t.app.profraw@2 | FileCheck %s --check-prefix=BYTES
// BYTES: changed contexts: 2 new, 0 gone, 1 grew, 0 shrank, 0 changed otherwise; 0 unchanged
// BYTES: == Contexts by growth of bytes
// BYTES-NEXT: #1  new  bytes +976.6 KiB (0 B -> 976.6 KiB), allocs +1000, live 0 B in 0 objects
// BYTES-NEXT: churn_a
// BYTES: #2  new  bytes +9.8 KiB (0 B -> 9.8 KiB), allocs +50, live +9.8 KiB in +50 objects
// BYTES-NEXT: keep_b
// BYTES: #3  grew  bytes +3000 B (29.3 KiB -> 32.2 KiB), allocs +10, live -14.6 KiB in -50 objects
// BYTES-NEXT: keep_c
//
// By live bytes: the leak first; keep_c, which grew by bytes, shrank.
// RUN: heapprof diff --by live %t.base %t.many | FileCheck %s --check-prefix=LIVE
// RUN: heapprof diff --by live %t.app.profraw@1 %t.app.profraw@2 | FileCheck %s --check-prefix=LIVE
// LIVE: changed contexts: 2 new, 0 gone, 0 grew, 1 shrank, 0 changed otherwise; 0 unchanged
// LIVE: == Contexts by growth of live bytes
// LIVE-NEXT: #1  new  bytes +9.8 KiB (0 B -> 9.8 KiB), allocs +50, live +9.8 KiB in +50 objects
// LIVE-NEXT: keep_b
// LIVE: #2  new  bytes +976.6 KiB (0 B -> 976.6 KiB), allocs +1000, live 0 B in 0 objects
// LIVE-NEXT: churn_a
// LIVE: #3  shrank  bytes +3000 B (29.3 KiB -> 32.2 KiB), allocs +10, live -14.6 KiB in -50 objects
// LIVE-NEXT: keep_c
// LIVE-NOT: more changed
//
// --top cuts keep_c off: in the default order the cut shrink of live
// bytes is pointed at, and no shrink of bytes is when ranking by bytes.
// RUN: heapprof diff --by live --top 1 %t.base %t.many | FileCheck %s --check-prefix=TOPLIVE
// TOPLIVE: #1  new
// TOPLIVE-NEXT: keep_b
// TOPLIVE-NEXT: {{^ +main }}
// TOPLIVE-NEXT: (2 more changed contexts; --top 0 shows all, --sort shrink the biggest shrinks first)
// RUN: heapprof diff --top 1 %t.base %t.many | FileCheck %s --check-prefix=TOPBYTES
// TOPBYTES: #1  new
// TOPBYTES-NEXT: churn_a
// TOPBYTES-NEXT: {{^ +main }}
// TOPBYTES-NEXT: (2 more changed contexts; --top 0 shows all){{$}}
//
// RUN: heapprof diff --by live --sort shrink %t.base %t.many | FileCheck %s --check-prefix=SHRINK
// RUN: heapprof diff --by live --sort shrink %t.app.profraw@1 %t.app.profraw@2 | FileCheck %s --check-prefix=SHRINK
// SHRINK: == Contexts by shrink of live bytes
// SHRINK-NEXT: #1  shrank  bytes +3000 B {{.*}} live -14.6 KiB in -50 objects
// SHRINK-NEXT: keep_c
// SHRINK: #2  new  bytes +976.6 KiB
// SHRINK-NEXT: churn_a
// SHRINK: #3  new  bytes +9.8 KiB
// SHRINK-NEXT: keep_b
//
// RUN: heapprof diff --by live --sort change --top 2 %t.base %t.many | FileCheck %s --check-prefix=CHANGE
// RUN: heapprof diff --by live --sort change --top 2 %t.app.profraw@1 %t.app.profraw@2 | FileCheck %s --check-prefix=CHANGE
// CHANGE: == Contexts by change of live bytes, either way
// CHANGE-NEXT: #1  shrank  {{.*}} live -14.6 KiB in -50 objects
// CHANGE-NEXT: keep_c
// CHANGE: #2  new  {{.*}} live +9.8 KiB in +50 objects
// CHANGE-NEXT: keep_b
// CHANGE-NEXT: {{^ +main }}
// CHANGE-NEXT: (1 more changed context; --top 0 shows all)
//
// By allocations: churn_a's 1000, keep_b's 50, keep_c's 10.
// RUN: heapprof diff --by allocs %t.base %t.many | FileCheck %s --check-prefix=ALLOCS
// ALLOCS: == Contexts by growth of allocations
// ALLOCS-NEXT: #1  new  {{.*}} allocs +1000,
// ALLOCS: #2  new  {{.*}} allocs +50,
// ALLOCS: #3  grew  {{.*}} allocs +10,
//
// The JSON says the measure (its key in the rows) and has the same order
// and statuses.
// RUN: heapprof diff --by live --format json %t.app.profraw@1 %t.app.profraw@2 > %t.json
// RUN: %python -c "import json,sys; d=json.load(open(sys.argv[1])); o=d['options']; print(o['sort'], o['by'], [(c['status'], c['stack'][0]['function'], c[o['by']]['delta'], c['bytes']['delta']) for c in d['contexts']])" %t.json | FileCheck %s --check-prefix=JSON
// JSON: growth live_bytes [('new', 'keep_b', 10000, 10000), ('new', 'churn_a', 0, 1000000), ('shrank', 'keep_c', -15000, 3000)]
// RUN: heapprof diff --format json %t.base %t.many > %t.bytes.json
// RUN: %python -c "import json,sys; d=json.load(open(sys.argv[1])); print(d['options']['by'], [c['stack'][0]['function'] for c in d['contexts']])" %t.bytes.json | FileCheck %s --check-prefix=JSONBYTES
// JSONBYTES: bytes ['churn_a', 'keep_b', 'keep_c']
//
// RUN: not heapprof diff --by size %t.base %t.many 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: heapprof: error: --by: unknown measure 'size' (bytes, live, allocs, accesses or temporary)
#include <heapprof/heapprof_interface.h>
#include <stdlib.h>

static char *volatile b[50], *volatile c[110];

__attribute__((noinline)) static void churn_a(void) {
  for (int i = 0; i < 1000; i++) {
    char *volatile p = malloc(1000);
    free(p);
  }
}
__attribute__((noinline)) static char *keep_b(void) { return malloc(200); }
__attribute__((noinline)) static char *keep_c(void) { return malloc(300); }

static void make_c(int from, int to) {
  for (int i = from; i < to; i++)
    c[i] = keep_c();
}

// keep_c's objects are made on one line in both phases, so they are one
// context.
int main(void) {
  for (int phase = 0; phase < 2; phase++) {
    if (phase) {
      churn_a();
      for (int i = 0; i < 50; i++)
        b[i] = keep_b();
    }
    make_c(phase ? 100 : 0, phase ? 110 : 100);
    if (phase)
      for (int i = 0; i < 60; i++)
        free(c[i]);
    __heapprof_dump();
  }
  return 0;
}
