// PROFILE@N reads a profile (a file or a directory) as of its checkpoint
// N: checkpoints 1 to N, without the exit dump.  It is how one file of
// append_dumps=1, which holds every checkpoint, is diffed between two of
// them.  The program keeps 100 objects of 64 bytes before checkpoint 1,
// 200 more before checkpoint 2 and 300 more before checkpoint 3, then
// exits: as of checkpoint 1, 100 objects (6400 B); checkpoint 2, 300;
// checkpoint 3 and at exit, 600 (38400 B).
// RUN: %clang_heapprof -O0 -g %s -o %t
// RUN: rm -rf %t.one %t.many && mkdir -p %t.one %t.many
// RUN: %env_heapprof_opts=profile_dir=%t.one:append_dumps=1 %run %t
// RUN: %env_heapprof_opts=profile_dir=%t.many %run %t
// RUN: cp %t.one/heapprof.*.profraw %t.app.profraw
// RUN: heapprof report --format json %t.app.profraw@1 | FileCheck %s --check-prefix=AT1
// AT1: "allocs": 100,
// AT1-NEXT: "bytes": 6400,
// RUN: heapprof report --format json %t.many@2 | FileCheck %s --check-prefix=AT2
// AT2: "allocs": 300,
// AT2-NEXT: "bytes": 19200,
// What grew from checkpoint 1 to checkpoint 2, and from 2 to the end, in
// the one file:
// RUN: heapprof diff %t.app.profraw@1 %t.app.profraw@2 | FileCheck %s --check-prefix=D12
// D12: allocations      100       300       +200
// D12: live objects     100       300       +200
// RUN: heapprof diff %t.app.profraw@2 %t.app.profraw | FileCheck %s --check-prefix=D2E
// D2E: allocations        300       600       +300
// merge takes the selector too:
// RUN: rm -f %t.m2.profraw && heapprof merge -o %t.m2.profraw %t.app.profraw@2
// RUN: heapprof report --format json %t.m2.profraw | FileCheck %s --check-prefix=AT2
// A checkpoint past the last one is the whole series of checkpoints:
// RUN: heapprof report --format json %t.app.profraw@9 | FileCheck %s --check-prefix=AT9
// AT9: "allocs": 600,
// Named files win over the selector, and a selector that finds no
// checkpoint is an error naming the input.  The run with "none" dumps only
// at exit: no checkpoint at all, whatever N (report and merge say the same).
// RUN: rm -rf %t.exit && mkdir -p %t.exit && %env_heapprof_opts=profile_dir=%t.exit %run %t none
// RUN: not heapprof report %t.exit@2 2>&1 | FileCheck %s --check-prefix=NONE -DIN=%t.exit@2 -DN=2
// RUN: not heapprof report %t.exit@1 2>&1 | FileCheck %s --check-prefix=NONE -DIN=%t.exit@1 -DN=1
// NONE: heapprof: error: [[IN]]: no checkpoints in this profile, only dumps at exit: @[[N]] selects none
// RUN: not heapprof merge -o %t.none.profraw %t.exit@2 2>&1 | FileCheck %s --check-prefix=NONE -DIN=%t.exit@2 -DN=2
// RUN: not ls %t.none.profraw
// A directory whose checkpoint 1 file was removed starts at checkpoint 2:
// @1 selects none, and the message says where the profile starts; with
// checkpoint 2's file removed too, @2 selects none either.
// RUN: rm -rf %t.from2 && cp -r %t.many %t.from2 && rm %t.from2/heapprof.*.1.profraw
// RUN: not heapprof report %t.from2@1 2>&1 | FileCheck %s --check-prefix=FROM2 -DIN=%t.from2@1
// RUN: not heapprof merge -o %t.from2.profraw %t.from2@1 2>&1 | FileCheck %s --check-prefix=FROM2 -DIN=%t.from2@1
// FROM2: heapprof: error: [[IN]]: no checkpoint 1 in this profile: its first is checkpoint 2
// RUN: rm %t.from2/heapprof.*.2.profraw
// RUN: not heapprof report %t.from2@2 2>&1 | FileCheck %s --check-prefix=FROM3 -DIN=%t.from2@2
// FROM3: heapprof: error: [[IN]]: no checkpoint numbered 1 to 2 in this profile: its first is checkpoint 3
// @0 (or @00) is no checkpoint: they are numbered from 1.
// RUN: not heapprof report %t.app.profraw@0 2>&1 | FileCheck %s --check-prefix=ZERO -DIN=%t.app.profraw@0
// RUN: not heapprof diff %t.many@00 %t.many 2>&1 | FileCheck %s --check-prefix=ZERO -DIN=%t.many@00
// RUN: not heapprof merge -o %t.zero.profraw %t.app.profraw@0 2>&1 | FileCheck %s --check-prefix=ZERO -DIN=%t.app.profraw@0
// RUN: not ls %t.zero.profraw
// ZERO: heapprof: error: [[IN]]: checkpoints are numbered from 1: @0 selects none
// A number past UINT64_MAX is past the last checkpoint too:
// RUN: heapprof report --format json %t.app.profraw@99999999999999999999999 | FileCheck %s --check-prefix=AT9
// (x@1 is read as the file of that name: as a selector on x, which has no
// checkpoint, it would be an error.)
// RUN: cp %t.exit/heapprof.*.profraw %t.x && cp %t.x '%t.x@1'
// RUN: heapprof report --format json '%t.x@1' | FileCheck %s --check-prefix=NAMED
// NAMED: "allocs": 600,
#include <heapprof/heapprof_interface.h>
#include <stdlib.h>
#include <string.h>

static void *keep[600];

__attribute__((noinline)) static void *grow(void) { return malloc(64); }

int main(int argc, char **argv) {
  int k = 0;
  for (int round = 1; round <= 3; round++) {
    for (int i = 0; i < 100 * round; i++)
      keep[k++] = grow();
    if (argc < 2 || strcmp(argv[1], "none"))
      __heapprof_dump();
  }
  return 0;
}
