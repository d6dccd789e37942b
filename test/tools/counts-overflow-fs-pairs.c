// heapprof merge and report add the false-sharing rows (section 6) of the
// same two contexts from different processes; that sum wrapped modulo 2^64
// too.
// Each process's row fitting (at most 2^63 - 1), their sum above it is
// one error, and nothing is written.  (counts-overflow-sections.test: one
// process's totals.)
// The program: main allocates two 16-byte objects, a thread three, main two
// more, from one function, so the simulated packed layout puts objects of
// both threads on one line: rows for main's contexts with the thread's.
// RUN: rm -rf %t.dir %t.out && mkdir -p %t.dir %t.out
// RUN: %clang_heapprof -O0 -g %s -o %t -pthread
// RUN: %env_heapprof_opts=profile_dir=%t.dir:false_sharing=1 %run %t && %env_heapprof_opts=profile_dir=%t.dir:false_sharing=1 %run %t
// RUN: sh -c 'set -- %t.dir/*.profraw && heapprof show $1' | FileCheck %s --check-prefix=ROWS
// ROWS: false sharing: {{.*}} pairs={{[1-9][0-9]*}} layout=simulated
//
// The first row's passive lines (payload word 12: ten words of totals,
// then the row's two stack ids) set to 2^62 - 1 in one run, 2^62 in the
// other: the merged row holds 2^63 - 1, the largest count there may be.
// RUN: rm -rf %t.fits && cp -r %t.dir %t.fits
// RUN: sh -c 'set -- %t.fits/*.profraw && %python %S/Inputs/set-ext-word.py $1 section 6 12 4611686018427387903 && %python %S/Inputs/set-ext-word.py $2 section 6 12 4611686018427387904'
// RUN: heapprof merge -o %t.fits.merged %t.fits
// RUN: heapprof show %t.fits.merged | FileCheck %s --check-prefix=FITS
// FITS: contexts {{[0-9]+}} and {{[0-9]+}}: 9223372036854775807 passive lines
//
// 2^62 in both: 2^63, one too many.
// RUN: rm -rf %t.over && cp -r %t.dir %t.over
// RUN: sh -c 'for f in %t.over/*.profraw; do %python %S/Inputs/set-ext-word.py $f section 6 12 4611686018427387904; done'
// RUN: not heapprof merge -o %t.out/over.merged %t.over 2>&1 | FileCheck %s --check-prefix=OVER
// OVER: heapprof: error: the inputs: corrupt: the false-sharing sections' (tag 6) pairs' counts add up to more than 2^63 - 1
// OVER-NOT: {{.}}
// Report's loader adds the two processes' rows of one pair likewise.
// RUN: not heapprof report %t.over 2>&1 | FileCheck %s --check-prefix=OVER-REPORT
// OVER-REPORT: heapprof: error: {{.*}}.profraw: corrupt: dump 0: its false-sharing section's (tag 6) counts, with those read before it, add up to more than 2^63 - 1
// OVER-REPORT-NOT: {{.}}
// RUN: ls %t.out | count 0
#include <pthread.h>
#include <stdlib.h>

void *volatile keep[8];
__attribute__((noinline)) static void *a(void) { return malloc(16); }

static void *run(void *arg) {
  for (int i = 0; i < 3; i++)
    keep[2 + i] = a();
  return arg;
}

int main(void) {
  pthread_t t;
  for (int i = 0; i < 2; i++)
    keep[i] = a();
  pthread_create(&t, 0, run, 0);
  pthread_join(t, 0);
  for (int i = 5; i < 7; i++)
    keep[i] = a();
  return 0;
}
