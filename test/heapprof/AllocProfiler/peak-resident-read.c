// The peak's "heap resident" is memory the process holds: a page the
// program only read maps the kernel's shared zero page, which is not the
// process's (not in its RSS), and must not count. The program keeps two
// blocks live to the exit dump, which measures the peak:
//   R: 64 MiB, every page read, none written: resident 0 of its pages;
//   W: 16 MiB, every page written: all 4096 of its pages resident.
// Each block's mapping has one page before it with the descriptor and the
// header, which the allocator writes: 2 pages more. So heap resident is
// 16 MiB + 8 KiB and at most a few pages more, far from R's 64 MiB; the
// process's own resident size (statm) is below 64 MiB too, which is the
// premise: reads alone did not make R's pages the process's.
// RUN: %clang_rt_heapprof -O0 %s -o %t
// RUN: rm -rf %t.dir && %env_heapprof_opts=profile_dir=%t.dir %run %t
// RUN: heapprof report --format json %t.dir > %t.json
// RUN: %python -c "import json,sys; o=json.load(open(sys.argv[1]))['peak']['overhead']; r=o['heap_resident']; assert (16 << 20) + 8192 <= r <= (16 << 20) + 16 * 4096, r; assert o['process_resident'] < 64 << 20, o" %t.json
// REQUIRES: pagemap-scan
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void) {
  size_t rn = (size_t)64 << 20, wn = (size_t)16 << 20;
  volatile char *r = malloc(rn);
  char *w = malloc(wn);
  unsigned long sum = 0;
  for (size_t i = 0; i < rn; i += 4096)
    sum += (unsigned char)r[i];
  memset(w, 1, wn);
  printf("%lu\n", sum + (unsigned char)w[wn - 1]);
  return 0;
}
