/* heapprof demo: four allocation contexts a heap profile should tell apart.
 *
 *   make_node   many small, long-lived, hot objects (a list walked 20 times)
 *   make_buffer one big buffer, allocated early, barely touched: cold
 *   scratch     short-lived temporaries, one per line of "work"
 *   leak        memory never freed, unreachable once main returns: a leak
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct node {
  struct node *next;
  long value;
};

__attribute__((noinline)) static struct node *make_node(long v,
                                                         struct node *next) {
  struct node *n = malloc(sizeof *n);
  n->value = v;
  n->next = next;
  return n;
}

__attribute__((noinline)) static char *make_buffer(size_t n) {
  char *b = malloc(n);
  b[0] = 1; /* touched once */
  return b;
}

__attribute__((noinline)) static char *scratch(const char *word, int i) {
  char *s = malloc(64);
  snprintf(s, 64, "%s-%d", word, i);
  return s;
}

__attribute__((noinline)) static void *leak(size_t n) { return calloc(1, n); }

int main(void) {
  char *cold = make_buffer(1 << 20);
  struct node *list = NULL;
  for (long i = 0; i < 1000; i++)
    list = make_node(i, list);
  long sum = 0;
  for (int pass = 0; pass < 20; pass++)
    for (struct node *n = list; n; n = n->next)
      sum += n->value;
  size_t total = 0;
  for (int i = 0; i < 500; i++) {
    char *s = scratch("line", i);
    total += strlen(s);
    free(s);
  }
  void *volatile lost = leak(4096);
  (void)lost;
  while (list) {
    struct node *next = list->next;
    free(list);
    list = next;
  }
  free(cold);
  printf("demo: sum=%ld chars=%zu\n", sum, total);
  return 0;
}
