// A program whose file name holds control characters (a newline, a
// terminal's escape): the text report printed the path as it is, so its
// process and program lines broke in two (and an escape sequence would
// reach the reader's terminal).  Every line the report prints from a
// profile's text shows a control character as '?', as the command line
// already did.
// RUN: %clang_heapprof -O0 -g %s -o %t
// RUN: rm -rf %t.dir %t.d && mkdir -p %t.dir
// RUN: sh -c 'cp %t "%t.dir/new$(printf "\nline\033[31m")"'
// RUN: sh -c 'HEAPPROF_OPTIONS=profile_dir=%t.d "%t.dir/new$(printf "\nline\033[31m")"'
// RUN: heapprof report %t.d > %t.out
// RUN: FileCheck %s < %t.out
// RUN: sh -c '! grep -q "$(printf "\033")" %t.out'
// CHECK: process {{.*}}.dir/new?line?[31m pid {{[0-9]+}}, 1 dump
// CHECK: program {{.*}}.dir/new?line?[31m (build id
#include <stdlib.h>

int main(void) {
  char *volatile p = malloc(10);
  p[0] = 1;
  return 0;
}
