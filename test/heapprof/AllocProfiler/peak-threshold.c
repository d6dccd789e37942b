// peak_threshold_kb trades exactness for fewer heap walks.  Site A reaches
// 8 MiB (8 x 1 MiB) and frees it: the first peak, snapshotted at its top.
// The next snapshot needs the heap to grow by a step above it: an eighth of
// the peak (1 MiB here), at most the threshold.  Site B then reaches
// 8.5 MiB (17 x 512 KiB) and frees it.
//   default (1024 KiB): step 1 MiB, 8.5 MiB never arms: the peak stays A's
//     8 MiB, half a MiB low, within the documented bound of one step;
//   peak_threshold_kb=256: step 256 KiB, B arms at 8.25 MiB and its top,
//     8.5 MiB, becomes the peak (B 17 objects, A none);
//   peak=0: no peak recorded at all (report JSON: null).
// RUN: %clang_heapprof -O0 -g %s -o %t
// RUN: rm -rf %t.1 %t.2 %t.3 && mkdir -p %t.1 %t.2 %t.3
// RUN: %env_heapprof_opts=profile_dir=%t.1 %run %t
// RUN: %env_heapprof_opts=profile_dir=%t.2:peak_threshold_kb=256 %run %t
// RUN: %env_heapprof_opts=profile_dir=%t.3:peak=0 %run %t
// RUN: heapprof report --format json --top 0 %t.1 > %t.1.json
// RUN: heapprof report --format json --top 0 %t.2 > %t.2.json
// RUN: heapprof report --format json --top 0 %t.3 > %t.3.json
// RUN: %python %S/Inputs/peak_check.py %t.1.json peak_bytes=8388608 site_a=8,8388608 site_b=0,0 peak.threshold_bytes=1048576
// RUN: %python %S/Inputs/peak_check.py %t.2.json peak_bytes=8912896 site_a=0,0 site_b=17,8912896 peak.threshold_bytes=262144
// RUN: %python %S/Inputs/peak_check.py %t.3.json peak_bytes=null peak_ms=null
// RUN: %python -c "import json,sys; r=json.load(open(sys.argv[1])); assert r['peak'] is None and 'peak_bytes' in r['missing'], r['missing']" %t.3.json
// RUN: heapprof show %t.3/*.profraw | FileCheck %s --check-prefix=OFF
// OFF-NOT: peak:
// OFF-NOT: overhead at the peak
// RUN: heapprof report %t.3 | FileCheck %s --check-prefix=OFFTEXT
// OFFTEXT: == The peak: the largest live heap
// OFFTEXT-NEXT: (the profile has no peak: written with peak=0 or by an older heapprof runtime)
#include <stdlib.h>

__attribute__((noinline)) static char *site_a(void) { return malloc(1 << 20); }
__attribute__((noinline)) static char *site_b(void) { return malloc(1 << 19); }
static char *volatile a[8], *volatile b[17];

int main(void) {
  for (int i = 0; i < 8; i++)
    a[i] = site_a();
  for (int i = 0; i < 8; i++)
    free(a[i]);
  for (int i = 0; i < 17; i++)
    b[i] = site_b();
  for (int i = 0; i < 17; i++)
    free(b[i]);
  return 0;
}
