// The heap over time (tag 9).  Three phases: 128 blocks of 64 KiB (8 MiB),
// held for 100 ms, then freed; 100 ms with nothing live; then 32 blocks (2
// MiB) live at exit.  Each 64 KiB request moves the thread's pending bytes
// by a whole HP_PEAK_STEP, so every malloc and free is noted exactly: the
// highest size is 8388608, it falls to 0 at least 100 ms later (less the
// coarse clock's ticks), and the last bucket ends at 2097152 (the exit
// dump's exact snapshot) at least 100 ms after that.
// RUN: %clang_heapprof -O0 -g %s -o %t
// RUN: rm -rf %t.d %t.nopeak %t.m && mkdir -p %t.d %t.nopeak %t.m
// RUN: %env_heapprof_opts=profile_dir=%t.d %run %t
// RUN: heapprof report --format json %t.d > %t.json
// RUN: %python %S/Inputs/timeline_check.py %t.json 8388608 100 2097152
// The text chart: its top is the highest size, 8 MiB.
// RUN: heapprof report %t.d | FileCheck %s --check-prefix=TEXT
// TEXT: == The heap over time: live requested bytes
// TEXT-NEXT: 8.0 MiB |{{.*}}#
// TEXT: 4.0 MiB |
// TEXT: 0 B +--
// TEXT-NEXT: 0 ms {{.*}} ms
// TEXT-NEXT: (each column {{[0-9]+}} ms: '#' up to the lowest live size in it, ':' up to the highest
// RUN: heapprof report %t.d > %t.txt
// RUN: %python %S/Inputs/timeline_check.py --text %t.json %t.txt | FileCheck %s --check-prefix=CHART
// CHART: chart
// A run of a few ms is too short for a chart: one line says what the heap
// did.  Which form a run gets depends on its length; the check follows the
// rule (a chart from 8 buckets on) on what was recorded.
// RUN: rm -rf %t.short && mkdir -p %t.short
// RUN: env SHORT=1 HEAPPROF_OPTIONS=profile_dir=%t.short %run %t
// RUN: heapprof report --format json %t.short > %t.short.json
// RUN: heapprof report %t.short > %t.short.txt
// RUN: %python %S/Inputs/timeline_check.py --text %t.short.json %t.short.txt
// heapprof show lists the buckets.
// RUN: heapprof show %t.d/*.profraw | FileCheck %s --check-prefix=SHOW
// SHOW: timeline: bucket_ms={{[0-9]+}} buckets={{[0-9]+}}
// SHOW: highest=8388608
// heapprof merge keeps the timeline as written: the same report.
// RUN: heapprof merge -o %t.m/merged.profraw %t.d
// RUN: heapprof report --format json %t.m/merged.profraw > %t.m.json
// RUN: %python %S/Inputs/timeline_check.py %t.m.json 8388608 100 2097152
// RUN: %python -c "import json,sys; a,b=(json.load(open(f))['timeline']['buckets'] for f in sys.argv[1:]); assert a==b; print('same')" %t.json %t.m.json | FileCheck %s --check-prefix=SAME
// SAME: same
// Without the peak tracker there is no timeline, and the report says so.
// RUN: env HEAPPROF_OPTIONS=profile_dir=%t.nopeak:peak=0 %run %t
// RUN: heapprof report %t.nopeak | FileCheck %s --check-prefix=NONE
// NONE: == The heap over time: live requested bytes
// NONE-NEXT: (the profile has no timeline: written with peak=0 or by an older heapprof runtime)
// RUN: heapprof report --format json %t.nopeak | %python -c "import json,sys; print(json.load(sys.stdin)['timeline'])" | FileCheck %s --check-prefix=NULL
// NULL: None
// Sampled mode keeps neither (it sees only the sampled objects), and says so;
// nor does it time glibc's calls, which it makes directly.
// RUN: rm -rf %t.sampled && mkdir -p %t.sampled
// RUN: env HEAPPROF_OPTIONS=profile_dir=%t.sampled:sample_bytes=65536 %run %t
// RUN: heapprof report %t.sampled | FileCheck %s --check-prefix=SAMPLED
// SAMPLED: (the profile lacks op classes (section 2): sampled mode calls glibc's allocator directly and does not time it
// SAMPLED: (the profile has no peak: sampled mode does not track it, it sees only the sampled objects)
// SAMPLED: == The heap over time: live requested bytes
// SAMPLED-NEXT: (the profile has no timeline: sampled mode does not keep one, it sees only the sampled objects)
// A damaged timeline (more buckets than its bytes hold) is refused with
// one error naming the file, by report and by merge, which writes nothing.
// RUN: %python %S/Inputs/timeline_check.py --corrupt %t.d/heapprof.*.profraw %t.bad.profraw 1000000
// RUN: not heapprof report %t.bad.profraw 2>&1 | FileCheck %s --check-prefix=BAD -DFILE=%t.bad.profraw
// BAD: heapprof: error: [[FILE]]: corrupt: dump 0: the timeline section (tag 9) says 1000000 buckets, more than its {{[0-9]+}} bytes hold
// RUN: not heapprof merge -o %t.bad.merged %t.bad.profraw 2>&1 | FileCheck %s --check-prefix=BADMERGE -DFILE=%t.bad.profraw
// BADMERGE: heapprof: error: [[FILE]]: the dump at offset 0x0: the timeline section (tag 9) says 1000000 buckets
// RUN: test ! -e %t.bad.merged
#include <stdlib.h>
#include <time.h>

#define BLOCK (64 << 10)
static char *volatile blocks[128];

static void pause_ms(long ms) {
  struct timespec t = {0, ms * 1000000L};
  nanosleep(&t, NULL);
}

int main(void) {
  if (getenv("SHORT")) { /* 1 MiB, live at exit */
    for (int i = 0; i < 16; i++)
      blocks[i] = malloc(BLOCK);
    return 0;
  }
  for (int i = 0; i < 128; i++)
    blocks[i] = malloc(BLOCK);
  pause_ms(100);
  for (int i = 0; i < 128; i++)
    free(blocks[i]);
  pause_ms(100);
  for (int i = 0; i < 32; i++)
    blocks[i] = malloc(BLOCK);
  return 0;
}
