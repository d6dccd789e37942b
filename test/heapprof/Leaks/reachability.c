// The leak check at exit (detect_leaks=1, the default): which live objects
// no pointer reaches.  What the program leaves live at its end:
//  - 5000 widgets of 204 bytes whose pointers it dropped: direct leaks,
//    5000 objects and 1,020,000 bytes (a widget holds no pointer);
//  - 300 objects of 96 bytes held by a global array: reachable;
//  - a list of 11 nodes of 48 bytes whose head it dropped: the head is a
//    direct leak (48 bytes), the 10 nodes behind it indirect ones (480);
//  - two objects of 64 bytes pointing to each other, both dropped: a cycle
//    no root reaches, each pointed to by the other; the one allocated
//    first (the lower stack id) leads, as under Valgrind: 64 bytes direct,
//    the other 64 indirect (cycles.c has more such structures);
//  - one chunk of 200,000 bytes (a large chunk of its own mapping) that a
//    global reaches only through a pointer into its middle: reachable
//    (interior pointers count);
//  - 100 objects allocated and freed: not live at all;
//  - 7 objects of 72 bytes, each holding a pointer into itself (as a
//    std::string points to its own inline buffer), dropped: direct leaks,
//    504 bytes, since a pointer an object holds to itself is not another
//    unreachable object's (LeakSanitizer's rule too).
// Live at exit: 5000 + 300 + 11 + 2 + 1 + 7 = 5321 objects; direct 5009
// objects, 1,020,616 bytes; indirect 11 objects, 544 bytes.  The list and
// the cycle are made in functions whose frames a later call overwrites,
// so no stale word of theirs is left on the stack the check reads.
// RUN: %clang_heapprof -O0 -g %s -o %t
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: %env_heapprof_opts=profile_dir=%t.d %run %t
// RUN: heapprof show %t.d/*.profraw | FileCheck %s
// CHECK: leaks: head_words=10 objects=5321 root_bytes={{[1-9][0-9]*}} direct_objects=5009 direct_bytes=1020616 indirect_objects=11 indirect_bytes=544 threads_running=0 row_words=5 nrows=5{{$}}
// The five contexts that leaked, by stack id, which follows the order of
// the first allocations: the widgets, the list's nodes, the cycle's two
// objects (two calls to calloc, so two contexts of one object each), and
// the self-pointing objects.
// CHECK-NEXT: stack id {{[0-9]+}}: direct_objects=5000 direct_bytes=1020000 indirect_objects=0 indirect_bytes=0{{$}}
// CHECK-NEXT: stack id {{[0-9]+}}: direct_objects=1 direct_bytes=48 indirect_objects=10 indirect_bytes=480{{$}}
// CHECK-NEXT: stack id {{[0-9]+}}: direct_objects=1 direct_bytes=64 indirect_objects=0 indirect_bytes=0{{$}}
// CHECK-NEXT: stack id {{[0-9]+}}: direct_objects=0 direct_bytes=0 indirect_objects=1 indirect_bytes=64{{$}}
// CHECK-NEXT: stack id {{[0-9]+}}: direct_objects=7 direct_bytes=504 indirect_objects=0 indirect_bytes=0{{$}}
//
// detect_leaks=0: no section 10.
// RUN: rm -rf %t.off && mkdir -p %t.off
// RUN: %env_heapprof_opts=profile_dir=%t.off:detect_leaks=0 %run %t
// RUN: heapprof show %t.off/*.profraw | FileCheck %s --check-prefix=OFF
// OFF-NOT: leaks:
// OFF: timeline:
// OFF-NOT: leaks:
//
// A checkpoint's dump has none either: leaks are what is unreachable at
// the end.  With append_dumps the checkpoint's dump comes first in the
// file, then the exit's: one section 10 in all, after the second header.
// RUN: rm -rf %t.cp && mkdir -p %t.cp
// RUN: %env_heapprof_opts=profile_dir=%t.cp:append_dumps=1 %run %t checkpoint
// RUN: heapprof show %t.cp/*.profraw | FileCheck %s --check-prefix=CP
// CP: checkpoint 1,
// CP-NOT: leaks:
// CP: checkpoint 0,
// CP: leaks: head_words=10 objects=5321
#include <heapprof/heapprof_interface.h>
#include <stdlib.h>
#include <string.h>

struct node {
  struct node *next;
  char pad[40];
};

struct pair {
  struct pair *other;
  char pad[56];
};

static void *keep[300];
static char *into_large;

__attribute__((noinline)) static void fill(char *w) { memset(w, 1, 204); }

__attribute__((noinline)) static void make_list(void) {
  struct node *head = NULL;
  for (int i = 0; i < 11; i++) {
    struct node *n = calloc(1, sizeof *n);
    n->next = head;
    head = n;
  }
}

__attribute__((noinline)) static void make_cycle(void) {
  struct pair *a = calloc(1, sizeof *a), *b = calloc(1, sizeof *b);
  a->other = b;
  b->other = a;
}

struct selfref {
  char *cur; // into buf, as a short std::string's pointer is
  char buf[64];
};

__attribute__((noinline)) static void make_selfrefs(void) {
  for (int i = 0; i < 7; i++) {
    struct selfref *s = malloc(sizeof *s);
    s->cur = s->buf + i;
    memset(s->buf, 'a', sizeof s->buf);
  }
}

// Overwrites the stack below main's frame, where the frames above were.
#include "../Inputs/clobber.h"

int main(int argc, char **argv) {
  for (int i = 0; i < 5000; i++)
    fill(malloc(204));
  for (int i = 0; i < 300; i++)
    keep[i] = malloc(96);
  make_list();
  make_cycle();
  into_large = (char *)malloc(200000) + 100000;
  make_selfrefs();
  clobber();
  for (int i = 0; i < 100; i++)
    free(malloc(32));
  if (argc > 1)
    __heapprof_dump();
  return 0;
}
