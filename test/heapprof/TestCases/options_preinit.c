// HEAPPROF_OPTIONS is read even when the runtime starts before the C
// library has set up environ: a .preinit_array function that allocates
// (UBSan's standalone runtime initialises there, and its dlsym allocates)
// runs before libc's own initialisation, and the options were silently
// ignored.  print_text=1 must give a text profile, verbosity=1 its line.
// RUN: %clang_heapprof -O0 -g %s -o %t
// RUN: rm -rf %t.dir && %env_heapprof_opts=profile_dir=%t.dir:print_text=1:verbosity=1 %run %t 2>&1 | FileCheck %s
// RUN: ls %t.dir | FileCheck %s --check-prefix=FILES
// The same through UBSan, which still reports what it finds:
// RUN: %clang_heapprof -O0 -g -fsanitize=undefined -DOVERFLOW %s -o %t-ubsan
// RUN: rm -rf %t.dir && %env_heapprof_opts=profile_dir=%t.dir:print_text=1:verbosity=1 %run %t-ubsan 2>&1 | FileCheck %s --check-prefixes=CHECK,UBSAN
// RUN: ls %t.dir | FileCheck %s --check-prefix=FILES
// CHECK: HeapProf: initialized
// UBSAN: runtime error: signed integer overflow
// CHECK: early block: 40 bytes
// CHECK: HeapProf: wrote profile {{.*}}.txt
// FILES: .txt
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

static void *early;
static void allocate_early(int argc, char **argv, char **envp) {
  (void)argc, (void)argv, (void)envp;
  early = malloc(40);
}
__attribute__((section(".preinit_array"), used)) static void (*preinit)(
    int, char **, char **) = allocate_early;

int main(int argc, char **argv) {
  (void)argv;
#ifdef OVERFLOW
  volatile int big = INT_MAX;
  big += argc; // UBSan reports this
#endif
  fprintf(stderr, "early block: %d bytes\n", early ? 40 : 0);
  free(early);
  return 0;
}
