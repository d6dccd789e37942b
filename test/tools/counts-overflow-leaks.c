// The leak check's rows (section 10) of one context: heapprof merge adds
// two processes' rows of it, and report's loader adds each row's direct
// and indirect counts into the context's leaked ones; both sums wrapped
// modulo 2^64.  Now a sum above 2^63 - 1 is one error, and nothing is
// written.  (counts-overflow-last-dump.test: the section's head.)
// The program leaks one 24-byte object from make() (clobber() overwrites
// the frame that held its pointer): one row, stack id, direct_objects 1,
// direct_bytes 24, indirect 0 and 0.  Two runs, one process each.
// RUN: rm -rf %t.dir %t.out && mkdir -p %t.dir %t.out
// RUN: %clang_heapprof -O0 -g %s -o %t
// RUN: %env_heapprof_opts=profile_dir=%t.dir %run %t && %env_heapprof_opts=profile_dir=%t.dir %run %t
// RUN: sh -c 'set -- %t.dir/*.profraw && heapprof show $1' | FileCheck %s --check-prefix=ROW
// ROW: leaks: {{.*}} nrows=1
// ROW-NEXT: stack id {{[0-9]+}}: direct_objects=1 direct_bytes=24 indirect_objects=0 indirect_bytes=0
//
// The row's direct_bytes (payload word 12: ten words of head, then the
// row's stack id and direct_objects) set to 2^62 - 1 in one run, 2^62 in
// the other: 2^63 - 1, the largest count there may be, in the merged row
// and the report's.
// RUN: rm -rf %t.fits && cp -r %t.dir %t.fits
// RUN: sh -c 'set -- %t.fits/*.profraw && %python %S/Inputs/set-ext-word.py $1 section 10 12 4611686018427387903 && %python %S/Inputs/set-ext-word.py $2 section 10 12 4611686018427387904'
// RUN: heapprof merge -o %t.fits.merged %t.fits
// RUN: heapprof show %t.fits.merged | FileCheck %s --check-prefix=FITS
// FITS: stack id {{[0-9]+}}: direct_objects=2 direct_bytes=9223372036854775807 indirect_objects=0
// RUN: heapprof report --format json %t.fits | %python -c "import json,sys; print('bytes', json.load(sys.stdin)['leaks'][0]['bytes'])" | FileCheck %s --check-prefix=FITS-JSON
// FITS-JSON: bytes 9223372036854775807
//
// 2^62 in both: 2^63, one too many.
// RUN: rm -rf %t.over && cp -r %t.dir %t.over
// RUN: sh -c 'for f in %t.over/*.profraw; do %python %S/Inputs/set-ext-word.py $f section 10 12 4611686018427387904; done'
// RUN: not heapprof merge -o %t.out/over.merged %t.over 2>&1 | FileCheck %s --check-prefix=OVER
// OVER: heapprof: error: the inputs: corrupt: the leaks sections' (tag 10) rows' counts add up to more than 2^63 - 1
// OVER-NOT: {{.}}
// RUN: not heapprof report %t.over 2>&1 | FileCheck %s --check-prefix=OVER-REPORT
// OVER-REPORT: heapprof: error: {{.*}}.profraw: corrupt: dump 0: its leaks section's (tag 10) counts, with those read before it, add up to more than 2^63 - 1
// OVER-REPORT-NOT: {{.}}
//
// One run's row alone: direct_bytes (word 12) 2^64 - 2^62 and
// indirect_bytes (word 14) 2^62.  The report's loader added the two into
// the context's leaked bytes modulo 2^64: 0, and the context read 24
// leaked bytes (the other run's) without a word, its indirect bytes 2^62.
// A word above 2^63 - 1 is itself refused, by report and by merge.
// RUN: rm -rf %t.one && cp -r %t.dir %t.one
// RUN: sh -c 'set -- %t.one/*.profraw && %python %S/Inputs/set-ext-word.py $1 section 10 12 13835058055282163712 && %python %S/Inputs/set-ext-word.py $1 section 10 14 4611686018427387904'
// RUN: not heapprof report %t.one 2>&1 | FileCheck %s --check-prefix=ONE
// ONE: heapprof: error: {{.*}}.profraw: corrupt: dump 0: its leaks section's (tag 10) counts, with those read before it, add up to more than 2^63 - 1
// ONE-NOT: {{.}}
// RUN: not heapprof merge -o %t.out/one.merged %t.one 2>&1 | FileCheck %s --check-prefix=ONE-MERGE
// ONE-MERGE: heapprof: error: {{.*}}.profraw: corrupt: the dump at offset 0x0: its leaks section's (tag 10) counts, with those read before it, add up to more than 2^63 - 1
// ONE-MERGE-NOT: {{.}}
// RUN: ls %t.out | count 0
#include <stdlib.h>

__attribute__((noinline)) static void *xmalloc(size_t n) { return malloc(n); }

__attribute__((noinline)) static void make(void) {
  void *volatile p = xmalloc(24);
  (void)p;
}

// Overwrites make()'s frame, so no stale copy of the pointer is a root.
__attribute__((noinline)) static void clobber(void) {
  volatile char buf[512];
  for (int i = 0; i < 512; i++)
    buf[i] = 0;
}

int main(void) {
  make();
  clobber();
  return 0;
}
