// heapprof diff --sort: the order of the changed contexts.  Two runs of one
// build; the second (NEW=1) changes each site's count of 100-byte (or 10-,
// 20-byte) objects, all freed:
//   grow_big     10 -> 30 x 100 B   +2000 B
//   grow_small    1 ->  2 x  10 B     +10 B
//   shrink_small  3 ->  2 x  20 B     -20 B
//   shrink_big   50 -> 10 x 100 B   -4000 B
// RUN: rm -rf %t.base %t.new && mkdir -p %t.base %t.new
// RUN: %clang_heapprof -O0 -g %s -o %t
// RUN: %env_heapprof_opts=profile_dir=%t.base %run %t
// RUN: env NEW=1 HEAPPROF_OPTIONS=profile_dir=%t.new %run %t
// growth (the default): the biggest growth first, the biggest shrink last;
// when --top cuts a shrink off, the note says how to see it first.
// RUN: heapprof diff --top 2 %t.base %t.new | FileCheck %s --check-prefix=GROWTH
// RUN: heapprof diff --top 2 --sort growth %t.base %t.new | FileCheck %s --check-prefix=GROWTH
// GROWTH: == Contexts by growth of bytes
// Every object is freed before its thread allocates again: all temporary.
// GROWTH-NEXT: #1  grew  bytes +2000 B (1000 B -> 3000 B), allocs +20, live 0 B in 0 objects, accesses 0, temporary +20{{$}}
// GROWTH-NEXT: grow_big
// GROWTH: #2  grew  bytes +10 B (10 B -> 20 B), allocs +1
// GROWTH-NEXT: grow_small
// GROWTH: (2 more changed contexts; --top 0 shows all, --sort shrink the biggest shrinks first)
// RUN: heapprof diff --top 0 %t.base %t.new | FileCheck %s --check-prefix=ALL
// ALL: #1  grew  bytes +2000 B
// ALL: #2  grew  bytes +10 B
// ALL: #3  shrank  bytes -20 B
// ALL: #4  shrank  bytes -4000 B
// ALL-NOT: more changed
// RUN: heapprof diff --sort shrink %t.base %t.new | FileCheck %s --check-prefix=SHRINK
// SHRINK: == Contexts by shrink of bytes
// SHRINK-NEXT: #1  shrank  bytes -4000 B (5000 B -> 1000 B), allocs -40
// SHRINK-NEXT: shrink_big
// SHRINK: #2  shrank  bytes -20 B (60 B -> 40 B), allocs -1
// SHRINK: #3  grew  bytes +10 B
// SHRINK: #4  grew  bytes +2000 B
// RUN: heapprof diff --top 3 --sort change %t.base %t.new | FileCheck %s --check-prefix=CHANGE
// CHANGE: == Contexts by change of bytes, either way
// CHANGE-NEXT: #1  shrank  bytes -4000 B
// CHANGE: #2  grew  bytes +2000 B
// CHANGE: #3  shrank  bytes -20 B
// CHANGE: (1 more changed context; --top 0 shows all)
// The JSON rows come in the same order and say which.
// RUN: heapprof diff --sort change --format json %t.base %t.new > %t.json
// RUN: %python -c "import json,sys; d=json.load(open(sys.argv[1])); print(d['options']['sort'], [c['bytes']['delta'] for c in d['contexts']])" %t.json | FileCheck %s --check-prefix=JSON
// JSON: change [-4000, 2000, -20, 10]
// RUN: not heapprof diff --sort size %t.base %t.new 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: heapprof: error: --sort: unknown order 'size' (growth, shrink or change)
#include <stdlib.h>

static void churn(char *(*alloc)(void), int n) {
  for (int i = 0; i < n; i++)
    free(alloc());
}
__attribute__((noinline)) static char *grow_big(void) { return malloc(100); }
__attribute__((noinline)) static char *grow_small(void) { return malloc(10); }
__attribute__((noinline)) static char *shrink_small(void) { return malloc(20); }
__attribute__((noinline)) static char *shrink_big(void) { return malloc(100); }

int main(void) {
  int later = getenv("NEW") != NULL;
  churn(grow_big, later ? 30 : 10);
  churn(grow_small, later ? 2 : 1);
  churn(shrink_small, later ? 2 : 3);
  churn(shrink_big, later ? 10 : 50);
  return 0;
}
