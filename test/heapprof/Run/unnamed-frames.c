// A program shipped stripped (as distributions ship theirs: no symbol
// table, its debug symbols in a separate file) and profiled under heapprof
// run has frames no symbol names; the report's summary says how many of
// the program's return addresses, and how to name them.  Here the three
// return addresses of the one allocating path (level2's call of malloc,
// level1's of level2, main's of level1) are all in the stripped program:
// 3 of 3.  With --debug-dir at its debug file, all three are named, and
// the summary has no such row for the program.
// RUN: %clang_plain -O0 -g %s -o %t
// RUN: rm -rf %t.debug %t.d && %python %S/../../tools/Inputs/split-debug.py %t %t.debug --all
// RUN: env -u LD_PRELOAD heapprof run -o %t.d -- %t
// RUN: heapprof report %t.d | FileCheck %s
// CHECK: unnamed{{ +}}unnamed-frames.c.tmp: 3 of 3 return addresses have no function name in its symbols (to name them: its separate debug file, found by build id in /usr/lib/debug or in --debug-dir DIR; or an unstripped build of it profiled in its place)
// CHECK: == Top contexts by bytes
// CHECK-NEXT: #1 100.0% 1045 B in 10 objects
// CHECK-NEXT: unnamed-frames.c.tmp+0x{{[0-9a-f]+$}}
// RUN: heapprof report --debug-dir %t.debug %t.d | FileCheck %s --check-prefix=NAMED
// NAMED-NOT: unnamed{{ +}}unnamed-frames.c.tmp:
// NAMED: == Top contexts by bytes
// NAMED-NEXT: #1 100.0% 1045 B in 10 objects
// NAMED-NEXT: level2 {{.*}}unnamed-frames.c:[[@LINE+9]]
// NAMED-NEXT: level1 {{.*}}unnamed-frames.c:[[@LINE+9]]
// NAMED-NEXT: main {{.*}}unnamed-frames.c:[[@LINE+13]]
// The JSON gives the counts of every module.
// RUN: heapprof report --format json %t.d | %python -c "import json,sys; m=[m for m in json.load(sys.stdin)['summary']['modules'] if m['main']][0]; print('program', m['addresses'], m['unnamed'])" | FileCheck %s --check-prefix=JSON
// JSON: program 3 3
#include <stdlib.h>

static void *volatile keep[10];
__attribute__((noinline)) static void *level2(int i) { return malloc(100 + i); }
__attribute__((noinline)) static void level1(int i) { keep[i] = level2(i); }

int main(void) {
  // 10 objects of 100 to 109 bytes: 1045 bytes.
  for (int i = 0; i < 10; i++)
    level1(i);
  for (int i = 0; i < 10; i++)
    free(keep[i]);
  return 0;
}
