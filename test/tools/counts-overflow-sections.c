// The sums counts-overflow.c does not cover: the extension's summed fields,
// the size bins, the cost sections (2-4) and the false-sharing section (6).
// heapprof merge (and report's loader for the bins and cost sections) added
// them modulo 2^64: two corrupt values of 2^62 each summed to 2^63, which
// JSON's and pprof's int64 cannot carry, and larger ones wrapped to small
// numbers without a word.  Now, like the MIB's counts, a sum above
// 2^63 - 1 is one error naming the file, and no output is written (for
// the cost sections, a sum above 2^64 - 1: see below).
// The program: 100 objects of 204 bytes from a (kept), 10 of 50 from b
// (freed); each input below is two runs, the same word set in both.
// RUN: rm -rf %t.out && mkdir -p %t.out
// RUN: %clang_heapprof -O0 -g %s -o %t
// RUN: rm -rf %t.base && mkdir %t.base && %env_heapprof_opts=profile_dir=%t.base:false_sharing=1 %run %t && %env_heapprof_opts=profile_dir=%t.base:false_sharing=1 %run %t
// RUN: rm -rf %t.m && mkdir %t.m
//
// Extension field 0 (granules) of a's record: 2^62 - 1 and 2^62 add up
// to 2^63 - 1, the largest sum there may be: merged.
// RUN: rm -rf %t.fits && cp -r %t.base %t.fits
// RUN: sh -c 'set -- %t.fits/*.profraw && %python %S/Inputs/set-ext-word.py $1 field 0 100 4611686018427387903 && %python %S/Inputs/set-ext-word.py $2 field 0 100 4611686018427387904'
// RUN: heapprof merge -o %t.m/fits.merged %t.fits
// 2^62 and 2^62: 2^63, one too many.
// RUN: rm -rf %t.ext && cp -r %t.base %t.ext
// RUN: sh -c 'for f in %t.ext/*.profraw; do %python %S/Inputs/set-ext-word.py $f field 0 100 4611686018427387904; done'
// RUN: not heapprof merge -o %t.out/ext.merged %t.ext 2>&1 | FileCheck %s --check-prefix=EXT
// EXT: heapprof: error: {{.*}}.profraw: corrupt: the dump at offset 0x0: its counts, with those read before it, add up to more than 2^63 - 1
// EXT-NOT: {{.}}
//
// The size bin of 204 bytes: its bytes (100 x 204 = 20,400 in each run)
// set to 2^62 in both runs.
// RUN: rm -rf %t.bin && cp -r %t.base %t.bin
// RUN: sh -c 'for f in %t.bin/*.profraw; do %python %S/Inputs/set-ext-word.py $f bin 204 2 4611686018427387904; done'
// RUN: not heapprof merge -o %t.out/bin.merged %t.bin 2>&1 | FileCheck %s --check-prefix=BIN-MERGE
// BIN-MERGE: heapprof: error: {{.*}}.profraw: corrupt: the dump at offset 0x0: its size bins' counts, with those read before it, add up to more than 2^63 - 1
// BIN-MERGE-NOT: {{.}}
// RUN: not heapprof report %t.bin 2>&1 | FileCheck %s --check-prefix=BIN-REPORT
// BIN-REPORT: heapprof: error: {{.*}}.profraw: corrupt: dump 0: its size bins' counts, with those read before it, add up to more than 2^63 - 1
// BIN-REPORT-NOT: {{.}}
//
// Section 2 (op classes): the first row's call count (payload word 3,
// after nbuckets, nrows and the row's class).  The cost sections' words
// are not capped at 2^63 - 1 (a real section 3 has bytes above it:
// test/heapprof/Run/allocator-jemalloc.test), but their sum wrapped past
// 2^64 - 1: 2^63 - 1 and 2^63 add up to 2^64 - 1, merged; 2^63 and 2^63,
// 2^64, refused.
// RUN: rm -rf %t.cost-fits && cp -r %t.base %t.cost-fits
// RUN: sh -c 'set -- %t.cost-fits/*.profraw && %python %S/Inputs/set-ext-word.py $1 section 2 3 9223372036854775807 && %python %S/Inputs/set-ext-word.py $2 section 2 3 9223372036854775808'
// RUN: heapprof merge -o %t.m/cost-fits.merged %t.cost-fits
// RUN: heapprof show %t.m/cost-fits.merged | FileCheck %s --check-prefix=COST-FITS
// COST-FITS: count=18446744073709551615
// RUN: rm -rf %t.cost && cp -r %t.base %t.cost
// RUN: sh -c 'for f in %t.cost/*.profraw; do %python %S/Inputs/set-ext-word.py $f section 2 3 9223372036854775808; done'
// RUN: not heapprof merge -o %t.out/cost.merged %t.cost 2>&1 | FileCheck %s --check-prefix=COST-MERGE
// COST-MERGE: heapprof: error: {{.*}}.profraw: the dump at offset 0x0: section 2: its counts, with those read before it, add up to more than 2^64 - 1
// COST-MERGE-NOT: {{.}}
// RUN: not heapprof report %t.cost 2>&1 | FileCheck %s --check-prefix=COST-REPORT
// COST-REPORT: heapprof: error: {{.*}}.profraw: corrupt: dump 0: section 2: its counts, with those read before it, add up to more than 2^64 - 1
// COST-REPORT-NOT: {{.}}
//
// Section 6 (false sharing): objects (payload word 0; 110 placed objects in
// each run) set to 2^62 in both runs.
// RUN: rm -rf %t.fs && cp -r %t.base %t.fs
// RUN: sh -c 'for f in %t.fs/*.profraw; do %python %S/Inputs/set-ext-word.py $f section 6 0 4611686018427387904; done'
// RUN: not heapprof merge -o %t.out/fs.merged %t.fs 2>&1 | FileCheck %s --check-prefix=FS
// FS: heapprof: error: {{.*}}.profraw: corrupt: the dump at offset 0x{{[0-9a-f]+}}: its false-sharing section's (tag 6) counts, with those read before it, add up to more than 2^63 - 1
// FS-NOT: {{.}}
// RUN: ls %t.out | count 0
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
