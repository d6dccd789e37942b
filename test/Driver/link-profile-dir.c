// -fheapprof=DIR at a link step: the driver writes a small object defining
// __heapprof_profile_dir (weak, in the COMDAT group of that name, as the pass
// emits it) to a temporary file, puts it before every other input so that
// its group is the one the linker keeps, runs clang, and removes the file.
// No "argument unused" warning: the pass option only goes to compile jobs.
// The runs are in link-profile-dir-run.c.
// REQUIRES: heapprof-driver
// RUN: rm -rf %t && mkdir -p %t/tmp
// RUN: heapprof-clang -c %s -o %t/x.o
//
// Link only.
// RUN: env TMPDIR=%t/tmp heapprof-clang -fheapprof=my\ dir -### %t/x.o -o %t/x 2>&1 | FileCheck %s -DT=%t
// CHECK-NOT:  warning
// CHECK-NOT:  "-cc1"
// CHECK:      "{{[^"]*}}ld"
// CHECK-SAME: "[[T]]/tmp/heapprof-dir-{{[A-Za-z0-9]+}}.o" "[[T]]/x.o"
// CHECK-SAME: "--whole-archive" "{{[^"]*}}/libheapprof_rt.a"
// CHECK-NOT:  warning
// The file is gone afterwards.
// RUN: ls %t/tmp | count 0
//
// Compile and link in one step: the compile job gets DIR, the link the object.
// RUN: env TMPDIR=%t/tmp heapprof-clang -fheapprof=d -### %s -o %t/x 2>&1 | FileCheck %s --check-prefix=BOTH -DT=%t
// BOTH:      "-cc1"
// BOTH-SAME: "-mllvm" "-heapprof-profile-dir=d"
// BOTH:      "{{[^"]*}}ld"
// BOTH-SAME: "[[T]]/tmp/heapprof-dir-{{[A-Za-z0-9]+}}.o" "{{[^"]*}}.o"
// RUN: ls %t/tmp | count 0
//
// -shared, -r, -c, a later -fheapprof without DIR, or heapprof off: no object.
// RUN: env TMPDIR=%t/tmp heapprof-clang -fheapprof=d -fPIC -shared -### %t/x.o -o %t/x.so 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: env TMPDIR=%t/tmp heapprof-clang -fheapprof=d -r -### %t/x.o -o %t/r.o 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: env TMPDIR=%t/tmp heapprof-clang -fheapprof=d -### -c %s -o %t/y.o 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: env TMPDIR=%t/tmp heapprof-clang -fheapprof=d -fheapprof -### %t/x.o -o %t/x 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: env TMPDIR=%t/tmp heapprof-clang -fheapprof=d -fno-heapprof -### %t/x.o -o %t/x 2>&1 | FileCheck %s --check-prefix=NONE
// NONE-NOT: heapprof-dir-
// NONE-NOT: warning
// RUN: ls %t/tmp | count 0
//
// The exact command (clang replaced by echo): the object right after clang
// and the first added flag.
// RUN: env TMPDIR=%t/tmp HEAPPROF_CLANG=echo heapprof-clang -fheapprof=d %t/x.o -o %t/x | FileCheck %s --check-prefix=ARGS -DT=%t
// ARGS: {{^}}-gline-tables-only -Wl,--build-id [[T]]/tmp/heapprof-dir-{{[A-Za-z0-9]+}}.o [[T]]/x.o -o [[T]]/x -fpass-plugin=
// RUN: ls %t/tmp | count 0
//
// clang's exit status is the driver's, and the file is removed also when
// the link fails or clang dies of a signal (the driver then dies of it too).
// RUN: env TMPDIR=%t/tmp not heapprof-clang -fheapprof=d %t/missing.o -o %t/x 2>&1 | FileCheck %s --check-prefix=FAIL
// FAIL: no such file or directory: '{{.*}}missing.o'
// RUN: ls %t/tmp | count 0
// RUN: printf '#!/bin/sh\nkill -TERM $$\n' > %t/die.sh && chmod +x %t/die.sh
// RUN: env TMPDIR=%t/tmp HEAPPROF_CLANG=%t/die.sh not --crash heapprof-clang -fheapprof=d %t/x.o -o %t/x
// RUN: ls %t/tmp | count 0
//
// A TMPDIR that cannot hold the file is an error before clang runs.
// RUN: env TMPDIR=%t/nonexistent not heapprof-clang -fheapprof=d %t/x.o -o %t/x 2>&1 | FileCheck %s --check-prefix=NOTMP -DT=%t
// NOTMP: heapprof-clang: error: cannot create a temporary file in '[[T]]/nonexistent': No such file or directory

int main(void) { return 0; }
