// Section 13 says whose allocator served the program, and every reader
// says it: show, the report's summary (text and JSON), merge (the inputs'
// when they agree, else "several"). One program, 4 blocks of 96 bytes,
// under heapprof run on heapprof's allocator and on glibc's; sampled
// mode's pass-through is glibc's too.
// RUN: %clang_plain -O0 -g %s -o %t
// RUN: rm -rf %t.own %t.sys %t.smp %t.own2 %t.m && mkdir -p %t.m
// RUN: heapprof run -o %t.own -- %t
// RUN: heapprof run -o %t.own2 -- %t
// RUN: heapprof run --allocator=system -o %t.sys -- %t
// RUN: env HEAPPROF_OPTIONS=sample_bytes=4096 heapprof run -o %t.smp -- %t
// RUN: heapprof show %t.own/*.profraw | FileCheck %s --check-prefix=SHOW-OWN
// SHOW-OWN: allocator: heapprof{{$}}
// RUN: heapprof show %t.sys/*.profraw | FileCheck %s --check-prefix=SHOW-SYS
// SHOW-SYS: allocator: glibc{{$}}
// RUN: heapprof show %t.smp/*.profraw | FileCheck %s --check-prefix=SHOW-SYS
// RUN: heapprof report %t.own | FileCheck %s --check-prefix=OWN
// OWN: allocator{{ +}}heapprof's own
// RUN: heapprof report %t.sys | FileCheck %s --check-prefix=SYS
// SYS: allocator{{ +}}glibc's malloc (allocator=system, or sampled mode's)
// RUN: heapprof report --format json %t.sys | %python -c "import json,sys; a = json.load(sys.stdin)['summary']['allocator']; assert a == {'kind': 'glibc'}, a"
// Merged: the same allocator stays; two differ, "several".
// RUN: heapprof merge -o %t.m/same.profraw %t.own %t.own2
// RUN: heapprof show %t.m/same.profraw | FileCheck %s --check-prefix=SHOW-OWN
// RUN: heapprof merge -o %t.m/mixed.profraw %t.own %t.sys
// RUN: heapprof show %t.m/mixed.profraw | FileCheck %s --check-prefix=SHOW-SEVERAL
// SHOW-SEVERAL: allocator: several{{$}}
// RUN: heapprof report %t.m/mixed.profraw | FileCheck %s --check-prefix=SEVERAL
// SEVERAL: allocator{{ +}}several: the profiles were taken on different allocators
// A report over both directories says the same.
// RUN: heapprof report %t.own %t.sys | FileCheck %s --check-prefix=SEVERAL
#include <stdlib.h>

void *volatile keep[4];

int main(void) {
  for (int i = 0; i < 4; i++)
    keep[i] = malloc(96);
  return 0;
}
