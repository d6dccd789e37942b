// realloc(p, 0), which frees p and returns NULL on glibc, is one realloc
// in the operation classes, on the freed object's size, under
// --allocator=system as on heapprof's allocator, and the system call it
// makes is its own: a 600000-byte object is a large mmapped chunk of
// glibc's (600000 + 16 bytes rounded up to pages: 602112), which the
// realloc unmaps; a 50-byte one is small.  The call used to be in no
// class, and glibc's munmap went to the next call's class (malloc small).
// Sampled (sample_bytes) the same.
// RUN: %clang_plain -O0 -g %s -o %t
// RUN: rm -rf %t.d && heapprof run -o %t.d --allocator=system -- %t > %t.out
// RUN: heapprof show %t.d | FileCheck %s --check-prefixes=CHECK,GLIBC
// RUN: rm -rf %t.d && env HEAPPROF_OPTIONS=sample_bytes=524288 heapprof run -o %t.d --allocator=system -- %t > %t.out
// RUN: heapprof show %t.d | FileCheck %s --check-prefixes=CHECK,GLIBC
// RUN: rm -rf %t.d && heapprof run -o %t.d -- %t > %t.out
// RUN: heapprof show %t.d | FileCheck %s --check-prefixes=CHECK,OWN
// CHECK-DAG: realloc small - serial: count=1 {{.*}}
// CHECK-DAG: realloc large - serial: count=1 {{.*}}
// OWN-DAG: munmap by realloc large - serial: count=1
// GLIBC-DAG: munmap by realloc large - serial: count=1 bytes=602112
// GLIBC-NOT: munmap by malloc
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  char *a = malloc(600000);
  char *r = realloc(a, 0);
  char *b = malloc(50);
  char *s = realloc(b, 0);
  printf("%p %p\n", (void *)r, (void *)s);
  return r != NULL || s != NULL;
}
