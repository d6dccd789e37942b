// heapprof diff: per context matched by symbolized stack, what grew and
// shrank between a checkpoint and the exit of one process, between two
// builds of the program, and nothing between a profile and itself.
// RUN: rm -rf %t.ckpt %t.base %t.one %t.three %t.out && mkdir -p %t.ckpt %t.base %t.one %t.three %t.out
// RUN: %clang_heapprof -O0 -g %s -o %t
// RUN: env CHECKPOINT=1 HEAPPROF_OPTIONS=profile_dir=%t.ckpt %run %t
// RUN: mv %t.ckpt/heapprof.*.1.profraw %t.base/
//
// Checkpoint 1 against the exit dump: the exit file holds only what
// happened after the checkpoint; NEW is read with BASE's file, so it is the
// state at exit from the start, and the change is the second phase.
// RUN: heapprof diff %t.base %t.ckpt | FileCheck %s --check-prefix=CKPT
// The same when NEW is given as both files (the checkpoint counted once).
// RUN: heapprof diff --top 0 %t.base %t.ckpt > %t.a.txt
// RUN: heapprof diff --top 0 %t.base --new %t.base --new %t.ckpt > %t.b.txt
// RUN: diff %t.a.txt %t.b.txt
// RUN: heapprof diff --format json -o %t.out/ckpt.json %t.base %t.ckpt
// RUN: %python %S/Inputs/check-diff.py ckpt %t.out/ckpt.json
//
// Two builds, the second allocating SCALE=3 times the c's: only alloc_c
// changed; its lines match across the builds.
// RUN: %clang_heapprof -O0 -g -DSCALE=3 %s -o %t.3
// RUN: %env_heapprof_opts=profile_dir=%t.one %run %t
// RUN: %env_heapprof_opts=profile_dir=%t.three %run %t.3
// RUN: heapprof diff %t.one %t.three | FileCheck %s --check-prefix=BUILDS
// RUN: heapprof diff --format json %t.one %t.three > %t.out/builds.json
// RUN: %python %S/Inputs/check-diff.py builds %t.out/builds.json
// RUN: heapprof diff --match functions --format json %t.one %t.three > %t.out/builds-fn.json
// RUN: %python %S/Inputs/check-diff.py builds %t.out/builds-fn.json
// The same two builds made from two copies of the source in different
// directories (two checkouts): files match by name, so the same change.
// RUN: rm -rf %t.src1 %t.src3 %t.cp1 %t.cp3 && mkdir -p %t.src1 %t.src3 %t.cp1 %t.cp3
// RUN: cp %s %t.src1/diff.c && cp %s %t.src3/diff.c
// RUN: cd %t.src1 && %clang_heapprof -O0 -g diff.c -o %t.cp1.exe
// RUN: cd %t.src3 && %clang_heapprof -O0 -g -DSCALE=3 diff.c -o %t.cp3.exe
// RUN: %env_heapprof_opts=profile_dir=%t.cp1 %run %t.cp1.exe
// RUN: %env_heapprof_opts=profile_dir=%t.cp3 %run %t.cp3.exe
// RUN: heapprof diff %t.cp1 %t.cp3 | FileCheck %s --check-prefix=BUILDS
// Reversed, the c's shrank.
// RUN: heapprof diff %t.three %t.one | FileCheck %s --check-prefix=SHRANK
//
// A profile against itself, and a run against another run of the same
// build: no change.
// RUN: heapprof diff %t.one %t.one | FileCheck %s --check-prefix=SAME
// RUN: rm -rf %t.again && mkdir %t.again
// RUN: %env_heapprof_opts=profile_dir=%t.again %run %t
// RUN: heapprof diff --format json %t.one %t.again > %t.out/same.json
// RUN: %python %S/Inputs/check-diff.py same %t.out/same.json
#include <heapprof/heapprof_interface.h>
#include <stdlib.h>

#ifndef SCALE
#define SCALE 1
#endif

enum { NA = 100, NB = 10, NC = 50 };
static char *volatile a[NA + 20], *volatile b[NB], *volatile c[NC * SCALE];

__attribute__((noinline)) static char *alloc_a(void) { return malloc(48); }
__attribute__((noinline)) static char *alloc_b(void) { return malloc(2000); }
__attribute__((noinline)) static char *alloc_c(void) { return malloc(16); }
// Both phases allocate a's through here: one context.
__attribute__((noinline)) static void make_a(int from, int to) {
  for (int i = from; i < to; i++)
    a[i] = alloc_a();
}

int main(void) {
  int phases = getenv("CHECKPOINT") ? 2 : 1;
  for (int phase = 0; phase < phases; phase++) {
    if (phase == 1)
      __heapprof_dump();
    // 100 a's, and in the second phase 20 more: one call site, so one
    // context (a stack differs by its callers' lines too).
    make_a(phase ? NA : 0, phase ? NA + 20 : NA);
    if (phase == 0) {
      for (int i = 0; i < NB; i++) {
        b[i] = alloc_b();
        b[i][0] = 1; // one access each before the checkpoint
      }
    } else {
      // The second phase also frees 40 a's and touches each b again.
      for (int i = 0; i < 40; i++)
        free(a[i]);
      for (int i = 0; i < NB; i++)
        b[i][8] = 2;
    }
  }
  // The c's, after the checkpoint.
  for (int i = 0; i < NC * SCALE; i++)
    c[i] = alloc_c();
  return 0;
}

// Without a checkpoint: 100 a's, 10 b's and 50 c's (25600 B) live, 10
// accesses; SCALE=3 adds 100 c's (1600 B).
// Base (checkpoint 1): 100 a's (4800 B) and 10 b's (20000 B), all live,
// 10 accesses.  New (exit): 120 a's (5760 B), 80 live (3840 B); 10 b's;
// 50 c's (800 B) live; 20 accesses.
// CKPT: == Summary (NEW minus BASE)
// CKPT-NEXT: command: {{.*}}diff.c.tmp{{$}}
// CKPT-NEXT: base new change
// CKPT-NEXT: allocations 110 180 +70
// CKPT-NEXT: bytes 24.2 KiB 25.9 KiB +1760 B
// CKPT-NEXT: live objects 110 140 +30
// CKPT-NEXT: live bytes 24.2 KiB 24.1 KiB -160 B
// CKPT-NEXT: accesses 10 20 +10
// No free comes before its thread's next allocation: no temporaries.
// CKPT-NEXT: temporary 0 0 0
// CKPT-NEXT: contexts 2 3
// CKPT-NEXT: changed contexts: 1 new, 0 gone, 1 grew, 0 shrank, 1 changed otherwise; 0 unchanged
// CKPT-NEXT: (NEW shares a process with BASE
// CKPT: == Contexts by growth of bytes
// CKPT-NEXT: #1  grew  bytes +960 B (4800 B -> 5760 B), allocs +20, live -960 B in -20 objects, accesses 0
// CKPT-NEXT: alloc_a {{.*}}diff.c:[[#A:]]
// CKPT-NEXT: make_a {{.*}}diff.c:
// CKPT-NEXT: main {{.*}}diff.c:
// CKPT-NEXT: #2  new  bytes +800 B (0 B -> 800 B), allocs +50, live +800 B in +50 objects, accesses 0
// CKPT-NEXT: alloc_c {{.*}}diff.c:[[#A+2]]
// CKPT-NEXT: main {{.*}}diff.c:
// CKPT-NEXT: #3  changed  bytes 0 B (19.5 KiB -> 19.5 KiB), allocs 0, live 0 B in 0 objects, accesses +10
// CKPT-NEXT: alloc_b {{.*}}diff.c:[[#A+1]]

// BUILDS: bytes 25.0 KiB 26.6 KiB +1600 B
// BUILDS: changed contexts: 0 new, 0 gone, 1 grew, 0 shrank, 0 changed otherwise; 2 unchanged
// BUILDS: #1  grew  bytes +1600 B (800 B -> 2400 B), allocs +100, live +1600 B in +100 objects, accesses 0
// BUILDS-NEXT: alloc_c
// BUILDS-NOT: #2

// SHRANK: #1  shrank  bytes -1600 B (2400 B -> 800 B), allocs -100, live -1600 B in -100 objects, accesses 0

// SAME: changed contexts: 0 new, 0 gone, 0 grew, 0 shrank, 0 changed otherwise; 3 unchanged
// SAME: == Contexts by growth of bytes
// SAME-NEXT: (no change)
