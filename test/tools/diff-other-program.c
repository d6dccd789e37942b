// heapprof diff of two different programs (not two builds of one: no
// program build id nor name in common) prints the diff, every context of the one gone
// and of the other new, after one warning naming both programs.  alpha
// allocates 4 blocks of 64 bytes in its site, beta (-DBETA) 2 of 500:
// beta's context is new with 1000 B, alpha's gone with 256 B.  Two runs of
// one program, two builds of it, or a directory of several programs one of
// which is on both sides, draw no warning.
// RUN: rm -rf %t.d && mkdir -p %t.d/a %t.d/b %t.d/a2 %t.d/ab
// RUN: %clang_heapprof -O0 -g %s -o %t.d/alpha
// RUN: %clang_heapprof -O0 -g -DBETA %s -o %t.d/beta
// RUN: %env_heapprof_opts=profile_dir=%t.d/a %run %t.d/alpha
// RUN: %env_heapprof_opts=profile_dir=%t.d/a2 %run %t.d/alpha
// RUN: %env_heapprof_opts=profile_dir=%t.d/b %run %t.d/beta
// RUN: heapprof diff %t.d/a %t.d/b 2> %t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=WARN --input-file %t.err
// RUN: grep -c warning %t.err | FileCheck %s --check-prefix=ONE
// WARN: heapprof: warning: BASE and NEW are profiles of different programs (BASE: alpha; NEW: beta): only contexts in code both ran (a library's) can match
// ONE: {{^1$}}
// CHECK: #1 new bytes +1000 B (0 B -> 1000 B), allocs +2
// CHECK-NEXT: {{^ +}}beta_site {{.*}}diff-other-program.c
// CHECK: gone bytes -256 B (256 B -> 0 B), allocs -4
// CHECK-NEXT: {{^ +}}alpha_site {{.*}}diff-other-program.c
//
// Two runs of alpha: no warning.
// RUN: heapprof diff %t.d/a %t.d/a2 2>&1 >/dev/null | count 0
// alpha and beta against alpha: alpha is on both sides, no warning.
// RUN: cp %t.d/a/* %t.d/b/* %t.d/ab/
// RUN: heapprof diff %t.d/ab %t.d/a2 2>&1 >/dev/null | count 0
//
// The programs are compared by build id first, then by file name.
// Two builds of one name (a rebuilt binary, or another program given that
// name: -DBETA's code as alpha): not the warning, but one note that the
// builds differ, with both build ids. Names alone said nothing.
// RUN: rm -rf %t.d/bin2 %t.d/a3 && mkdir -p %t.d/bin2 %t.d/a3
// RUN: %clang_heapprof -O0 -g -DBETA %s -o %t.d/bin2/alpha
// RUN: %env_heapprof_opts=profile_dir=%t.d/a3 %run %t.d/bin2/alpha
// RUN: sh -c 'heapprof diff %t.d/a %t.d/a3 2>&1 >/dev/null | FileCheck %s --check-prefix=REBUILT -DOLD=$(llvm-readelf -n %t.d/alpha | sed -n "s/.*Build ID: \(.\{12\}\).*/\1/p") -DNEW=$(llvm-readelf -n %t.d/bin2/alpha | sed -n "s/.*Build ID: \(.\{12\}\).*/\1/p")'
// REBUILT-NOT: warning
// REBUILT: heapprof: note: BASE and NEW ran different builds of alpha (build ids [[OLD]] and [[NEW]]): contexts match by function, file and line
// REBUILT-NOT: {{.}}
// One file under two names (a copy: the same build id, as a hard link
// or busybox's applets): no warning, where the names differed.
// RUN: rm -rf %t.d/copy %t.d/c && mkdir -p %t.d/copy %t.d/c
// RUN: cp %t.d/alpha %t.d/copy/gamma
// RUN: %env_heapprof_opts=profile_dir=%t.d/c %run %t.d/copy/gamma
// RUN: heapprof diff %t.d/a %t.d/c 2>&1 >/dev/null | count 0
// Without build ids (-Wl,--build-id=none) only the names are compared:
// two such builds of one name draw nothing, two names the warning.
// RUN: rm -rf %t.d/noid %t.d/n1 %t.d/n2 %t.d/n3 && mkdir -p %t.d/noid/1 %t.d/noid/2 %t.d/n1 %t.d/n2 %t.d/n3
// RUN: %clang_heapprof -O0 -g -Wl,--build-id=none %s -o %t.d/noid/1/delta
// RUN: %clang_heapprof -O0 -g -Wl,--build-id=none -DBETA %s -o %t.d/noid/2/delta
// RUN: cp %t.d/noid/1/delta %t.d/noid/epsilon
// RUN: %env_heapprof_opts=profile_dir=%t.d/n1 %run %t.d/noid/1/delta
// RUN: %env_heapprof_opts=profile_dir=%t.d/n2 %run %t.d/noid/2/delta
// RUN: %env_heapprof_opts=profile_dir=%t.d/n3 %run %t.d/noid/epsilon
// RUN: heapprof diff %t.d/n1 %t.d/n2 2>&1 >/dev/null | count 0
// RUN: heapprof diff %t.d/n1 %t.d/n3 2>&1 >/dev/null | FileCheck %s --check-prefix=NOID
// NOID: heapprof: warning: BASE and NEW are profiles of different programs (BASE: delta; NEW: epsilon)
#include <stdlib.h>

#ifdef BETA
enum { N = 2, SIZE = 500 };
#define SITE beta_site
#else
enum { N = 4, SIZE = 64 };
#define SITE alpha_site
#endif

static void *volatile keep[N];

__attribute__((noinline)) static void SITE(void) {
  for (int i = 0; i < N; i++)
    keep[i] = malloc(SIZE);
}

int main(void) {
  SITE();
  return 0;
}
