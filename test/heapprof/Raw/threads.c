// Four threads allocate from one site; llvm-profdata reads the merged
// context (the allocations of every thread) and agrees with the text
// profile.  pthread_create's own allocations (each thread's DTV, inside
// ld.so) are walked through ld.so and libc by their CFI up to main, which
// is in the binary: llvm-profdata keeps it, one site per (unrolled) call.
// heapprof's pthread_create wrapper between them is left out of the
// stacks (HP_WRAPPER).
// REQUIRES: heapprof-driver
// RUN: %clang_heapprof -O2 %s -o %t
// RUN: rm -rf %t.dir
// RUN: %env_heapprof_opts=profile_dir=%t.dir:print_raw=1:print_text=1 %run %t
// RUN: llvm-profdata show --memory %t.dir/*.profraw --profiled-binary %t > %t.yaml
// RUN: %python %S/Inputs/raw_vs_text.py %t %t.yaml %t.dir/*.txt | FileCheck %s
#include <pthread.h>
#include <stdlib.h>

__attribute__((noinline)) long *make_obj(void) { return malloc(6 * sizeof(long)); }

static void *worker(void *arg) {
#pragma clang loop unroll(disable)
  for (int i = 0; i < 100; i++) {
    long *volatile p = make_obj();
    p[0] = 1;
    p[5] = 2;
    free(p);
  }
  return arg;
}

int main(void) {
  pthread_t t[4];
  for (int i = 0; i < 4; i++)
    pthread_create(&t[i], NULL, worker, NULL);
  for (int i = 0; i < 4; i++)
    pthread_join(t[i], NULL);
  return 0;
}
// 4 threads x 100 objects of 48 bytes, 2 stores each; density 2*100/48 = 4.
// The stack ends at the thread's start function: heapprof's pthread_create
// wrapper frame above it never appears.
// CHECK-COUNT-4: site main alloc_count=1 size={{[0-9]+}}/{{[0-9]+}}/{{[0-9]+}} access=0/0/0 density=0/0/0
// CHECK-NEXT: site make_obj<worker alloc_count=400 size=19200/48/48 access=800/2/2 density=1600/4/4
// CHECK-NEXT: compared 5 sites with the text profile: all equal
