// The program's __heapprof_default_options() runs first thing in
// heapprof's start-up, before its allocator exists.  One that allocates
// (builds its string with malloc, a C++ static std::string) entered the
// start-up again on the same thread, which waited for its own lock: the
// program hung before main.  Now it stops with one error naming the hook,
// exit status 1, as for a bad option.
// RUN: %clang_heapprof -O0 %s -o %t
// RUN: not timeout 60 %run %t 2>&1 | FileCheck %s
// RUN: %clang_heapprof -O0 -DCALLS_INIT %s -o %t.init
// RUN: not timeout 60 %run %t.init 2>&1 | FileCheck %s
// RUN: %clang_heapprof -O0 -DCONSTANT %s -o %t.const
// RUN: %run %t.const 2>&1 | FileCheck %s --check-prefix=CONST
// CHECK-NOT: main ran
// CHECK: HeapProf: ERROR: __heapprof_default_options() allocated memory or called heapprof: it runs while heapprof starts, before its allocator exists; have it return a string constant
// CHECK-NOT: main ran
// CONST: main ran
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void __heapprof_init(void);

const char *__heapprof_default_options(void) {
#if defined(CONSTANT)
  return "print_text=0";
#elif defined(CALLS_INIT)
  __heapprof_init();
  return "";
#else
  char *s = malloc(16);
  strcpy(s, "print_text=0");
  return s;
#endif
}

int main(void) {
  printf("main ran\n");
  return 0;
}
