// The peak table groups contexts by call chain, as the leak table does:
// --depth frames (allocation site and depth-1 callers).  xalloc is the one
// allocation site; hold_a calls it for 1 MiB and is itself called from two
// lines of main, hold_b for 2 MiB from one.  All three chunks of hold_a (two
// from the first line, one from the second) and hold_b's one are live
// together, then freed: the peak is 3 x 1 MiB + 2 MiB = 5 MiB in 4 objects.
// RUN: %clang_heapprof -O0 -g %s -o %t
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: %env_heapprof_opts=profile_dir=%t.d %run %t
// With --depth 2 the chain is xalloc <- hold_X: hold_a's two contexts are
// one row of 3 objects, 3 MiB (60 % of 5 MiB), above hold_b's 2 MiB.
// RUN: heapprof report --depth 2 %t.d | FileCheck %s --check-prefix=D2
// D2: == The peak: the largest live heap, by allocation site and 1 callers
// D2-NEXT: 5242880 bytes (5.0 MiB) requested in 4 objects at
// D2-NEXT: bytes       %  objects  call chain
// D2-NEXT: 3145728   60.0%        3  xalloc ({{.*}}) <- hold_a ({{.*}})
// D2-NEXT: 2097152   40.0%        1  xalloc ({{.*}}) <- hold_b ({{.*}})
// D2-NEXT: memory overhead at the peak:
// With --depth 3 main's two lines tell hold_a's contexts apart: three rows,
// the first line's two chunks (2 MiB) tied with hold_b's one.
// RUN: heapprof report --depth 3 %t.d | FileCheck %s --check-prefix=D3
// D3: bytes       %  objects  call chain
// D3-NEXT: 2097152   40.0%        2  xalloc ({{.*}}) <- hold_a ({{.*}}) <- main ({{.*}}peak-chains.c:
// D3-NEXT: 2097152   40.0%        1  xalloc ({{.*}}) <- hold_b ({{.*}}) <- main (
// D3-NEXT: 1048576   20.0%        1  xalloc ({{.*}}) <- hold_a ({{.*}}) <- main (
// D3-NEXT: memory overhead at the peak:
// The JSON rows are the same groups, with how many contexts each holds.
// RUN: heapprof report --format json --depth 2 %t.d > %t.json
// RUN: %python -c "import json,sys; t=json.load(open(sys.argv[1]))['peak']['top']; print([(len(r['chain']), r['chain'][1]['function'], r['peak_objects'], r['peak_bytes'], r['contexts']) for r in t])" %t.json | FileCheck %s --check-prefix=JSON
// JSON: [(2, 'hold_a', 3, 3145728, 2), (2, 'hold_b', 1, 2097152, 1)]
#include <stdlib.h>

#define MiB (1 << 20)
__attribute__((noinline)) static char *xalloc(size_t n) { return malloc(n); }
__attribute__((noinline)) static char *hold_a(void) { return xalloc(MiB); }
__attribute__((noinline)) static char *hold_b(void) { return xalloc(2 * MiB); }
static char *volatile p[4];

int main(void) {
  for (int i = 0; i < 2; i++)
    p[i] = hold_a();
  p[2] = hold_b();
  p[3] = hold_a();
  for (int i = 0; i < 4; i++)
    free(p[i]);
  return 0;
}
