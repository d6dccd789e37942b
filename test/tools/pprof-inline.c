// heapprof pprof keeps inlined frames as pprof expects them: one Location
// for the return address with several Lines, innermost first, so
// helper_alloc (inlined into make_thing) gets the 6 x 72 = 432 bytes.
// REQUIRES: go-pprof
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: %clang_heapprof -O2 -g %s -o %t
// RUN: %env_heapprof_opts=profile_dir=%t.dir %run %t
// RUN: heapprof pprof -o %t.pb.gz %t.dir
// RUN: go tool pprof -raw %t.pb.gz | FileCheck %s --check-prefix=RAW
// RUN: go tool pprof -top -unit=B %t.pb.gz | FileCheck %s --check-prefix=TOP
// RAW: alloc_objects/count alloc_space/bytes[dflt] inuse_objects/count inuse_space/bytes accesses/count
// RAW-NEXT: 6 432 6 432 {{[0-9]+}}: [[SITE:[0-9]+]] [[MAIN:[0-9]+]] {{$}}
// RAW-NEXT: Locations
// RAW-NEXT: [[SITE]]: 0x{{[0-9a-f]+}} M=1 helper_alloc {{.*}}pprof-inline.c:[[#@LINE+12]] s=0
// RAW-NEXT: make_thing {{.*}}pprof-inline.c:[[#@LINE+15]] s=0
// RAW-NEXT: [[MAIN]]: 0x{{[0-9a-f]+}} M=1 main {{.*}}pprof-inline.c
// pprof marks the inlined function, and orders equal rows by name.
// TOP: 432B 100% 100% 432B 100% helper_alloc (inline)
// TOP-NEXT: 0 0% 100% 432B 100% main
// TOP-NEXT: 0 0% 100% 432B 100% make_thing
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
