// The call graph's edges under --top.  Twelve callers c0..c11 each call
// alloc_one once, ci with (i + 1) x 100 bytes, and main calls all twelve.
// alloc_one has 12 callers and main 12 callees, by bytes c11 (1200 B) down
// to c0 (100 B): --top 10 lists c11..c2 and sums c1 and c0 into one line of
// 300 bytes in 2 calls; --top 0 lists all twelve.
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: %clang_heapprof -O0 -g %s -o %t
// RUN: %env_heapprof_opts=profile_dir=%t.dir %run %t
// RUN: heapprof report %t.dir | FileCheck %s
// alloc_one and main both total 7800 bytes in 12 calls: the name orders
// them, alloc_one [1] first.
// CHECK: == Allocation call graph
// CHECK-NEXT: index
// CHECK-NEXT: 1200 B {{ *}}1 {{ *}}c11 [
// CHECK-COUNT-9: {{^ +[0-9]+ B +1 +c[0-9]+ \[}}
// CHECK-NEXT: 300 B {{ *}}2 {{ *}}(2 more callers; --top 0 shows all)
// CHECK-NEXT: [1] {{.*}} 7800 B {{ *}}7800 B {{ *}}12 {{ *}}alloc_one [1]
// CHECK-NEXT: -----
// CHECK-NEXT: [2] {{.*}} 0 B {{ *}}7800 B {{ *}}12 {{ *}}main [2]
// CHECK-NEXT: 1200 B {{ *}}1 {{ *}}c11 [
// CHECK-COUNT-9: {{^ +[0-9]+ B +1 +c[0-9]+ \[}}
// CHECK-NEXT: 300 B {{ *}}2 {{ *}}(2 more callees; --top 0 shows all)
// CHECK-NEXT: -----
// RUN: heapprof report --top 0 %t.dir | FileCheck %s --check-prefix=ALL
// ALL: 100 B {{ *}}1 {{ *}}c0 [
// ALL-NEXT: [1] {{.*}}alloc_one [1]
// ALL-NOT: more callers
// RUN: heapprof report --format json %t.dir > %t.json
// RUN: %python -c "import json,sys; g={e['name']: e for e in json.load(open(sys.argv[1]))['callgraph']}; a=g['alloc_one']; print(len(a['callers']), a['callers_omitted'], a['callees_omitted'])" %t.json | FileCheck %s --check-prefix=JSON
// JSON: 10 {'edges': 2, 'bytes': 300, 'calls': 2} {'edges': 0, 'bytes': 0, 'calls': 0}
#include <stdlib.h>

__attribute__((noinline)) static void alloc_one(size_t n) {
  void *volatile p = malloc(n);
  free(p);
}

#define CALLER(i)                                                             \
  __attribute__((noinline)) static void c##i(void) { alloc_one((i + 1) * 100); }
CALLER(0) CALLER(1) CALLER(2) CALLER(3) CALLER(4) CALLER(5)
CALLER(6) CALLER(7) CALLER(8) CALLER(9) CALLER(10) CALLER(11)

int main(void) {
  c0(); c1(); c2(); c3(); c4(); c5();
  c6(); c7(); c8(); c9(); c10(); c11();
  return 0;
}
