// A context's number past 32 bits: the model keeps its twelve everyday
// numbers in 32 bits and a larger value beside its sparse ones
// (docs/design.md).  site_big makes and frees 5000 objects of 1 MiB:
// 5000 * 1048576 = 5242880000 bytes, past 2^32 - 1 = 4294967295, all in
// objects over 2048 bytes; site_small keeps 3 of 40 bytes.  Two runs add
// up to 10000 objects and 10485760000 bytes at site_big, and a merge of the
// two profiles reads the same.
// RUN: %clang_heapprof -O0 -g %s -o %t
// RUN: rm -rf %t.d %t.m && mkdir -p %t.d %t.m
// RUN: %env_heapprof_opts=profile_dir=%t.d:detect_leaks=0 %run %t
// RUN: heapprof report --format json %t.d | %python %S/Inputs/check-sparse-counts.py | FileCheck %s --check-prefix=ONE
// ONE: site_big allocs 5000 bytes 5242880000 frees 5000 live_objects 0 live_bytes 0 min_size 1048576 max_size 1048576 bytes_small 0 bytes_medium 0 bytes_large 0 bytes_xlarge 5242880000
// ONE: site_small allocs 3 bytes 120 frees 0 live_objects 3 live_bytes 120 min_size 40 max_size 40 bytes_small 0 bytes_medium 120
// ONE: total allocs 5003 bytes 5242880120 frees 5000 live_objects 3 live_bytes 120
// RUN: %env_heapprof_opts=profile_dir=%t.d:detect_leaks=0 %run %t
// RUN: heapprof report --format json %t.d | %python %S/Inputs/check-sparse-counts.py | FileCheck %s --check-prefix=TWO
// RUN: heapprof merge -o %t.m/m.profraw %t.d
// RUN: heapprof report --format json %t.m/m.profraw | %python %S/Inputs/check-sparse-counts.py | FileCheck %s --check-prefix=TWO
// TWO: site_big allocs 10000 bytes 10485760000 frees 10000 live_objects 0 live_bytes 0 min_size 1048576 max_size 1048576 bytes_small 0 bytes_medium 0 bytes_large 0 bytes_xlarge 10485760000
// TWO: site_small allocs 6 bytes 240 frees 0 live_objects 6 live_bytes 240 min_size 40 max_size 40
// TWO: total allocs 10006 bytes 10485760240 frees 10000 live_objects 6 live_bytes 240
// RUN: heapprof report %t.d | FileCheck %s --check-prefix=TEXT
// TEXT: allocations 10006 objects, 10485760240 bytes
// TEXT-NEXT: frees 10000 objects
#include <stdlib.h>

void *volatile kept[3];

__attribute__((noinline)) void site_big(void) {
  char *volatile p = malloc(1 << 20);
  p[0] = 1;
  free(p);
}

__attribute__((noinline)) void site_small(int i) { kept[i] = malloc(40); }

int main(void) {
  for (int i = 0; i < 5000; i++)
    site_big();
  for (int i = 0; i < 3; i++)
    site_small(i);
  return 0;
}
