// junk_fill=1 also fills a chunk with 0xdf when it is freed, so a read
// through a dangling pointer sees junk instead of the old contents.  The
// block stays in this thread's cache and nothing reuses it before the read
// (a read of freed memory, on purpose: undefined behaviour in C, made
// deterministic at -O0 with the address kept in a uintptr_t).  Without the
// flag freed memory is never written (phkmalloc's principle).
// RUN: %clang_rt_heapprof -O0 %s -o %t
// RUN: %env_heapprof_opts=junk_fill=1:log_path=%t.prof %run %t 2>&1 | FileCheck %s
// RUN: %env_heapprof_opts=log_path=%t.prof %run %t 2>&1 | FileCheck %s --check-prefix=OFF
#include "Inputs/count_bytes.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void) {
  unsigned char *volatile p = malloc(200);
  memset(p, 'A', 200);
  uintptr_t addr;
  memcpy(&addr, (const void *)&p, sizeof(addr));
  free(p);
  const volatile unsigned char *dangling = (const volatile unsigned char *)addr;
  fprintf(stderr, "freed: %zu of 200 are 0xdf, %zu are 'A'\n",
          count_bytes(dangling, 200, 0xdf), count_bytes(dangling, 200, 'A'));
  // CHECK: freed: 200 of 200 are 0xdf, 0 are 'A'
  // OFF: freed: 0 of 200 are 0xdf, 200 are 'A'
  return 0;
}
