// Counts that add up to more than 2^63 - 1 (the most JSON's and pprof's
// int64 carry) are a corrupt profile's: summed as they were, they wrapped
// and the totals and percentages were wrong without a word (TotalSize
// 2^64 - 1 beside 500 bytes: "allocations 110 objects, 499 bytes"), and
// JSON showed 2^63 and more as negative numbers.  Now one error naming
// the file, status 1, for every command that reads profiles for people.
// The program: 100 objects of 204 bytes (20,400 B) from a, 10 of 50
// (500 B) from b.  The first MIB (a's) gets another TotalSize.
// RUN: rm -rf %t.dir %t.out && mkdir -p %t.dir %t.out
// RUN: %clang_heapprof -O0 -g %s -o %t
// RUN: %env_heapprof_opts=profile_dir=%t.dir %run %t
// RUN: cp %t.dir/heapprof.*.profraw %t.in
//
// 2^63 - 501 + 500 = 2^63 - 1: the largest total there may be, still read.
// RUN: cp %t.in %t.fits && %python %S/Inputs/set-mib-size.py %t.fits 9223372036854775307
// RUN: heapprof report --format json %t.fits | %python -c "import json,sys; print('bytes', json.load(sys.stdin)['summary']['bytes'])" | FileCheck %s --check-prefix=FITS
// FITS: bytes 9223372036854775807
//
// 2^63 - 500 + 500 = 2^63: one too many, in one dump of one process.
// RUN: cp %t.in %t.over && %python %S/Inputs/set-mib-size.py %t.over 9223372036854775308
// RUN: not heapprof report %t.over 2>&1 | FileCheck %s --check-prefix=DUMP -DF=%t.over
// RUN: not heapprof report -o %t.out/r.txt %t.over 2>&1 | FileCheck %s --check-prefix=DUMP -DF=%t.over
// RUN: not heapprof pprof -o %t.out/p.pb.gz %t.over 2>&1 | FileCheck %s --check-prefix=DUMP -DF=%t.over
// RUN: not heapprof html -o %t.out/h.html %t.over 2>&1 | FileCheck %s --check-prefix=DUMP -DF=%t.over
// RUN: not heapprof flamegraph %t.over 2>&1 | FileCheck %s --check-prefix=DUMP -DF=%t.over
// RUN: not heapprof diff %t.in %t.over 2>&1 | FileCheck %s --check-prefix=DUMP -DF=%t.over
// DUMP: heapprof: error: [[F]]: corrupt: dump 0: its counts, with those read before it, add up to more than 2^63 - 1
// DUMP-NOT: {{.}}
// RUN: ls %t.out | count 0
//
// Two processes, each file's counts fitting: a's first run's 2^62 bytes
// (its TotalSize set) and 20,400, b's 500 and the second run's 2^62; the
// contexts' sum, 2^63 + 20,900, does not fit.
// RUN: rm -rf %t.two && mkdir %t.two && %env_heapprof_opts=profile_dir=%t.two %run %t && %env_heapprof_opts=profile_dir=%t.two %run %t
// RUN: sh -c 'set -- %t.two/*.profraw && %python %S/Inputs/set-mib-size.py $1 4611686018427387904 100 && %python %S/Inputs/set-mib-size.py $2 4611686018427387904 10'
// RUN: sh -c 'set -- %t.two/*.profraw && heapprof report $1' | FileCheck %s --check-prefix=ONE
// ONE: allocations 110 objects, 4611686018427388404 bytes
// RUN: not heapprof report %t.two 2>&1 | FileCheck %s --check-prefix=TOTAL
// TOTAL: heapprof: error: the 2 inputs: corrupt: the contexts' counts add up to more than 2^63 - 1
// TOTAL-NOT: {{.}}
//
// heapprof merge: the two runs above merge (a: 2^62 + 20,400, b: 500 +
// 2^62), and their merged profile, one dump of one process whose bytes
// are 2^63 + 20,900, is refused.
// RUN: rm -rf %t.m && mkdir %t.m && heapprof merge -o %t.m/two.merged %t.two
// RUN: not heapprof report %t.m/two.merged 2>&1 | FileCheck %s --check-prefix=MERGED -DF=%t.m/two.merged
// MERGED: heapprof: error: [[F]]: corrupt: dump 0: its counts, with those read before it, add up to more than 2^63 - 1
// With a's 2^62 in both runs, a's sum, 2^63 + 40,800, does not fit: merge
// wrote it wrapped (modulo 2^64) without a word; now the error, no output.
// RUN: rm -rf %t.same && mkdir %t.same && %env_heapprof_opts=profile_dir=%t.same %run %t && %env_heapprof_opts=profile_dir=%t.same %run %t
// RUN: sh -c 'for f in %t.same/*.profraw; do %python %S/Inputs/set-mib-size.py $f 4611686018427387904 100; done'
// RUN: not heapprof merge -o %t.m/same.merged %t.same 2>&1 | FileCheck %s --check-prefix=MERGE
// MERGE: heapprof: error: {{.*}}.profraw: corrupt: the dump at offset 0x0: its counts, with those read before it, add up to more than 2^63 - 1
// MERGE-NOT: {{.}}
// RUN: ls %t.m | FileCheck %s --check-prefix=ONLY
// ONLY: two.merged
// ONLY-NOT: {{.}}
#include <stdlib.h>

void *volatile keep[100];
__attribute__((noinline)) static void *a(void) { return malloc(204); }
__attribute__((noinline)) static void *b(void) { return malloc(50); }

int main(void) {
  for (int i = 0; i < 100; i++)
    keep[i] = a();
  for (int i = 0; i < 10; i++)
    free(b());
  return 0;
}
