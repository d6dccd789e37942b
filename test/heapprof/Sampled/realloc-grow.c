// A sampled object reallocated and sampled again is resized by glibc in
// place (or by mremap), prefix and all, and becomes a new sampled object:
// the profile has the old one freed and the new one allocated, as when the
// bytes were copied to a new block, and the bytes are kept.  At
// sample_bytes=1 every object here is sampled with weight 1 (p = 1 -
// e^(-1048576)), so the counts are exact: one 1 MiB object from site_start,
// then six from the realloc, doubling to 2, 4, ..., 64 MiB: 126 MiB in all,
// 22020096 bytes on average; seven frees (six by the reallocs, one by
// free).
// RUN: %clang_rt_heapprof -O0 %s -o %t
// RUN: %env_heapprof_opts=sample_bytes=1:sample_seed=1:log_path=stderr:print_module_map=0:print_stats=1 %run %t 2> %t.err
// RUN: FileCheck %s < %t.err
#include <stdlib.h>
#include <string.h>

__attribute__((noinline)) static unsigned char *site_start(void) {
  return malloc(1 << 20);
}

int main(void) {
  size_t n = 1 << 20;
  unsigned char *p = site_start();
  memset(p, 1, n);
  for (int i = 1; i <= 6; i++) {
    unsigned char *q = realloc(p, n * 2);
    if (!q)
      abort();
    for (size_t j = 0; j < n; j += 4096)
      if (q[j] != (unsigned char)i)
        abort(); /* the bytes were not kept */
    memset(q, i + 1, n * 2);
    p = q, n *= 2;
  }
  free(p);
  return 0;
}
// CHECK-DAG: alloc_count 1, size (ave/min/max) 1048576.00 / 1048576 / 1048576
// CHECK-DAG: alloc_count 6, size (ave/min/max) 22020096.00 / 2097152 / 67108864
// CHECK: mallocs{{ +}}7 allocations
// CHECK: frees{{ +}}7 deallocations
// CHECK: reallocs{{ +}}6 reallocations
