// Two processes of one program add up per context, whichever of a
// context's numbers each has (the model keeps the live, size-class and
// other mostly-zero counts only where they are not zero: docs/design.md).
// "keep": site_a makes 3 objects of 40 bytes and keeps them, site_b 2 of
// 3000 and frees them; "free": site_a makes 3 of 24 and frees them, site_b
// 2 of 3000 and keeps them.  Over both runs:
//   site_a: 6 allocs, 3*40 + 3*24 = 192 bytes, 3 frees, 3 live (120 bytes),
//           sizes 24..40, 72 bytes in 0-32-byte objects, 120 in 33-256,
//           the live 120 in 33-256
//   site_b: 4 allocs, 12000 bytes, 2 frees, 2 live (6000 bytes), sizes 3000,
//           all over 2048 bytes, live ones too
// The JSON, a merge of the two profiles and the text report agree.
// RUN: %clang_heapprof -O0 -g %s -o %t
// RUN: rm -rf %t.d %t.m && mkdir -p %t.d %t.m
// RUN: %env_heapprof_opts=profile_dir=%t.d:detect_leaks=0 %run %t keep
// RUN: %env_heapprof_opts=profile_dir=%t.d:detect_leaks=0 %run %t free
// RUN: heapprof report --format json %t.d | %python %S/Inputs/check-sparse-counts.py | FileCheck %s
// RUN: heapprof merge -o %t.m/m.profraw %t.d
// RUN: heapprof report --format json %t.m/m.profraw | %python %S/Inputs/check-sparse-counts.py | FileCheck %s
// CHECK: site_a allocs 6 bytes 192 frees 3 live_objects 3 live_bytes 120 min_size 24 max_size 40 bytes_small 72 bytes_medium 120 bytes_large 0 bytes_xlarge 0 live_bytes_small 0 live_bytes_medium 120 live_bytes_xlarge 0
// CHECK: site_b allocs 4 bytes 12000 frees 2 live_objects 2 live_bytes 6000 min_size 3000 max_size 3000 bytes_small 0 bytes_medium 0 bytes_large 0 bytes_xlarge 12000 live_bytes_small 0 live_bytes_medium 0 live_bytes_xlarge 6000
// CHECK: total allocs 10 bytes 12192 frees 5 live_objects 5 live_bytes 6120
// RUN: heapprof report %t.d | FileCheck %s --check-prefix=TEXT
// TEXT: allocations 10 objects, 12192 bytes
// TEXT-NEXT: frees 5 objects
// TEXT-NEXT: live at the end 5 objects, 6120 bytes
#include <stdlib.h>
#include <string.h>

void *volatile kept[8];
static int n;

__attribute__((noinline)) void site_a(size_t size, int keep) {
  void *p = malloc(size);
  memset(p, 1, size);
  if (keep)
    kept[n++] = p;
  else
    free(p);
}

__attribute__((noinline)) void site_b(int keep) {
  void *p = malloc(3000);
  memset(p, 1, 3000);
  if (keep)
    kept[n++] = p;
  else
    free(p);
}

int main(int argc, char **argv) {
  int keep = argc > 1 && !strcmp(argv[1], "keep");
  for (int i = 0; i < 3; i++)
    site_a(keep ? 40 : 24, keep);
  for (int i = 0; i < 2; i++)
    site_b(!keep);
  return 0;
}
