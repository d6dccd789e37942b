// Lost structures whose objects all point to one another keep one direct
// leak each, as under Valgrind: the object the walk comes to first, in
// the order of the stack ids (first appearance), leads, and what it
// reaches is indirect.  As LeakSanitizer does, every object of a cycle
// was indirect: a dropped libxml2 document (its nodes point to the
// document and to their parents) had 0 bytes of direct leak.
//  - 10 documents of 96 bytes, each with a root node and 3 children of
//    48 bytes (nodes point to the document, their parent, their siblings;
//    the document to its root).  The document is allocated first, so its
//    context has the lower stack id: 10 direct objects, 960 bytes, and
//    40 nodes indirect, 1,920 bytes (in the walk's address order the
//    nodes' smaller size class comes first, and a node would lead);
//  - a ring of 5 objects of 32 bytes from one context, each pointing to
//    the next and the previous: 1 direct (32 bytes), 4 indirect (128);
//  - a cycle of a large chunk (200,000 bytes, a mapping of its own) and
//    an object of 64 bytes, allocated before their owner, an object of
//    24 bytes that points to the large one: the cycle leads first, then
//    the owner's walk reaches its leader, which becomes indirect: the
//    owner is the one direct leak (24 bytes), the cycle indirect
//    (200,064 bytes);
//  - the same with a cycle of two objects of 64 bytes: owner direct
//    (24), the cycle indirect (128).
// Direct: 10 + 1 + 1 + 1 = 13 objects, 960 + 32 + 24 + 24 = 1,040 bytes;
// indirect: 40 + 4 + 2 + 2 = 48 objects, 1,920 + 128 + 200,064 + 128 =
// 202,240 bytes.
// RUN: %clang_heapprof -O0 -g %s -o %t
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: %env_heapprof_opts=profile_dir=%t.d %run %t
// RUN: heapprof show %t.d/*.profraw | FileCheck %s
// CHECK: leaks: head_words=10 objects={{[0-9]+}} root_bytes={{[1-9][0-9]*}} direct_objects=13 direct_bytes=1040 indirect_objects=48 indirect_bytes=202240 threads_running=0 row_words=5 nrows=10{{$}}
// The rows by stack id: document, root node, child nodes, ring, the large
// cycle's two and its owner, the small cycle's two and its owner (one row each).
// CHECK-NEXT: stack id {{[0-9]+}}: direct_objects=10 direct_bytes=960 indirect_objects=0 indirect_bytes=0{{$}}
// CHECK-NEXT: stack id {{[0-9]+}}: direct_objects=0 direct_bytes=0 indirect_objects=10 indirect_bytes=480{{$}}
// CHECK-NEXT: stack id {{[0-9]+}}: direct_objects=0 direct_bytes=0 indirect_objects=30 indirect_bytes=1440{{$}}
// CHECK-NEXT: stack id {{[0-9]+}}: direct_objects=1 direct_bytes=32 indirect_objects=4 indirect_bytes=128{{$}}
// CHECK-NEXT: stack id {{[0-9]+}}: direct_objects=0 direct_bytes=0 indirect_objects=1 indirect_bytes=200000{{$}}
// CHECK-NEXT: stack id {{[0-9]+}}: direct_objects=0 direct_bytes=0 indirect_objects=1 indirect_bytes=64{{$}}
// CHECK-NEXT: stack id {{[0-9]+}}: direct_objects=1 direct_bytes=24 indirect_objects=0 indirect_bytes=0{{$}}
// CHECK-NEXT: stack id {{[0-9]+}}: direct_objects=0 direct_bytes=0 indirect_objects=1 indirect_bytes=64{{$}}
// CHECK-NEXT: stack id {{[0-9]+}}: direct_objects=0 direct_bytes=0 indirect_objects=1 indirect_bytes=64{{$}}
// CHECK-NEXT: stack id {{[0-9]+}}: direct_objects=1 direct_bytes=24 indirect_objects=0 indirect_bytes=0{{$}}
#include <stdlib.h>
#include <string.h>

struct node;
struct doc {
  struct node *root;
  char pad[88];
};
struct node {
  struct doc *doc;
  struct node *parent, *children, *next, *prev;
  char pad[8];
};

struct ring {
  struct ring *next, *prev;
  char pad[16];
};

struct big {
  struct pair *other;
  char pad[200000 - 8];
};
struct pair {
  void *other;
  char pad[56];
};
struct owner {
  void *held;
  char pad[16];
};

__attribute__((noinline)) static void make_docs(void) {
  for (int i = 0; i < 10; i++) {
    struct doc *d = calloc(1, sizeof *d);
    struct node *root = calloc(1, sizeof *root);
    root->doc = d;
    root->parent = (struct node *)d; // as libxml2's root's parent is its doc
    d->root = root;
    struct node *prev = NULL;
    for (int k = 0; k < 3; k++) {
      struct node *n = calloc(1, sizeof *n);
      n->doc = d;
      n->parent = root;
      n->prev = prev;
      if (prev)
        prev->next = n;
      else
        root->children = n;
      prev = n;
    }
  }
}

__attribute__((noinline)) static void make_ring(void) {
  struct ring *first = NULL, *last = NULL;
  for (int i = 0; i < 5; i++) {
    struct ring *r = calloc(1, sizeof *r);
    if (!first)
      first = r;
    else {
      last->next = r;
      r->prev = last;
    }
    last = r;
  }
  last->next = first;
  first->prev = last;
}

__attribute__((noinline)) static void make_owned(void) {
  struct big *b = calloc(1, sizeof *b);
  struct pair *p = calloc(1, sizeof *p);
  b->other = p;
  p->other = b;
  struct owner *o = calloc(1, sizeof *o);
  o->held = b;
}

__attribute__((noinline)) static void make_owned_small(void) {
  struct pair *a = calloc(1, sizeof *a);
  struct pair *b = calloc(1, sizeof *b);
  a->other = b;
  b->other = a;
  struct owner *o = calloc(1, sizeof *o);
  o->held = a;
}

// Overwrites the stack below main's frame, where the frames above were.
#include "../Inputs/clobber.h"

int main(void) {
  make_docs();
  make_ring();
  make_owned();
  make_owned_small();
  clobber();
  return 0;
}
