// heapprof report --suppressions: LeakSanitizer's rules (leak:PATTERN)
// take contexts out of the leak table, and the report says what each rule
// took.  The program leaves live at exit: 3 x 100 B from leak_a, 2 x 40 B
// from leak_b, 1 x 1000 B from leak_c, 4 x 10 B from keep_d (1420 B).
// RUN: %clang_heapprof -O0 -g %s -o %t
// RUN: rm -rf %t.d && mkdir -p %t.d
// The live table (kept[] reaches every block: the leak check would list
// none; test/tools/leaks.c suppresses in its table).
// RUN: %env_heapprof_opts=profile_dir=%t.d:detect_leaks=0 %run %t
// Rules: a substring (leak_a), an anchored whole name (^leak_b$), a
// wildcard (lea*_c), one that matches no name (^eak: anchored at the
// start), and a comment and a blank line.
// RUN: printf '# ours\n\nleak:leak_a\nleak:^leak_b$\n  leak:lea*_c  \nleak:^eak\n' > %t.supp
// RUN: heapprof report --suppressions %t.supp %t.d | FileCheck %s
// Only keep_d's 40 bytes are left: 100 % of what the table shows.
// CHECK: == Memory leaks: live at the end, by allocation site and 2 callers
// CHECK-NEXT: bytes %  objects  call chain
// CHECK-NEXT: 40 B  100.0% 4  keep_d (
// CHECK-NEXT: suppressed (--suppressions):
// CHECK-NEXT: bytes  objects  contexts  rule
// CHECK-NEXT: 300 B 3 1  leak:leak_a  ({{.*}}.supp:3)
// CHECK-NEXT: 80 B 2 1  leak:^leak_b$  ({{.*}}.supp:4)
// CHECK-NEXT: 1000 B 1 1  leak:lea*_c  ({{.*}}.supp:5)
// CHECK-NEXT: 0 B 0 0  leak:^eak  ({{.*}}.supp:6)
// CHECK-EMPTY:
// The summary still counts everything live.
// RUN: heapprof report --suppressions %t.supp %t.d | FileCheck %s --check-prefix=SUMMARY
// SUMMARY: live at the end 10 objects, 1420 bytes
// A source file's name matches too: every frame is in this file.
// RUN: printf 'leak:report-suppressions.c$\n' > %t.all
// RUN: heapprof report --suppressions %t.all %t.d | FileCheck %s --check-prefix=ALL
// ALL: == Memory leaks
// ALL-NEXT: (everything live at the end was suppressed)
// ALL-NEXT: suppressed (--suppressions):
// ALL-NEXT: bytes objects contexts rule
// ALL-NEXT: 1420 B 10 4 leak:report-suppressions.c$
// Two files, read in order; the JSON has the rules' counts.
// RUN: printf 'leak:keep_d\n' > %t.more
// RUN: heapprof report --format json --suppressions %t.supp --suppressions %t.more %t.d > %t.json
// RUN: %python -c "import json,sys; r=json.load(open(sys.argv[1])); print(r['leaks'], [(s['rule'], s['objects'], s['bytes'], s['contexts']) for s in r['leaks_suppressed']])" %t.json | FileCheck %s --check-prefix=JSON
// JSON: [] [('leak:leak_a', 3, 300, 1), ('leak:^leak_b$', 2, 80, 1), ('leak:lea*_c', 1, 1000, 1), ('leak:^eak', 0, 0, 0), ('leak:keep_d', 4, 40, 1)]
// Bad rules files: one error naming the file (and line), exit 1, nothing
// written.
// RUN: not heapprof report --suppressions %t.nofile %t.d 2>&1 | FileCheck %s --check-prefix=NOFILE -DFILE=%t.nofile
// NOFILE: heapprof: error: [[FILE]]: cannot open: No such file or directory
// RUN: printf 'leak:x\nrace:y\n' > %t.race
// RUN: not heapprof report -o %t.out --suppressions %t.race %t.d 2>&1 | FileCheck %s --check-prefix=RACE -DFILE=%t.race
// RACE: heapprof: error: [[FILE]]:2: unknown suppression type 'race' (heapprof reads leak:PATTERN)
// RUN: test ! -e %t.out
// RUN: printf 'leak:\n' > %t.empty
// RUN: not heapprof html -o %t.html --suppressions %t.empty %t.d 2>&1 | FileCheck %s --check-prefix=EMPTY -DFILE=%t.empty
// EMPTY: heapprof: error: [[FILE]]:1: leak: without a pattern
// RUN: printf 'leak_a\n' > %t.nocolon
// RUN: not heapprof report --suppressions %t.nocolon %t.d 2>&1 | FileCheck %s --check-prefix=NOCOLON -DFILE=%t.nocolon
// NOCOLON: heapprof: error: [[FILE]]:1: not a suppression: 'leak_a' (one rule a line: leak:PATTERN)
#include <stdlib.h>

static char *volatile kept[16];
static int n;

__attribute__((noinline)) static void leak_a(void) { kept[n++] = malloc(100); }
__attribute__((noinline)) static void leak_b(void) { kept[n++] = malloc(40); }
__attribute__((noinline)) static void leak_c(void) { kept[n++] = malloc(1000); }
__attribute__((noinline)) static void keep_d(void) { kept[n++] = malloc(10); }

int main(void) {
  for (int i = 0; i < 3; i++)
    leak_a();
  for (int i = 0; i < 2; i++)
    leak_b();
  leak_c();
  for (int i = 0; i < 4; i++)
    keep_d();
  return 0;
}
