// Columns of the text report are as wide as their text on a terminal, not
// in bytes: a UTF-8 name (5 characters in 6 bytes; two wide CJK characters
// taking 4 columns in 6 bytes) aligns with an ASCII one.
// RUN: rm -rf %t.dir && %clang_heapprof -O1 -g %s -o %t
// RUN: %env_heapprof_opts=profile_dir=%t.dir %run %t
// RUN: heapprof report %t.dir | FileCheck %s --strict-whitespace
// CHECK: {{^}}     größe  /{{.*}}report-utf8-names.c:{{[0-9]+}}
// CHECK-NEXT: {{^}}     main   /{{.*}}report-utf8-names.c:{{[0-9]+}}
// CHECK: {{^}}     日本  /{{.*}}report-utf8-names.c:{{[0-9]+}}
// CHECK-NEXT: {{^}}     main  /{{.*}}report-utf8-names.c:{{[0-9]+}}
#include <stdlib.h>

__attribute__((noinline)) void *größe(int n) { return malloc(n); }
__attribute__((noinline)) void *日本(int n) { return malloc(n); }

int main(void) {
  for (int i = 0; i < 10; i++) {
    free(größe(300));
    free(日本(100));
  }
  return 0;
}
