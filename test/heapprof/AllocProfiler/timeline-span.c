// The heap over time's axis ends at the run's span, the summary's "time
// span" (the last dump, ms since the start), not at the end of the bucket
// or column that holds that dump.  The program holds 4 blocks of 64 KiB
// for 30 ms, frees 2 and waits 30 ms more: about 60 ms, a chart of 1 ms
// buckets.  The last bucket starts at or before the exit dump's time and
// ends after it, so the old axis, the end of the last column
// (columns x column width), always read more than the span: 94 ms for a
// run of 92 ms in 2 ms columns.  The HTML page's axis (data-end-ms) ends
// there too (tools/html-timeline-span.test runs this program).
// RUN: %clang_heapprof -O0 -g %s -o %t
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: %env_heapprof_opts=profile_dir=%t.d %run %t
// RUN: heapprof report %t.d | FileCheck %s
// RUN: heapprof report --format json %t.d > %t.json
// RUN: heapprof report %t.d > %t.txt
// RUN: %python %S/Inputs/timeline_check.py --text %t.json %t.txt | FileCheck %s --check-prefix=CHART
#include <stdlib.h>
#include <time.h>

#define BLOCK (64 << 10)
static char *volatile blocks[4];

static void pause_ms(long ms) {
  struct timespec t = {0, ms * 1000000L};
  nanosleep(&t, NULL);
}

int main(void) {
  for (int i = 0; i < 4; i++)
    blocks[i] = malloc(BLOCK);
  pause_ms(30);
  free(blocks[0]);
  free(blocks[1]);
  pause_ms(30);
  return 0;
}

// CHECK: time span [[#SPAN:]] ms (start to last dump)
// CHECK: == The heap over time: live requested bytes
// CHECK: 0 B +--
// CHECK-NEXT: {{^}} 0 ms [[#SPAN]] ms{{$}}
// CHECK-NEXT: (each column {{[0-9]+}} ms:

// CHART: chart
