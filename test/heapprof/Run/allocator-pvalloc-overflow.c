// pvalloc(SIZE_MAX): its size rounded up to pages overflows.  glibc fails
// it; tcmalloc wraps the size around and hands out a page.  heapprof run
// passes the allocator's answer on unchanged, and records the object as 0
// bytes: recorded as SIZE_MAX, the leak check at exit read the address
// space after it as the object and never ended.
// REQUIRES: tcmalloc
// RUN: rm -rf %t.dir && %clang_plain -O1 %s -o %t
// RUN: env LD_PRELOAD=%libtcmalloc %t > %t.plain.out
// RUN: timeout 120 heapprof run -o %t.dir --allocator=%libtcmalloc -- %t > %t.run.out
// RUN: diff %t.plain.out %t.run.out
// RUN: heapprof report --format json %t.dir | %python -c "import json, sys; r = json.load(sys.stdin); print([b['allocs'] for b in r['bins'] if b['size'] == 0], r['summary']['bytes'] < 2 ** 40)" | FileCheck %s
// CHECK: [1] True
#include <malloc.h>
#include <stdint.h>
#include <stdio.h>

int main(void) {
  void *volatile p = pvalloc(SIZE_MAX);
  printf("pvalloc(SIZE_MAX): %s\n", p ? "a pointer" : "NULL");
  return 0;
}
