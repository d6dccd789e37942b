// The cold candidates are the contexts whose objects got fewer accesses than
// they have 8-byte words.  Ten objects a context, each freed at once:
//   exact:     24 bytes (3 words),    3 stores: as many as words, not cold;
//   over:    1000 bytes (125 words), 126 stores: more than words, not cold;
//   under:     24 bytes,              2 stores: cold;
//   under_big: 1000 bytes,          124 stores: cold.
// The runtime's access density is each object's accesses * 100 / size,
// rounded down: 3 to 24 bytes is 12.5, kept as 12, and 126 to 1000 bytes
// 12.6, kept as 12, both below the 12.5 of one access a word; the list
// took them from it and named exact and over cold too.  The JSON (whose
// list the HTML page shows) has the same two.  The density column is the
// context's 100 x accesses / bytes: 1240 stores to 10000 bytes, 12.4, and
// 20 to 240 bytes, 8.3 (8.0 when it was the mean of the runtime's rounded
// per-object densities).
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: %clang_heapprof -O0 -g %s -o %t
// RUN: %env_heapprof_opts=profile_dir=%t.d %run %t
// RUN: heapprof report %t.d | FileCheck %s
// RUN: heapprof report --format json %t.d > %t.json
// RUN: %python -c 'import json,sys; r=json.load(open(sys.argv[1])); print("cold", len(r["cold"]), sorted(x["bytes"] for x in r["cold"]))' %t.json | FileCheck %s --check-prefix=JSON
#include <stdlib.h>

__attribute__((noinline)) static void exact(void) {
  long *volatile p = malloc(24);
  p[0] = 1;
  p[1] = 2;
  p[2] = 3;
  free(p);
}

__attribute__((noinline)) static void over(void) {
  long *volatile p = malloc(1000);
  for (int i = 0; i < 126; i++)
    p[0] = i;
  free(p);
}

__attribute__((noinline)) static void under(void) {
  long *volatile p = malloc(24);
  p[0] = 1;
  p[1] = 2;
  free(p);
}

__attribute__((noinline)) static void under_big(void) {
  long *volatile p = malloc(1000);
  for (int i = 0; i < 124; i++)
    p[0] = i;
  free(p);
}

int main(void) {
  for (int i = 0; i < 10; i++) {
    exact();
    over();
    under();
    under_big();
  }
  return 0;
}

// CHECK-LABEL: == Cold candidates: fewer accesses than 8-byte words
// CHECK-NEXT: bytes objects acc/object density lifetime ms call chain
// CHECK-NEXT: 9.8 KiB 10 124.0 12.4 {{.*}} under_big ({{.*}}report-cold.c:
// CHECK-NEXT: 240 B 10 2.0 8.3 {{.*}} under ({{.*}}report-cold.c:
// CHECK-EMPTY:

// JSON: cold 2 [240, 10000]
