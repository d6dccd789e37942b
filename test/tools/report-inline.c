// heapprof report expands inlined frames: the allocation site inside an
// always_inline helper is frame 0, marked inlined into its caller, and the
// direct allocation table names the helper (the innermost function that
// called the allocator).
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
