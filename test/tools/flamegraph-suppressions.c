// heapprof flamegraph --weight leaked --suppressions: a context a rule
// (leak:PATTERN, as report reads it) takes weighs 0, as report leaves it out
// of its leak table.  The program leaks, its pointers dropped:
//   main -> leak_a: 100 x 204 B = 20,400 B
//   main -> leak_b:  50 x  40 B =  2,000 B
// and keeps 10 x 96 B = 960 B reachable from a global (live, not leaked).
// test/tools/pprof-suppressions.test reads the same program's pprof export.
// RUN: %clang_heapprof -O0 -g %s -o %t
// RUN: rm -rf %t.d %t.off && mkdir -p %t.d %t.off
// RUN: %env_heapprof_opts=profile_dir=%t.d %run %t
// Without rules: both leaking stacks, nothing of keep_c.
// RUN: heapprof flamegraph --weight leaked %t.d | FileCheck %s --check-prefix=ALL --implicit-check-not=keep_c
// ALL: {{^}}main;leak_a 20400{{$}}
// ALL-NEXT: {{^}}main;leak_b 2000{{$}}
// ALL-EMPTY:
// leak_a suppressed: leak_b's 2,000 bytes alone.
// RUN: printf '# known\nleak:leak_a\n' > %t.supp
// RUN: heapprof flamegraph --weight leaked --suppressions %t.supp %t.d | FileCheck %s --check-prefix=SUPP --implicit-check-not=keep_c
// SUPP: {{^}}main;leak_b 2000{{$}}
// SUPP-EMPTY:
// The picture (--svg): its root, "all", weighs the 2,000 bytes left.
// RUN: heapprof flamegraph --weight leaked --suppressions %t.supp -o %t.svg %t.d
// RUN: FileCheck %s --check-prefix=SVG < %t.svg
// SVG: <title>all (2000 leaked bytes, 100.00%)</title>
// SVG-NOT: leak_a
// Both stacks suppressed (a rule matching main: every stack has it):
// nothing is left to draw.
// RUN: printf 'leak:^main$\n' > %t.main
// RUN: heapprof flamegraph --weight leaked --suppressions %t.main %t.d | count 0
// The rules take from the leaked weight only; another weight with them
// is a usage error rather than rules dropped without a word.
// RUN: not heapprof flamegraph --suppressions %t.supp %t.d 2>&1 | FileCheck %s --check-prefix=WEIGHT
// RUN: not heapprof flamegraph --weight live --suppressions %t.supp %t.d 2>&1 | FileCheck %s --check-prefix=WEIGHT
// WEIGHT: heapprof: error: --suppressions takes contexts out of the leaked weight only: give --weight leaked
// WEIGHT-NEXT: usage: heapprof flamegraph
// RUN: %python -c "import subprocess as s, sys; sys.exit(s.call(['heapprof', 'flamegraph', '--suppressions', sys.argv[1], sys.argv[2]], stderr=s.DEVNULL) != 2)" %t.supp %t.d
// A bad rules file: report's one error naming the file and line, exit 1,
// no output.
// RUN: printf 'leak:x\nrace:y\n' > %t.race
// RUN: not heapprof flamegraph --weight leaked -o %t.out --suppressions %t.race %t.d 2>&1 | FileCheck %s --check-prefix=RACE -DFILE=%t.race
// RACE: heapprof: error: [[FILE]]:2: unknown suppression type 'race' (heapprof reads leak:PATTERN)
// RACE-EMPTY:
// RUN: test ! -e %t.out
// RUN: not heapprof flamegraph --weight leaked --suppressions %t.nofile %t.d 2>&1 | FileCheck %s --check-prefix=NOFILE -DFILE=%t.nofile
// NOFILE: heapprof: error: [[FILE]]: cannot open: No such file or directory
#include <stdlib.h>
#include <string.h>

static void *kept[10]; // a root: keep_c's blocks are reachable

__attribute__((noinline)) static void leak_a(void) {
  char *p = malloc(204);
  memset(p, 0x5a, 204); // no pointer inside
}
__attribute__((noinline)) static void leak_b(void) {
  char *p = malloc(40);
  memset(p, 0x5a, 40);
}
__attribute__((noinline)) static void *keep_c(void) { return calloc(1, 96); }

// No stale copy of a dropped pointer left on the stack the check reads.
#include "../heapprof/Inputs/clobber.h"

int main(void) {
  for (int i = 0; i < 100; i++)
    leak_a();
  for (int i = 0; i < 50; i++)
    leak_b();
  for (int i = 0; i < 10; i++)
    kept[i] = keep_c();
  clobber();
  return 0;
}
