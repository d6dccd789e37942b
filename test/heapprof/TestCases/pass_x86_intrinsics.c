// Accesses through x86's own intrinsics are counted exactly, one per active
// lane (a gather's, a masked load's or store's, an expand's or compress's
// lane), one per lddqu, as loads and stores are: each site's object is
// zeroed by calloc (no access) and then touched by one intrinsic only, so
// its count is that intrinsic's active lanes.  Masks built from volatile
// ints are not known at compile time: clang keeps the x86 intrinsics then.
// REQUIRES: avx2, avx512f
// RUN: %clang_heapprof -O1 -mavx2 -mavx512f -g %s -o %t
// RUN: rm -rf %t.d && mkdir -p %t.d && %env_heapprof_opts=profile_dir=%t.d %run %t
// RUN: heapprof report --top 0 --format json %t.d > %t.json
// RUN: %python %S/../Run/Inputs/site-accesses.py %t.json site_gather site_mgather site_maskload site_maskstore site_lddqu site_maskmov site_g512 site_s512 site_expand site_compress site_compress_dyn | FileCheck %s
// _mm256_i32gather_ps, 8 lanes:
// CHECK: site_gather allocs=1 bytes=256 frees=1 accesses=8
// _mm256_mask_i32gather_ps, mask on, off, on, off, ...: 4 lanes
// CHECK: site_mgather allocs=1 bytes=256 frees=1 accesses=4
// _mm256_maskload_ps, first 3 lanes on:
// CHECK: site_maskload allocs=1 bytes=64 frees=1 accesses=3
// _mm256_maskstore_ps, lanes 0, 6, 7:
// CHECK: site_maskstore allocs=1 bytes=64 frees=1 accesses=3
// _mm_lddqu_si128:
// CHECK: site_lddqu allocs=1 bytes=64 frees=1 accesses=1
// _mm_maskmoveu_si128, first 5 bytes:
// CHECK: site_maskmov allocs=1 bytes=64 frees=1 accesses=5
// _mm512_i32gather_ps, 16 lanes:
// CHECK: site_g512 allocs=1 bytes=512 frees=1 accesses=16
// _mm512_mask_i32scatter_ps, mask 0x0fff: 12 lanes
// CHECK: site_s512 allocs=1 bytes=512 frees=1 accesses=12
// _mm512_mask_expandloadu_epi32, mask 0x5: 2
// CHECK: site_expand allocs=1 bytes=128 frees=1 accesses=2
// _mm512_mask_compressstoreu_epi32, mask 0x3: 2
// CHECK: site_compress allocs=1 bytes=128 frees=1 accesses=2
// the same with a mask known at run time, 0x2d: 4
// CHECK: site_compress_dyn allocs=1 bytes=128 frees=1 accesses=4
#include <immintrin.h>
#include <stdio.h>
#include <stdlib.h>

#define SITE(name, n)                                                          \
  __attribute__((noinline)) static void *name(void) { return calloc(1, n); }
SITE(site_gather, 256)
SITE(site_mgather, 256)
SITE(site_maskload, 64)
SITE(site_maskstore, 64)
SITE(site_lddqu, 64)
SITE(site_maskmov, 64)
SITE(site_g512, 512)
SITE(site_s512, 512)
SITE(site_expand, 128)
SITE(site_compress, 128)
SITE(site_compress_dyn, 128)

static volatile int on = -1, off = 0, dynmask = 0x2d;

int main(void) {
  float *g = site_gather();
  __m256i idx = _mm256_setr_epi32(0, 8, 16, 24, 32, 40, 48, 56);
  __m256 v = _mm256_i32gather_ps(g, idx, 4);
  float *mg = site_mgather();
  __m256 m = _mm256_castsi256_ps(
      _mm256_setr_epi32(on, off, on, off, on, off, on, off));
  __m256 w = _mm256_mask_i32gather_ps(_mm256_setzero_ps(), mg, idx, m, 4);
  float *ml = site_maskload();
  __m256 x = _mm256_maskload_ps(
      ml, _mm256_setr_epi32(on, on, on, off, off, off, off, off));
  float *ms = site_maskstore();
  _mm256_maskstore_ps(ms, _mm256_setr_epi32(on, off, off, off, off, off, on, on),
                      x);
  char *c = site_lddqu();
  __m128i y = _mm_lddqu_si128((const __m128i *)c);
  char *mm = site_maskmov();
  _mm_maskmoveu_si128(y,
                      _mm_setr_epi8(on, on, on, on, on, off, off, off, off, off,
                                    off, off, off, off, off, off),
                      mm);
  float *g5 = site_g512();
  __m512 z = _mm512_i32gather_ps(_mm512_set1_epi32(3), g5, 4);
  float *s5 = site_s512();
  _mm512_mask_i32scatter_ps(s5, (__mmask16)0x0fff, _mm512_set1_epi32(5), z, 4);
  int *e = site_expand();
  __m512i ex = _mm512_mask_expandloadu_epi32(_mm512_setzero_si512(), 0x5, e);
  int *cs = site_compress();
  _mm512_mask_compressstoreu_epi32(cs, 0x3, ex);
  int *cd = site_compress_dyn();
  _mm512_mask_compressstoreu_epi32(cd + 16, (__mmask16)dynmask, ex);
  float sum = _mm256_cvtss_f32(_mm256_add_ps(_mm256_add_ps(v, w), x)) +
              _mm512_reduce_add_ps(z) + (float)_mm_cvtsi128_si32(y);
  printf("%d\n", sum == 0.0f);
  free(g), free(mg), free(ml), free(ms), free(c), free(mm);
  free(g5), free(s5), free(e), free(cs), free(cd);
  return 0;
}
