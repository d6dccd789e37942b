// heapprof diff's status of a context whose requested bytes did not
// change: it grew or shrank by its live bytes (cmd_diff.cpp, Row::status:
// the --by measure, else bytes, else live bytes), not "changed otherwise".
// Two runs of one program; each site allocates 10 objects of 100 bytes
// (1000 B, the same in both runs) and keeps some of them to the end:
//   hold_more   keeps 0, then 3:  live 0 B -> 300 B     grew
//   hold_fewer  keeps 5, then 2:  live 500 B -> 200 B   shrank
// RUN: rm -rf %t.base %t.new && mkdir -p %t.base %t.new
// RUN: %clang_heapprof -O0 -g %s -o %t
// RUN: %env_heapprof_opts=profile_dir=%t.base:detect_leaks=0 %run %t 0 5
// RUN: %env_heapprof_opts=profile_dir=%t.new:detect_leaks=0 %run %t 3 2
// RUN: heapprof diff %t.base %t.new | FileCheck %s
// RUN: heapprof diff --format json %t.base %t.new | %python -c "import json,sys; [print(c['stack'][0]['function'], c['status']) for c in json.load(sys.stdin)['contexts']]" | FileCheck %s --check-prefix=JSON
// CHECK: changed contexts: 0 new, 0 gone, 1 grew, 1 shrank, 0 changed otherwise;
// JSON-DAG: hold_more grew
// JSON-DAG: hold_fewer shrank
#include <stdlib.h>

static void *volatile kept[20];

__attribute__((noinline)) static void *hold_more(void) { return malloc(100); }
__attribute__((noinline)) static void *hold_fewer(void) { return malloc(100); }

int main(int argc, char **argv) {
  int more = argc > 2 ? atoi(argv[1]) : 0;
  int fewer = argc > 2 ? atoi(argv[2]) : 0;
  for (int i = 0; i < 10; i++) {
    void *p = hold_more();
    if (i < more)
      kept[i] = p;
    else
      free(p);
  }
  for (int i = 0; i < 10; i++) {
    void *p = hold_fewer();
    if (i < fewer)
      kept[10 + i] = p;
    else
      free(p);
  }
  return 0;
}
