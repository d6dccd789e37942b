// Sampled mode's estimates for C++'s operator new and delete, whose
// unsampled calls take a path of their own (heapprof_new_delete.c: the
// countdown and glibc's malloc, glibc's free for a glibc block).  The
// numbers are estimates.c's: site_a allocates 200000 objects of 1000 bytes
// with new[] and frees them with delete[], site_b 2000 of 64 KiB with new
// and delete, site_c 1000 more of 64 KiB kept to exit.  At sample_bytes=
// 65536 the same 5-sigma bounds hold (see estimates.c for the arithmetic):
// site_a [181965, 218035], site_b [1808, 2192], site_c [864, 1136] with
// all of them live at exit; each average size exact.  Two seeds, and the
// exact mode for reference.
// RUN: %clangxx_rt_heapprof -O0 %s -o %t
// RUN: rm -rf %t.d7 && %env_heapprof_opts=sample_bytes=65536:sample_seed=7:profile_dir=%t.d7 %run %t
// RUN: heapprof report --top 0 --format json %t.d7 > %t.j7
// RUN: %python %S/../Run/Inputs/site-accesses.py %t.j7 site_a site_b site_c | awk -f %S/Inputs/bounds.awk | FileCheck %s
// RUN: rm -rf %t.d8 && %env_heapprof_opts=sample_bytes=65536:sample_seed=12345:profile_dir=%t.d8 %run %t
// RUN: heapprof report --top 0 --format json %t.d8 > %t.j8
// RUN: %python %S/../Run/Inputs/site-accesses.py %t.j8 site_a site_b site_c | awk -f %S/Inputs/bounds.awk | FileCheck %s
// RUN: rm -rf %t.d0 && %env_heapprof_opts=profile_dir=%t.d0 %run %t
// RUN: heapprof report --top 0 --format json %t.d0 > %t.j0
// RUN: %python %S/../Run/Inputs/site-accesses.py %t.j0 site_a site_b site_c | FileCheck %s --check-prefix=EXACT
// CHECK: site_a ok
// CHECK-NEXT: site_b ok
// CHECK-NEXT: site_c ok
// EXACT: site_a allocs=200000 bytes=200000000 frees=200000
// EXACT-NEXT: site_b allocs=2000 bytes=131072000 frees=2000
// EXACT-NEXT: site_c allocs=1000 bytes=65536000 frees=0
#include <cstddef>

struct Big {
  char bytes[65536];
};
__attribute__((noinline)) char *site_a() { return new char[1000]; }
__attribute__((noinline)) Big *site_b() { return new Big; }
__attribute__((noinline)) Big *site_c() { return new Big; }
static Big *volatile keep[1000];

int main() {
  for (int i = 0; i < 200000; i++) {
    char *volatile p = site_a();
    p[0] = 1;
    delete[] p;
  }
  for (int i = 0; i < 2000; i++) {
    Big *volatile p = site_b();
    p->bytes[0] = 1;
    delete p;
  }
  for (int i = 0; i < 1000; i++) {
    keep[i] = site_c();
    keep[i]->bytes[0] = 1;
  }
  return 0;
}
