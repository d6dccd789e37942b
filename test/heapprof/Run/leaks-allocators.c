// The leak check under heapprof run, on every allocator: the side table's
// objects are the live set, held while the check reads them.  The program
// (not rebuilt) leaves 5000 widgets of 204 bytes unreachable (direct:
// 1,020,000 bytes), a list of 11 nodes of 48 bytes whose head it dropped
// (direct 48, indirect 10 x 48 = 480) and 300 objects of 96 bytes held by
// a global (reachable); libc's stdout buffer, from puts, is reachable
// through stdout.  On glibc's allocator that is 5000 + 11 + 300 + 1 = 5312
// live objects.
// RUN: %clang_plain -O0 -g %s -o %t
// RUN: rm -rf %t.sys && env -u LD_PRELOAD heapprof run -o %t.sys --allocator=system -- %t
// RUN: heapprof show %t.sys/*.profraw | FileCheck %s --check-prefixes=CHECK,SYS
// SYS: leaks: head_words=10 objects=5312 {{.*}} direct_objects=5001 direct_bytes=1020048 indirect_objects=10 indirect_bytes=480 threads_running=0
// heapprof's own allocator, preloaded:
// RUN: rm -rf %t.hp && env -u LD_PRELOAD heapprof run -o %t.hp -- %t
// RUN: heapprof show %t.hp/*.profraw | FileCheck %s --check-prefixes=CHECK,EXACT
// jemalloc, mimalloc and tcmalloc: the same (their own start-up may add a
// live object, so the count of objects is not checked). tcmalloc's runs
// once read 4999 widgets as leaked, in every run: the address of the
// 5000th was in heapprof's own globals, which the check took for roots
// (Leaks/runtime-tables.c).
// RUN: %if jemalloc %{ rm -rf %t.je && env -u LD_PRELOAD heapprof run -o %t.je --allocator=%libjemalloc -- %t %}
// RUN: %if jemalloc %{ heapprof show %t.je/*.profraw | FileCheck %s --check-prefixes=CHECK,EXACT %}
// RUN: %if mimalloc %{ rm -rf %t.mi && env -u LD_PRELOAD heapprof run -o %t.mi --allocator=%libmimalloc -- %t %}
// RUN: %if mimalloc %{ heapprof show %t.mi/*.profraw | FileCheck %s --check-prefixes=CHECK,EXACT %}
// RUN: %if tcmalloc %{ rm -rf %t.tc && env -u LD_PRELOAD heapprof run -o %t.tc --allocator=%libtcmalloc -- %t %}
// RUN: %if tcmalloc %{ heapprof show %t.tc/*.profraw | FileCheck %s --check-prefixes=CHECK,EXACT %}
// EXACT: leaks: head_words=10 objects={{[0-9]+}} {{.*}} direct_objects=5001 direct_bytes=1020048 indirect_objects=10 indirect_bytes=480 threads_running=0
// CHECK-SAME: row_words=5 nrows=2{{$}}
// SYS-NEXT: stack id {{[0-9]+}}: direct_objects=5000 direct_bytes=1020000 indirect_objects=0 indirect_bytes=0{{$}}
// EXACT-NEXT: stack id {{[0-9]+}}: direct_objects=5000 direct_bytes=1020000 indirect_objects=0 indirect_bytes=0{{$}}
// CHECK-NEXT: stack id {{[0-9]+}}: direct_objects=1 direct_bytes=48 indirect_objects=10 indirect_bytes=480{{$}}
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct node {
  struct node *next;
  char pad[40];
};

static void *keep[300];

__attribute__((noinline)) void fill(char *w) { memset(w, 1, 204); }

__attribute__((noinline)) static void make_list(void) {
  struct node *head = NULL;
  for (int i = 0; i < 11; i++) {
    struct node *n = calloc(1, sizeof *n);
    n->next = head;
    head = n;
  }
}

#include "../Inputs/clobber.h"

int main(void) {
  for (int i = 0; i < 5000; i++)
    fill(malloc(204));
  for (int i = 0; i < 300; i++)
    keep[i] = malloc(96);
  make_list();
  clobber();
  puts("done");
  return 0;
}
