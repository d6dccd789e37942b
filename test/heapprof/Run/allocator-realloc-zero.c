// realloc(p, 0), which frees p and returns NULL on glibc, is one realloc
// in the operation classes, on the freed object's size, under
// --allocator=system as on heapprof's allocator, and the system call it
// makes is its own: a 600000-byte object is a large mmapped chunk of
// glibc's (600000 + 16 bytes rounded up to pages: 602112), which the
// realloc unmaps; a 50-byte one is small.  The call used to be in no
// class, and glibc's munmap went to the next call's class (malloc small).
// Sampled (sample_bytes) the same.  On jemalloc and tcmalloc, whose
// realloc(p, 0) frees and returns NULL too, the same two classes (their
// system calls are their own business); sampled there with a rate that
// samples neither object, the 50-byte one takes the quick path (no entry:
// sampling passed it over), which had counted its realloc in no class,
// and the 600000-byte one the full path (its cost-only entry).
// RUN: %clang_plain -O0 -g %s -o %t
// RUN: rm -rf %t.d && heapprof run -o %t.d --allocator=system -- %t > %t.out
// RUN: heapprof show %t.d | FileCheck %s --check-prefixes=CHECK,GLIBC
// RUN: rm -rf %t.d && env HEAPPROF_OPTIONS=sample_bytes=524288 heapprof run -o %t.d --allocator=system -- %t > %t.out
// RUN: heapprof show %t.d | FileCheck %s --check-prefixes=CHECK,GLIBC
// RUN: rm -rf %t.d && heapprof run -o %t.d -- %t > %t.out
// RUN: heapprof show %t.d | FileCheck %s --check-prefixes=CHECK,OWN
// RUN: %if jemalloc %{ rm -rf %t.je && env -u LD_PRELOAD heapprof run -o %t.je --allocator=%libjemalloc -- %t > %t.out %}
// RUN: %if jemalloc %{ heapprof show %t.je | FileCheck %s %}
// RUN: %if jemalloc %{ rm -rf %t.je && env -u LD_PRELOAD HEAPPROF_OPTIONS=sample_bytes=1073741824 heapprof run -o %t.je --allocator=%libjemalloc -- %t > %t.out %}
// RUN: %if jemalloc %{ heapprof show %t.je | FileCheck %s %}
// RUN: %if tcmalloc %{ rm -rf %t.tc && env -u LD_PRELOAD heapprof run -o %t.tc --allocator=%libtcmalloc -- %t > %t.out %}
// RUN: %if tcmalloc %{ heapprof show %t.tc | FileCheck %s %}
// RUN: %if tcmalloc %{ rm -rf %t.tc && env -u LD_PRELOAD HEAPPROF_OPTIONS=sample_bytes=1073741824 heapprof run -o %t.tc --allocator=%libtcmalloc -- %t > %t.out %}
// RUN: %if tcmalloc %{ heapprof show %t.tc | FileCheck %s %}
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
