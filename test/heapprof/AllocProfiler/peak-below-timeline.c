// A peak that the heap passed by less than a snapshot's step, and the
// report saying so.  32 blocks of 64 KiB (2097152 bytes) are allocated;
// the first free after that takes the peak's snapshot (the tracker armed
// on the way up) with all 32 live.  The next step is an eighth of that
// peak, 256 KiB (below 8 x peak_threshold_kb the step is peak / 8), and the
// heap then rises by only 3 blocks, to 31 x 64 KiB + 3 x 64 KiB = 2228224
// bytes, before everything is freed: no new snapshot, so the peak stays
// 2097152 in 32 objects.  Each 64 KiB request publishes at once (a thread
// publishes after 64 KiB) and the program has one thread, so the heap
// over time notes exact sizes, 2228224 among them: 131072 bytes (128.0 KiB)
// above the peak, which the report states next to the peak.
// RUN: %clang_heapprof -O0 -g %s -o %t
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: %env_heapprof_opts=profile_dir=%t.d %run %t
// RUN: heapprof report %t.d | FileCheck %s
// CHECK: == The peak
// CHECK-NEXT: 2097152 bytes (2.0 MiB) requested in 32 objects at
// CHECK: (the heap over time noted 2228224 bytes (2.1 MiB) in {{[0-9]+}}-{{[0-9]+}} ms, 128.0 KiB above this peak: snapshots are a step apart, at most peak_threshold_kb (here 1.0 MiB), so the peak may be up to a step low)
// RUN: heapprof report --format json %t.d > %t.json
// RUN: %python -c "import json,sys; p=json.load(open(sys.argv[1]))['peak']; print(p['bytes'], p['objects'], p['timeline_above']['bytes'])" %t.json | FileCheck %s --check-prefix=JSON
// JSON: 2097152 32 2228224
// The page, in headless Chromium, says it under the peak's heading.
// RUN: rm -rf %t.chrome && heapprof html -o %t.html %t.d
// RUN: chromium --headless --no-sandbox --disable-gpu --user-data-dir=%t.chrome \
// RUN:   --virtual-time-budget=5000 --dump-dom 'file://%t.html' > %t.dom 2>/dev/null
// RUN: grep -o '<p class="note">[^<]*the heap over time noted[^<]*</p>' %t.dom | FileCheck %s --check-prefix=HTML
// HTML: 2.0 MiB requested in 32 objects at {{[0-9]+}} ms; the allocator's blocks {{.*}}; the heap over time noted 2.1 MiB at {{[0-9]+}} ms, 128.0 KiB above: snapshots are a step apart (at most peak_threshold_kb), so the peak may be up to a step low</p>
// A heap that peaks once, cleanly, gets no such line and null.
// RUN: rm -rf %t.one && mkdir -p %t.one
// RUN: %env_heapprof_opts=profile_dir=%t.one %run %t once
// RUN: heapprof report %t.one | FileCheck %s --check-prefix=ONCE
// ONCE: == The peak
// ONCE-NEXT: 2097152 bytes (2.0 MiB) requested in 32 objects at
// ONCE-NOT: heap over time noted
// ONCE: == The heap over time
// RUN: heapprof report --format json %t.one > %t.one.json
// RUN: %python -c "import json,sys; p=json.load(open(sys.argv[1]))['peak']; print(p['bytes'], p['timeline_above'])" %t.one.json | FileCheck %s --check-prefix=ONCE-JSON
// ONCE-JSON: 2097152 None
#include <stdlib.h>
#include <string.h>

#define BLOCK 65536
static void *volatile blocks[40];

int main(int argc, char **argv) {
  int once = argc > 1 && !strcmp(argv[1], "once");
  for (int i = 0; i < 32; i++)
    blocks[i] = malloc(BLOCK);
  free(blocks[31]); /* the snapshot: 32 live */
  int n = 31;
  if (!once)
    for (; n < 34; n++)
      blocks[n] = malloc(BLOCK);
  for (int i = 0; i < n; i++)
    free(blocks[i]);
  return 0;
}
