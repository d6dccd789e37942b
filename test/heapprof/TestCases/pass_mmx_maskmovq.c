// MMX's masked byte store, _mm_maskmove_si64 (maskmovq), counts one access
// per active byte lane, as its 16-byte sibling _mm_maskmoveu_si128 does: a
// lane is active when its mask byte's sign bit is set.  The pass did not
// know llvm.x86.mmx.maskmovq and counted none.  Each site's object is zeroed
// by calloc (no access) and then written by the one store, with a mask known
// at compile time (clang makes it a constant) and one known at run time
// (built from volatile ints).
// REQUIRES: heapprof-driver
// RUN: %clang_heapprof -O2 -g %s -o %t
// RUN: rm -rf %t.d && mkdir -p %t.d && %env_heapprof_opts=profile_dir=%t.d %run %t | FileCheck %s --check-prefix=OUT
// RUN: heapprof report --top 0 --format json %t.d > %t.json
// RUN: %python %S/../Run/Inputs/site-accesses.py %t.json site_const site_dyn site_sse2 | FileCheck %s
// RUN: %clang_heapprof -O0 -g %s -o %t0
// RUN: rm -rf %t0.d && mkdir -p %t0.d && %env_heapprof_opts=profile_dir=%t0.d %run %t0 | FileCheck %s --check-prefix=OUT
// RUN: heapprof report --top 0 --format json %t0.d > %t0.json
// RUN: %python %S/../Run/Inputs/site-accesses.py %t0.json site_const site_dyn site_sse2 | FileCheck %s
// Lanes 0, 1 and 7:
// CHECK: site_const allocs=1 bytes=64 frees=1 accesses=3
// Lanes 0, 1, 2, 5 and 7:
// CHECK: site_dyn allocs=1 bytes=64 frees=1 accesses=5
// The same lanes with maskmovdqu:
// CHECK: site_sse2 allocs=1 bytes=64 frees=1 accesses=5
// The stores happened (the bytes are checked by code the pass leaves alone):
// OUT: stored 7 7 0 0 0 0 0 7 / 7 7 7 0 0 7 0 7 / 7 7 7 0 0 7 0 7
#include <immintrin.h>
#include <stdio.h>
#include <stdlib.h>

#define SITE(name)                                                             \
  __attribute__((noinline)) static char *name(void) { return calloc(1, 64); }
SITE(site_const)
SITE(site_dyn)
SITE(site_sse2)

static volatile int on = -1, off = 0;

__attribute__((noinline, disable_sanitizer_instrumentation)) static void
show(const char *c, const char *d, const char *e) {
  const char *objs[] = {c, d, e};
  printf("stored");
  for (int k = 0; k < 3; k++)
    for (int i = 0; i < 8; i++)
      printf(i == 0 && k > 0 ? " / %d" : " %d", objs[k][i]);
  printf("\n");
}

int main(void) {
  char *c = site_const(), *d = site_dyn(), *e = site_sse2();
  __m64 v = _mm_set1_pi8(7);
  _mm_maskmove_si64(v, _mm_setr_pi8(-1, -1, 0, 0, 0, 0, 0, -1), c);
  _mm_maskmove_si64(v, _mm_setr_pi8(on, on, on, off, off, on, off, on), d);
  _mm_empty();
  _mm_maskmoveu_si128(_mm_set1_epi8(7),
                      _mm_setr_epi8(on, on, on, off, off, on, off, on, off,
                                    off, off, off, off, off, off, off),
                      e);
  show(c, d, e);
  free(c), free(d), free(e);
  return 0;
}
