// A realloc that shrinks a chunk in place is a fall of the heap like a
// free: the snapshot is taken before it.  Site A allocates 4 x 1 MiB (the
// top: 4 MiB); then realloc shrinks the last chunk by 64 bytes in place (a
// large chunk keeps its pages: same number of pages) and the heap falls.
// The peak is A's 4 MiB, 4 objects: the shrunk chunk counted at its old
// size, under A (after the realloc it is the realloc call's).
// RUN: %clang_heapprof -O0 -g %s -o %t
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: %env_heapprof_opts=profile_dir=%t.d %run %t
// RUN: heapprof report --format json --top 0 %t.d > %t.json
// RUN: %python %S/Inputs/peak_check.py %t.json peak_bytes=4194304 site_a=4,4194304 peak.objects=4
// RUN: heapprof show %t.d/*.profraw | FileCheck %s
// CHECK: peak: peak_bytes=4194304
#include <stdlib.h>

__attribute__((noinline)) static char *site_a(void) { return malloc(1 << 20); }
static char *volatile a[4];

int main(void) {
  for (int i = 0; i < 4; i++)
    a[i] = site_a();
  char *p = realloc(a[3], (1 << 20) - 64);
  if (p != a[3])
    return 1; // not in place: the test would not test it
  a[3] = p;
  return 0;
}
