/*===- live_tree.c - a large heap live at exit ---------------------------===
 *
 *   live_tree N
 *
 * Inserts N nodes of 48 bytes with pseudo-random keys into an unbalanced
 * binary search tree whose root is a global, and exits with all of them
 * live: the leak check's worst case (docs/performance.md, "The leak check
 * at exit"), every object reachable and two pointers deep into random
 * places of the heap.  Not a row of make bench: its time is the exit's.
 *===----------------------------------------------------------------------===*/
#include <stdlib.h>

typedef struct node {
  struct node *left, *right;
  unsigned long key, pad[3];
} node;

static node *root;

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 2000000;
  unsigned long s = 1;
  for (long i = 0; i < n; i++) {
    node *x = calloc(1, sizeof *x);
    s = s * 6364136223846793005ul + 1442695040888963407ul;
    x->key = s >> 16;
    node **p = &root;
    while (*p)
      p = x->key < (*p)->key ? &(*p)->left : &(*p)->right;
    *p = x;
  }
  return 0;
}
