// An input `-` is the standard input, for every command that reads
// profiles: it failed with "-: cannot open: No such file or directory".
// The program: 100 objects of 204 bytes (20,400 B) from a, kept, and 10 of
// 50 (500 B) from b, freed: 110 objects, 20,900 bytes.
// RUN: rm -rf %t.dir %t.out && mkdir -p %t.dir %t.out
// RUN: %clang_heapprof -O0 -g %s -o %t
// RUN: %env_heapprof_opts=profile_dir=%t.dir %run %t
// RUN: cp %t.dir/heapprof.*.profraw %t.p
//
// A file redirected to stdin, and a pipe (read once, kept for the second
// read as /dev/stdin's bytes are).
// RUN: heapprof report - < %t.p | FileCheck %s --check-prefix=REPORT
// RUN: cat %t.p | heapprof report - | FileCheck %s --check-prefix=REPORT
// REPORT: allocations 110 objects, 20900 bytes
// RUN: cat %t.p | heapprof report --format json - | %python -c "import json,sys; s=json.load(sys.stdin)['summary']; print('bytes', s['bytes'])" | FileCheck %s --check-prefix=JSON
// JSON: bytes 20900
// RUN: cat %t.p | heapprof flamegraph - | FileCheck %s --check-prefix=FLAME
// FLAME: ;a 20400
// RUN: cat %t.p | heapprof pprof -o %t.out/p.pb.gz -
// RUN: cat %t.p | heapprof html -o %t.out/h.html -
// RUN: cat %t.p | heapprof show - | FileCheck %s --check-prefix=SHOW
// SHOW: AllocCount=100
// Given twice, the same profile twice, counted once, as a file given
// twice is.
// RUN: cat %t.p | heapprof report - - | FileCheck %s --check-prefix=REPORT
// A diff of the file with itself through stdin: nothing changed.
// RUN: cat %t.p | heapprof diff %t.p - | FileCheck %s --check-prefix=DIFF
// DIFF: allocations 110 110 0
// merge: the standard input merged alone is the profile again.
// RUN: cat %t.p | heapprof merge -o %t.out/m.profraw -
// RUN: heapprof report %t.out/m.profraw | FileCheck %s --check-prefix=REPORT
//
// What is not a profile on stdin: one error naming `-`, exit 1.
// RUN: not heapprof report - < /dev/null 2>&1 | FileCheck %s --check-prefix=EMPTY
// EMPTY: heapprof: error: -: empty file: not a raw profile
// EMPTY-NOT: {{.}}
// An output that is the file stdin was opened on is refused, as an output
// that is one of the inputs is, before any work.
// RUN: not heapprof merge -o %t.p - < %t.p 2>&1 | FileCheck %s --check-prefix=SAME -DF=%t.p
// SAME: heapprof: error: [[F]]: is the input -: writing it would replace that profile
// RUN: heapprof report %t.p | FileCheck %s --check-prefix=REPORT
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
