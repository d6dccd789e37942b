// heapprof flamegraph on a known call tree, every weight, and the SVG.
//
//   main -> a -> b: malloc(40), 10 int stores, free     x3
//   main -> c: malloc(1000), kept                        x2
//   main -> rec(2) -> rec(1) -> rec(0): malloc(64), kept x1
//
// bytes: a;b 3*40 = 120, c 2*1000 = 2000, rec 64 (2184 in all)
// allocs: 3, 2, 1; accesses: a;b 3*10 = 30, the others 0 (left out);
// live: a;b freed everything (left out), c 2000, rec 64.
// fold_recursion=0 keeps rec's three frames.
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: %clang_heapprof -O0 -g %s -o %t
// RUN: %env_heapprof_opts=profile_dir=%t.dir:fold_recursion=0 %run %t
// RUN: heapprof flamegraph %t.dir | FileCheck %s --check-prefix=BYTES
// RUN: heapprof flamegraph --weight bytes %t.dir | FileCheck %s --check-prefix=BYTES
// RUN: heapprof flamegraph --weight allocs %t.dir | FileCheck %s --check-prefix=ALLOCS
// RUN: heapprof flamegraph --weight accesses %t.dir | FileCheck %s --check-prefix=ACCESSES
// RUN: heapprof flamegraph --weight=live %t.dir | FileCheck %s --check-prefix=LIVE
// RUN: heapprof flamegraph --weight temporary %t.dir | FileCheck %s --check-prefix=TEMPORARY
// RUN: heapprof flamegraph --svg -o %t.svg %t.dir
// RUN: %python %S/Inputs/check-flamegraph-svg.py %t.svg
// An output named .svg gets the SVG without --svg; another name the
// collapsed stacks:
// RUN: heapprof flamegraph -o %t.implicit.svg %t.dir
// RUN: cmp %t.svg %t.implicit.svg
// RUN: heapprof flamegraph -o %t.folded %t.dir
// RUN: FileCheck %s --check-prefix=BYTES < %t.folded
// RUN: heapprof flamegraph --weight live --svg %t.dir > %t.live.svg
// RUN: %python %S/Inputs/check-flamegraph-svg.py %t.live.svg live
// RUN: not heapprof flamegraph --weight size %t.dir 2>&1 | FileCheck %s --check-prefix=BADW
// RUN: not heapprof flamegraph -o %t.dir/no/such/out.svg --svg %t.dir 2>&1 | FileCheck %s --check-prefix=BADOUT
// RUN: test ! -e %t.dir/no
#include <stdlib.h>

void *volatile kept[3];

__attribute__((noinline)) static void b(void) {
  int *volatile p = malloc(10 * sizeof(int));
  for (int i = 0; i < 10; i++)
    p[i] = i;
  free(p);
}
__attribute__((noinline)) static void a(void) {
  for (int i = 0; i < 3; i++)
    b();
}
__attribute__((noinline)) static void *c(void) { return malloc(1000); }
__attribute__((noinline)) static void *rec(int n) {
  return n == 0 ? malloc(64) : rec(n - 1);
}

int main(void) {
  a();
  for (int i = 0; i < 2; i++)
    kept[i] = c();
  kept[2] = rec(2);
  return 0;
}

// Sorted, outermost frame first, the allocation site last.
// BYTES: {{^}}main;a;b 120{{$}}
// BYTES-NEXT: {{^}}main;c 2000{{$}}
// BYTES-NEXT: {{^}}main;rec;rec;rec 64{{$}}
// BYTES-NOT: {{.}}

// ALLOCS: {{^}}main;a;b 3{{$}}
// ALLOCS-NEXT: {{^}}main;c 2{{$}}
// ALLOCS-NEXT: {{^}}main;rec;rec;rec 1{{$}}
// ALLOCS-NOT: {{.}}

// ACCESSES: {{^}}main;a;b 30{{$}}
// ACCESSES-NOT: {{.}}

// b frees each of its three blocks before anything else is allocated:
// temporary; c's and rec's stay.
// TEMPORARY: {{^}}main;a;b 3{{$}}
// TEMPORARY-NOT: {{.}}

// LIVE: {{^}}main;c 2000{{$}}
// LIVE-NEXT: {{^}}main;rec;rec;rec 64{{$}}
// LIVE-NOT: {{.}}

// BADW: heapprof: error: --weight: unknown weight 'size' (bytes, allocs, accesses, live, temporary or leaked)
// BADOUT: heapprof: error: {{.*}}out.svg: cannot write: No such file or directory
