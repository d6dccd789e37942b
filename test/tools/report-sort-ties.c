// heapprof report --sort: contexts equal in the sorted measure are ranked
// by bytes, largest first (tables.cpp, Builder::top).  Three sites each
// allocate 10 objects and free each at once: small 100 bytes (1000 B),
// mid 150 (1500 B), big 200 (2000 B), called in the order small, big,
// mid.  By allocations (10 each, a third of 30: 33.3%) and by temporary
// allocations (all 10 of each) the order is big, mid, small; by bytes
// too, each its share of 4500 B (44.4%, 33.3%, 22.2%).
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: %clang_heapprof -O0 -g %s -o %t
// RUN: %env_heapprof_opts=profile_dir=%t.dir %run %t
// RUN: heapprof report --sort allocs --top 0 %t.dir | FileCheck %s --check-prefix=ALLOCS
// RUN: heapprof report --sort temporary --top 0 %t.dir | FileCheck %s --check-prefix=TEMPORARY
// RUN: heapprof report --sort bytes --top 0 %t.dir | FileCheck %s --check-prefix=BYTES
#include <stdlib.h>

__attribute__((noinline)) static void *small(void) { return malloc(100); }
__attribute__((noinline)) static void *mid(void) { return malloc(150); }
__attribute__((noinline)) static void *big(void) { return malloc(200); }

int main(void) {
  for (int i = 0; i < 10; i++)
    free(small());
  for (int i = 0; i < 10; i++)
    free(big());
  for (int i = 0; i < 10; i++)
    free(mid());
  return 0;
}
// ALLOCS: == Top contexts by allocs
// ALLOCS-NEXT: #1 33.3% 2000 B in 10 objects
// ALLOCS-NEXT: {{^ +big }}
// ALLOCS: #2 33.3% 1500 B in 10 objects
// ALLOCS-NEXT: {{^ +mid }}
// ALLOCS: #3 33.3% 1000 B in 10 objects
// ALLOCS-NEXT: {{^ +small }}
// ALLOCS-NOT: #4
// TEMPORARY: == Top contexts by temporary
// TEMPORARY-NEXT: #1 33.3% 10 temporary, 2000 B in 10 objects
// TEMPORARY-NEXT: {{^ +big }}
// TEMPORARY: #2 33.3% 10 temporary, 1500 B in 10 objects
// TEMPORARY-NEXT: {{^ +mid }}
// TEMPORARY: #3 33.3% 10 temporary, 1000 B in 10 objects
// TEMPORARY-NEXT: {{^ +small }}
// BYTES: == Top contexts by bytes
// BYTES-NEXT: #1 44.4% 2000 B in 10 objects
// BYTES-NEXT: {{^ +big }}
// BYTES: #2 33.3% 1500 B in 10 objects
// BYTES-NEXT: {{^ +mid }}
// BYTES: #3 22.2% 1000 B in 10 objects
// BYTES-NEXT: {{^ +small }}
