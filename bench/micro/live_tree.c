/*===- live_tree.c - a large heap live at exit ---------------------------===
 *
 *   live_tree N [lost]
 *
 * Inserts N nodes of 48 bytes with pseudo-random keys into an unbalanced
 * binary search tree whose root is a global, and exits with all of them
 * live: the leak check's worst case (docs/performance.md, "The leak check
 * at exit"), every object reachable and two pointers deep into random
 * places of the heap.  Not a row of make bench: its time is the exit's.
 * With "lost", each node also points to its parent (in pad[0]) and the
 * global is cleared at the end: the whole tree is one lost cycle, every
 * object unreached and pointed to by another.
 *===----------------------------------------------------------------------===*/
#include <stdlib.h>
#include <string.h>

typedef struct node {
  struct node *left, *right;
  unsigned long key, pad[3];
} node;

static node *root;

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 2000000;
  int lost = argc > 2 && !strcmp(argv[2], "lost");
  unsigned long s = 1;
  for (long i = 0; i < n; i++) {
    node *x = calloc(1, sizeof *x);
    s = s * 6364136223846793005ul + 1442695040888963407ul;
    x->key = s >> 16;
    node **p = &root, *parent = NULL;
    while (*p) {
      parent = *p;
      p = x->key < (*p)->key ? &(*p)->left : &(*p)->right;
    }
    if (lost)
      x->pad[0] = (unsigned long)parent;
    *p = x;
  }
  if (lost)
    *(node *volatile *)&root = NULL;
  return 0;
}
