// A relative profile directory (-fheapprof=DIR, profile_dir) or log_path
// is taken in the directory the program started in: a program that moves
// (chdir, as daemons do) before the profile is written still writes it
// there, and not in the directory it moved to.  The program allocates 7
// blocks of 40 bytes and frees them, then changes into "moved".
// RUN: rm -rf %t.d && mkdir -p %t.d/moved
// RUN: %clang_heapprof -fheapprof=prof -O0 -g %s -o %t
// RUN: cd %t.d && %run %t
// RUN: heapprof show %t.d/prof/*.profraw | FileCheck %s
// RUN: not ls %t.d/moved/prof
// RUN: cd %t.d && %env_heapprof_opts=profile_dir=other/dir %run %t
// RUN: heapprof show %t.d/other/dir/*.profraw | FileCheck %s
// RUN: not ls %t.d/moved/other
// RUN: cd %t.d && %env_heapprof_opts=log_path=named:print_text=1 %run %t
// RUN: FileCheck %s --check-prefix=TEXT < %t.d/named.*.txt
// RUN: heapprof show %t.d/named.*.profraw | FileCheck %s
// RUN: not ls %t.d/moved/named.*
// CHECK: MIB {{.*}}AllocCount=7 {{.*}}TotalSize=280
// TEXT: alloc_count 7, size (ave/min/max) 40.00 / 40 / 40
#include <stdlib.h>
#include <unistd.h>

int main(void) {
  void *p[7];
  for (int i = 0; i < 7; i++)
    p[i] = malloc(40);
  for (int i = 0; i < 7; i++)
    free(p[i]);
  return chdir("moved") ? 1 : 0;
}
