// Two snapshots of the same size: the first stays the peak ("the snapshot
// replaces the recorded peak if it holds more bytes").  site_a allocates
// 1 MiB and frees it: the free's snapshot is the peak, 1 MiB, site_a's
// one object.  site_b then allocates 1 MiB and holds it to the exit,
// below the arm level (1 MiB plus a step), so only the exit's dump takes
// a snapshot: 1 MiB again, no more, and the peak stays site_a's
// (site_b 0 objects at the peak).  Taking ties as well named site_b.
// RUN: %clang_heapprof -O0 -g %s -o %t
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: %env_heapprof_opts=profile_dir=%t.d %run %t
// RUN: heapprof report --format json --top 0 %t.d > %t.json
// RUN: %python %S/Inputs/peak_check.py %t.json peak_bytes=1048576 site_a=1,1048576 site_b=0,0 peak.objects=1 peak.contexts=1
#include <stdlib.h>

#define MiB (1 << 20)
__attribute__((noinline)) static char *site_a(void) { return malloc(MiB); }
__attribute__((noinline)) static char *site_b(void) { return malloc(MiB); }
static char *volatile a, *volatile b;

int main(void) {
  a = site_a();
  free(a);
  b = site_b();
  return 0;
}
