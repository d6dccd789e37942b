// Stacks that reach malloc_context_size. The runtime records the limit in
// the profile (tag 12), and the tools end a stack of that many frames in a
// [stack limit: N frames] marker: its outer callers were not recorded.
//
//   main -> d1 -> ... -> d39 -> malloc(250) x 2: 40 frames, cut at 30:
//           d39 .. d10 recorded, the marker above d10;
//   main -> e1 -> ... -> e29 -> malloc(200): 30 frames, main the 30th:
//           whole, no marker (main's callers are libc's);
//   main -> s1 -> s2 -> malloc(300): 3 frames.
// 3 contexts; 1 at the limit (33.3%).
// RUN: rm -rf %t.dir %t.255 && mkdir -p %t.dir %t.255
// RUN: %clang_heapprof -O0 -g %s -o %t
// RUN: %env_heapprof_opts=profile_dir=%t.dir %run %t
// RUN: %env_heapprof_opts=profile_dir=%t.255:malloc_context_size=255 %run %t
// RUN: heapprof show %t.dir/*.profraw | FileCheck %s --check-prefix=SHOW
// SHOW: stacks: malloc_context_size=30 fold_recursion=1
// RUN: heapprof report %t.dir | FileCheck %s --check-prefix=REPORT
// REPORT: contexts         3
// REPORT-NEXT: stack limit      1 of the contexts (33.3%) reached malloc_context_size=30 frames: callers beyond are not recorded
// REPORT: #1 {{.*}} 500 B in 2 objects
// REPORT-NEXT: {{^ +}}d39{{ +}}
// REPORT: {{^ +}}d10{{ +}}
// REPORT-NEXT: {{^ +}}[stack limit: 30 frames]{{ *$}}
// REPORT-NEXT: #2 {{.*}} 300 B in 1 object
// REPORT: #3 {{.*}} 200 B in 1 object
// REPORT-NEXT: {{^ +}}e29{{ +}}
// REPORT: {{^ +}}e1{{ +}}
// REPORT-NEXT: {{^ +}}main{{ +}}
// REPORT-NEXT: {{^$}}
// RUN: heapprof flamegraph %t.dir | FileCheck %s --check-prefix=FOLDED
// FOLDED-DAG: {{^}}[stack limit: 30 frames];d10;d11;{{.*}};d38;d39 500{{$}}
// FOLDED-DAG: {{^}}main;e1;e2;{{.*}};e29 200{{$}}
// FOLDED-DAG: {{^}}main;s1;s2 300{{$}}
// In heapprof's own SVG the marker is grey, not a function's warm colour:
// RUN: heapprof flamegraph --svg %t.dir | FileCheck %s --check-prefix=SVG
// SVG: <title>[stack limit: 30 frames] (500 bytes, 50.00%)</title><rect {{.*}} fill="rgb(200,200,200)"
// RUN: heapprof report --format json %t.dir | %python -c "import json,sys; s=json.load(sys.stdin)['summary']; assert (s['stack_limit'], s['contexts_at_stack_limit'], s['contexts']) == (30, 1, 3), s"
// With 255 frames every stack is whole: no marker, no summary line.
// RUN: heapprof report %t.255 | FileCheck %s --check-prefix=WHOLE
// WHOLE-NOT: stack limit
// RUN: heapprof flamegraph %t.255 | FileCheck %s --check-prefix=WHOLE-FOLDED
// WHOLE-FOLDED: {{^}}main;d1;d2;{{.*}};d39 500{{$}}
// heapprof merge keeps the limit when the profiles agree, and says
// "several" (0) when they do not: then each dump's own limit still marks
// its stacks in a report of the inputs, but the merged file cannot.
// RUN: heapprof merge -o %t.same.profraw %t.dir/*.profraw %t.dir/*.profraw
// RUN: heapprof show %t.same.profraw | FileCheck %s --check-prefix=SHOW
// RUN: heapprof merge -o %t.mixed.profraw %t.dir/*.profraw %t.255/*.profraw
// RUN: heapprof show %t.mixed.profraw | FileCheck %s --check-prefix=MIXED
// MIXED: stacks: malloc_context_size=0 fold_recursion=1
// heapprof diff says when the two sides' limits differ (the two calls of
// d1 from main are one context cut at 30 frames, two whole):
// RUN: heapprof diff %t.dir %t.255 | FileCheck %s --check-prefix=DIFF
// DIFF: changed contexts: 2 new, 1 gone,
// DIFF-NEXT: (BASE's stacks were taken with malloc_context_size=30, NEW's with 255: a stack deeper than 30 frames is a different context on each side)
// RUN: heapprof diff %t.dir %t.dir | FileCheck %s --check-prefix=SAMEDIFF
// SAMEDIFF: changed contexts:
// SAMEDIFF-NOT: malloc_context_size
// RUN: heapprof report %t.dir %t.255 | FileCheck %s --check-prefix=BOTH
// BOTH: stack limit      1 of the contexts ({{.*}}) reached their malloc_context_size frames
#include <stdlib.h>

static void *volatile sink[4];
static int n;

#define NI __attribute__((noinline))
#define CHAIN(p, i, next) NI static void p##i(size_t s) { next(s); __asm__ volatile(""); }
NI static void d39(size_t s) { sink[n++] = malloc(s); }
NI static void e29(size_t s) { sink[n++] = malloc(s); }
NI static void s2(size_t s) { sink[n++] = malloc(s); }
CHAIN(s, 1, s2)
#define D(i, j) CHAIN(d, i, d##j)
D(38, 39) D(37, 38) D(36, 37) D(35, 36) D(34, 35) D(33, 34) D(32, 33) D(31, 32)
D(30, 31) D(29, 30) D(28, 29) D(27, 28) D(26, 27) D(25, 26) D(24, 25) D(23, 24)
D(22, 23) D(21, 22) D(20, 21) D(19, 20) D(18, 19) D(17, 18) D(16, 17) D(15, 16)
D(14, 15) D(13, 14) D(12, 13) D(11, 12) D(10, 11) D(9, 10) D(8, 9) D(7, 8)
D(6, 7) D(5, 6) D(4, 5) D(3, 4) D(2, 3) D(1, 2)
#define E(i, j) CHAIN(e, i, e##j)
E(28, 29) E(27, 28) E(26, 27) E(25, 26) E(24, 25) E(23, 24) E(22, 23) E(21, 22)
E(20, 21) E(19, 20) E(18, 19) E(17, 18) E(16, 17) E(15, 16) E(14, 15) E(13, 14)
E(12, 13) E(11, 12) E(10, 11) E(9, 10) E(8, 9) E(7, 8) E(6, 7) E(5, 6)
E(4, 5) E(3, 4) E(2, 3) E(1, 2)

int main(void) {
  d1(250);
  d1(250);
  e1(200);
  s1(300);
  return 0;
}
