// Per-context heap utilization on glibc's malloc, whose 16-byte objects
// share lines and pages (32-byte chunks, one after another from the top of
// its heap).  Fillers until the next chunk starts a page; then 100 objects
// from pair(), all 16 bytes written: 3200 bytes from the page's start, two
// objects on each of 50 lines, on 1 page.  Each line and page counts once
// for its context: 50 lines holding 1600 live bytes (50.00%), 1 page
// (1600 / 4096 = 39.06%).  Then 32 objects from odd_a() and 32 from odd_b()
// in turn, all written: each line holds one of each, so each context has
// 32 lines with 512 bytes (25.00%), on 2 pages (the 14 first pairs end
// the page, 3200 + 14 x 64 = 4096): 512 / 8192 = 6.25%.  Counted once per
// object, as before, pair() read 100 lines and 100 pages (25.00%, 0.39%),
// odd_a() and odd_b() 32 pages each.  The figures are read before any
// fold: the exit profile clears a shared granule once it is read, which
// must not make the neighbour's line look untouched.
// REQUIRES: heapprof-driver
// RUN: %clang_heapprof -O0 -g %s -o %t
// RUN: rm -rf %t.dir && env HEAPPROF_OPTIONS=allocator=system:profile_dir=%t.dir:print_text=1 %t | FileCheck %s --check-prefix=OUT
// RUN: FileCheck %s < %t.dir/*.txt
// RUN: rm -rf %t.run && env -u LD_PRELOAD HEAPPROF_OPTIONS=print_text=1 heapprof run -o %t.run --allocator=system -- %t | FileCheck %s --check-prefix=OUT
// RUN: FileCheck %s < %t.run/*.txt
// RUN: heapprof report --format json %t.run | FileCheck %s --check-prefix=JSON
// The heap-wide form describes heapprof's heap, empty here: no section 7,
// not one that says 0 live objects.
// RUN: heapprof report %t.run | FileCheck %s --check-prefix=REPORT
// REPORT-NOT: Heap utilization at the last dump
// NOHEAP-NOT: Heap utilization:
// RUN: FileCheck %s --check-prefix=NOHEAP < %t.run/*.txt
// OUT: layout 1
// Contexts are numbered as they first allocate: filler 1, pair 2, odd_a 3,
// odd_b 4.
// CHECK: Memory allocation stack id = 2
// CHECK: live utilization: lines 50.00% (1600 live bytes on 50 touched of 50 lines), pages 39.06% (1600 live bytes on 1 touched of 1 pages)
// CHECK: Memory allocation stack id = 3
// CHECK: live utilization: lines 25.00% (512 live bytes on 32 touched of 32 lines), pages 6.25% (512 live bytes on 2 touched of 2 pages)
// CHECK: Memory allocation stack id = 4
// CHECK: live utilization: lines 25.00% (512 live bytes on 32 touched of 32 lines), pages 6.25% (512 live bytes on 2 touched of 2 pages)
// CHECK: Stack for id 2:
// CHECK-NEXT: in pair
// CHECK: Stack for id 3:
// CHECK-NEXT: in odd_a
// CHECK: Stack for id 4:
// CHECK-NEXT: in odd_b
// JSON: "live_lines": 50,
// JSON-NEXT: "live_touched_lines": 50,
// JSON-NEXT: "live_line_bytes": 1600,
// JSON-NEXT: "live_pages": 1,
// JSON-NEXT: "live_touched_pages": 1,
// JSON-NEXT: "live_page_bytes": 1600,
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) static char *filler(void) { return malloc(16); }
__attribute__((noinline)) static char *pair(void) { return malloc(16); }
__attribute__((noinline)) static char *odd_a(void) { return malloc(16); }
__attribute__((noinline)) static char *odd_b(void) { return malloc(16); }
static char *volatile f[200], *volatile a[100], *volatile b[32],
    *volatile c[32];

static void fill(char *p) {
  for (int j = 0; j < 16; j++)
    p[j] = 1;
}

int main(void) {
  int nf = 0;
  do
    f[nf] = filler();
  while (((uintptr_t)f[nf++] + 32) % 4096 && nf < 200);
  for (int i = 0; i < 100; i++)
    fill(a[i] = pair());
  for (int i = 0; i < 32; i++) {
    fill(b[i] = odd_a());
    fill(c[i] = odd_b());
  }
  int ok = (uintptr_t)a[0] % 4096 == 0;
  for (int i = 1; i < 100; i++)
    ok &= a[i] - a[i - 1] == 32;
  for (int i = 0; i < 32; i++)
    ok &= b[i] == a[0] + 3200 + 64 * i && c[i] == b[i] + 32;
  printf("layout %d\n", ok);
  return 0;
}
