// The allocation bin table's two edges for a size's own row: a share of
// exactly 0.5% (of the allocations or of the bytes) is enough, and the
// 1024 bytes bin is a size like the others (only the last bin, ">1024",
// always has its own row).  1000 allocations: 991 of 512 bytes
// (507,392 B), 5 of 48 (240 B), and one each of 100, 101, 1024 and 2000
// bytes; 510,857 bytes in all.  48: 5 of 1000 allocations, 0.5%: its own
// row.  1024: 1 allocation (0.1%) and 1024 of 510,857 bytes (0.2%): in
// "other" with 100 and 101: 3 sizes, 3 allocations, 1225 bytes.  2000:
// the ">1024" row.
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: %clang_heapprof -O0 -g %s -o %t
// RUN: %env_heapprof_opts=profile_dir=%t.dir %run %t
// RUN: heapprof report --format json %t.dir > %t.json
// RUN: %python -c "import json,sys; r=json.load(open(sys.argv[1])); o=r['bins_omitted']; print([b['label'] for b in r['bins']], o['sizes'], o['allocs'], o['bytes'])" %t.json | FileCheck %s
// CHECK: ['48', '512', '>1024'] 3 3 1225
#include <stdlib.h>

static void *volatile keep[1000];

int main(void) {
  int n = 0;
  for (int i = 0; i < 991; i++)
    keep[n++] = malloc(512);
  for (int i = 0; i < 5; i++)
    keep[n++] = malloc(48);
  keep[n++] = malloc(100);
  keep[n++] = malloc(101);
  keep[n++] = malloc(1024);
  keep[n++] = malloc(2000);
  return 0;
}
