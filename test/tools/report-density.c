// The density of a context is its accesses per 100 bytes, of its totals
// (100 x accesses / bytes), rounded once where it is printed.  Two
// contexts:
//   spread: 500 objects of 64 bytes (32000 bytes), 400 stored to twice and
//           100 once: 900 accesses, 2.8125 per 100 bytes;
//   even:   100 objects of 100 bytes (10000 bytes), 70 stored to three
//           times and 30 twice: 270 accesses, 2.7 per 100 bytes.
// The runtime records each object's accesses * 100 / size rounded down to
// an integer (TotalAccessDensity): spread's 2 stores are 3.125, kept as 3,
// its 1 store 1.5625, kept as 1; the mean of those, (400 x 3 + 100) / 500 =
// 2.6, is what the report printed, and --sort density put even (2.7, no
// rounding at 100 bytes) above spread.
// Under --sort density (and lifetime) the percentage is the share of the
// bytes, since an average doesn't add up over contexts, and the row says
// so: 32000 of 42000 bytes is 76.2%, 10000 is 23.8%.  It read "#1  76.2%
// 2.81 accesses per 100 bytes", under "Top contexts by density".  Under an
// additive measure it is the measure's own share: 900 of 1170 accesses is
// 76.9%, 270 is 23.1%.
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: %clang_heapprof -O0 -g %s -o %t
// RUN: %env_heapprof_opts=profile_dir=%t.d %run %t
// RUN: heapprof report %t.d | FileCheck %s
// RUN: heapprof report --sort density %t.d | FileCheck %s --check-prefix=SORT
// RUN: heapprof report --sort lifetime %t.d | FileCheck %s --check-prefix=LIFE
// RUN: heapprof report --sort accesses %t.d | FileCheck %s --check-prefix=ACC
// RUN: heapprof report --format json --sort density %t.d > %t.json
// RUN: %python -c 'import json,sys; r=json.load(open(sys.argv[1])); print(" ".join("%%s %%s" %% (c["derived"]["access_density"], c["percent"]) for c in r["contexts"]))' %t.json | FileCheck %s --check-prefix=JSON
#include <stdlib.h>

char *volatile spread_objs[500], *volatile even_objs[100];

__attribute__((noinline)) static void spread(void) {
  for (int i = 0; i < 500; i++) {
    char *volatile p = malloc(64);
    p[0] = 1;
    if (i % 5)
      p[8] = 2;
    spread_objs[i] = p;
  }
}

__attribute__((noinline)) static void even(void) {
  for (int i = 0; i < 100; i++) {
    char *volatile p = malloc(100);
    p[0] = 1;
    p[8] = 2;
    if (i % 10 < 7)
      p[16] = 3;
    even_objs[i] = p;
  }
}

int main(void) {
  spread();
  even();
  for (int i = 0; i < 500; i++)
    free(spread_objs[i]);
  for (int i = 0; i < 100; i++)
    free(even_objs[i]);
  return 0;
}

// CHECK: == Access and allocator measures of the top contexts
// CHECK-NEXT: # acc/object density
// CHECK-NEXT: #1 1.8 2.8 {{.*}}
// CHECK-NEXT: #2 2.7 2.7 {{.*}}

// SORT: == Top contexts by density
// SORT-NEXT: #1 76.2% of bytes 2.81 accesses per 100 bytes, 31.2 KiB in 500 objects (64 B each), 0 live (0 B), 900 accesses (1.8 per object)
// SORT-NEXT: spread
// SORT: #2 23.8% of bytes 2.70 accesses per 100 bytes, 9.8 KiB in 100 objects (100 B each), 0 live (0 B), 270 accesses (2.7 per object)
// SORT-NEXT: even


// LIFE: == Top contexts by lifetime
// LIFE-NEXT: #1 {{76.2|23.8}}% of bytes {{[0-9.]+}} ms average lifetime,
// LIFE: #2 {{76.2|23.8}}% of bytes {{[0-9.]+}} ms average lifetime,

// ACC: == Top contexts by accesses
// ACC-NEXT: #1 76.9% 31.2 KiB in 500 objects
// ACC: #2 23.1% 9.8 KiB in 100 objects

// The JSON has two decimals: 2.81 and 2.70 per 100 bytes, 76.19% and
// 23.81% of the bytes.
// JSON: 2.81 76.19 2.7 23.81
