// heapprof report expands inlined frames: the allocation site inside an
// always_inline helper is frame 0, marked inlined into its caller, and the
// direct allocation table names the helper (the innermost function that
// called the allocator).  pprof-inline.test exports the same program's
// profile with heapprof pprof and checks it with the PPROF-* lines below.
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: %clang_heapprof -O2 -g %s -o %t
// RUN: %env_heapprof_opts=profile_dir=%t.dir %run %t
// RUN: heapprof report %t.dir | FileCheck %s
// RUN: heapprof report --format json %t.dir | %python -c "import json,sys; r=json.load(sys.stdin); s=r['contexts'][0]['stack']; assert [(f['function'], f['inlined']) for f in s] == [('helper_alloc', True), ('make_thing', False), ('main', False)], s; print('ok')" | FileCheck %s --check-prefix=JSON
#include <stdlib.h>

void *volatile sink[7];

static inline __attribute__((always_inline)) void *helper_alloc(size_t n) {
  return malloc(n);
}

__attribute__((noinline)) void make_thing(int i) {
  sink[i] = helper_alloc(72); // the stores keep the call from being a tail call
  sink[i + 1] = 0;
}

int main(void) {
  for (int i = 0; i < 6; i++)
    make_thing(i);
  return 0;
}

// CHECK: == Top contexts by bytes
// CHECK-NEXT: #1 100.0% 432 B in 6 objects (72 B each)
// CHECK-NEXT: helper_alloc {{.*}}report-inline.c:{{[0-9:]+}} (inlined)
// CHECK-NEXT: make_thing {{.*}}report-inline.c:{{[0-9:]+}}{{$}}
// CHECK-NEXT: main {{.*}}report-inline.c
// CHECK: == Direct allocation
// CHECK-NEXT: %bytes
// CHECK-NEXT: 100.0% 432 B 432 B 6 0% 100% 0% 0% helper_alloc
// JSON: ok

// heapprof pprof keeps inlined frames as pprof expects them: one Location
// per return address with Lines innermost first: helper_alloc (inlined into
// make_thing) gets the 6 x 72 = 432 bytes (sink[] holds them: none leaked).
// PPROF-RAW: alloc_objects/count alloc_space/bytes[dflt] inuse_objects/count inuse_space/bytes accesses/count temporary_objects/count leaked_objects/count leaked_bytes/bytes
// PPROF-RAW-NEXT: 6 432 6 432 {{[0-9]+}} 0 0 0: [[SITE:[0-9]+]] [[MAIN:[0-9]+]] {{$}}
// PPROF-RAW-NEXT: Locations
// PPROF-RAW-NEXT: [[SITE]]: 0x{{[0-9a-f]+}} M=1 helper_alloc {{.*}}report-inline.c:[[#@LINE-30]] s=0
// PPROF-RAW-NEXT: make_thing {{.*}}report-inline.c:[[#@LINE-27]] s=0
// PPROF-RAW-NEXT: [[MAIN]]: 0x{{[0-9a-f]+}} M=1 main {{.*}}report-inline.c
// pprof marks the inlined function, and orders equal rows by name.
// PPROF-TOP: 432B 100% 100% 432B 100% helper_alloc (inline)
// PPROF-TOP-NEXT: 0 0% 100% 432B 100% main
// PPROF-TOP-NEXT: 0 0% 100% 432B 100% make_thing
