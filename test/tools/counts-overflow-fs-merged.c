// Report's loader bounded each false-sharing pair's counts (section 6) at
// 2^63 - 1, but after symbolization mergeSameStacks adds up the pairs of
// contexts whose frames read the same, and that sum was bounded by nothing:
// two pairs of 2^62 passive lines each became one of 2^63, which the JSON
// report wrote as -9223372036854775808 (found by model_fuzzer).  Now the
// loader adds up every pair's counts, over all pairs, checked like the
// section's totals: above 2^63 - 1 is one error naming the file, and a
// merged pair, a part of that sum, fits.
// The program: main allocates two 16-byte objects from two calls that one
// macro expands on one line (two contexts, one source line and column: one
// context after symbolization), then a thread three more from one call, so
// the simulated packed layout puts main's two and two of the thread's on
// one line: pairs (main's first, thread) and (main's second, thread).
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: %clang_heapprof -O0 -g %s -o %t -pthread
// RUN: %env_heapprof_opts=profile_dir=%t.dir:false_sharing=1 %run %t
// RUN: heapprof show %t.dir/*.profraw | FileCheck %s --check-prefix=ROWS
// ROWS: false sharing: {{.*}} pairs=2 layout=simulated
// ROWS-NEXT: contexts [[A:[0-9]+]] and [[T:[0-9]+]]: 1 passive lines
// ROWS-NEXT: contexts {{[0-9]+}} and [[T]]: 1 passive lines
// After symbolization one pair of 1 + 1 = 2 lines.
// RUN: heapprof report --format json %t.dir | %python -c "import json,sys; print('pairs', [p['passive_lines'] for p in json.load(sys.stdin)['false_sharing']['pairs']])" | FileCheck %s --check-prefix=MERGED
// MERGED: pairs [2]
//
// The rows' passive lines (payload words 12 and 17: ten words of totals,
// then each row of five words starts with two stack ids) set to 2^62 - 1
// and 2^62: the merged pair holds 2^63 - 1, the largest count there may be.
// RUN: rm -rf %t.fits && cp -r %t.dir %t.fits
// RUN: sh -c 'set -- %t.fits/*.profraw && %python %S/Inputs/set-ext-word.py $1 section 6 12 4611686018427387903 && %python %S/Inputs/set-ext-word.py $1 section 6 17 4611686018427387904'
// RUN: heapprof report --format json %t.fits | %python -c "import json,sys; print('pairs', [p['passive_lines'] for p in json.load(sys.stdin)['false_sharing']['pairs']])" | FileCheck %s --check-prefix=FITS
// FITS: pairs [9223372036854775807]
//
// 2^62 in both: 2^63, one too many, refused whether the pairs merge or not.
// RUN: rm -rf %t.over && cp -r %t.dir %t.over
// RUN: sh -c 'set -- %t.over/*.profraw && %python %S/Inputs/set-ext-word.py $1 section 6 12 4611686018427387904 && %python %S/Inputs/set-ext-word.py $1 section 6 17 4611686018427387904'
// RUN: not heapprof report --format json %t.over 2>&1 | FileCheck %s --check-prefix=OVER
// OVER: heapprof: error: {{.*}}.profraw: corrupt: dump 0: its false-sharing section's (tag 6) counts, with those read before it, add up to more than 2^63 - 1
// OVER-NOT: {{.}}
// RUN: rm -rf %t.html && not heapprof html -o %t.html %t.over
// RUN: not ls %t.html
#include <pthread.h>
#include <stdlib.h>

void *volatile keep[8];
__attribute__((noinline)) static void *a(void) { return malloc(16); }
#define TWO(i) (keep[i] = a(), keep[i + 1] = a())

static void *run(void *arg) {
  for (int i = 0; i < 3; i++)
    keep[2 + i] = a();
  return arg;
}

int main(void) {
  pthread_t t;
  TWO(0);
  pthread_create(&t, 0, run, 0);
  pthread_join(t, 0);
  return 0;
}
