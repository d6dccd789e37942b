// The allocator's state at the peak (the overhead, tag 5) reads the whole
// heap, so it is measured only at a best an eighth above the last one
// measured, or at a dump (heapprof_peak.h).  Site A allocates 16 x 1 MiB
// and frees them, then 17, then (with argument 3) 18:
//   16 MiB: the first snapshot, measured;
//   17 MiB: a new peak (the step is 1 MiB: min(threshold, 16 MiB / 8)),
//           but below 16 + 16/8 = 18 MiB: not measured, tag 5 stays at
//           16 MiB and the report says it was measured below the peak;
//   18 MiB: a new peak, 18 >= 18: measured there.
// A 1 MiB chunk is mapped with one page before it (descriptor and header):
// its block is 1 MiB + 4 KiB, 4 KiB of it header.
// RUN: %clang_heapprof -O0 -g %s -o %t
// RUN: rm -rf %t.2 %t.3 && mkdir -p %t.2 %t.3
// RUN: %env_heapprof_opts=profile_dir=%t.2 %run %t 2
// RUN: %env_heapprof_opts=profile_dir=%t.3 %run %t 3
// RUN: heapprof report --format json --top 0 %t.2 > %t.2.json
// RUN: heapprof report --format json --top 0 %t.3 > %t.3.json
// RUN: %python %S/Inputs/peak_check.py %t.2.json peak_bytes=17825792 site_a=17,17825792 peak.snapshots=3
// RUN: %python %S/Inputs/peak_check.py %t.3.json peak_bytes=18874368 site_a=18,18874368 peak.snapshots=4
// RUN: %python -c "import json,sys; o=json.load(open(sys.argv[1]))['peak']['overhead']; assert (o['requested'], o['blocks'], o['headers']) == (16 << 20, 16 * 1052672, 16 * 4096), o" %t.2.json
// RUN: %python -c "import json,sys; o=json.load(open(sys.argv[1]))['peak']['overhead']; assert (o['requested'], o['blocks'], o['headers']) == (18 << 20, 18 * 1052672, 18 * 4096), o" %t.3.json
// RUN: heapprof report %t.2 | FileCheck %s --check-prefix=BELOW
// BELOW: memory overhead near the peak, measured at 16.0 MiB live (the peak: 17.0 MiB):
// RUN: heapprof report %t.3 | FileCheck %s --check-prefix=AT
// AT: memory overhead at the peak:
#include <stdlib.h>

__attribute__((noinline)) static char *site_a(void) { return malloc(1 << 20); }
static char *volatile a[18];

static void phase(int n) {
  for (int i = 0; i < n; i++)
    a[i] = site_a();
  for (int i = 0; i < n; i++)
    free(a[i]);
}

int main(int argc, char **argv) {
  phase(16);
  phase(17);
  if (argc > 1 && argv[1][0] == '3')
    phase(18);
  return 0;
}
