/* Objects allocated by one thread and freed by another, for sampled mode
 * on another allocator (allocator-sampled.test): thread A allocates 10000
 * blocks of 48 bytes (site_x), main joins it, and thread B frees them all.
 * Prints nothing. */
#include <pthread.h>
#include <stdlib.h>

enum { N = 10000 };
static void *blocks[N];

__attribute__((noinline)) void *site_x(void) { return malloc(48); }

static void *alloc_all(void *arg) {
  for (int i = 0; i < N; i++)
    blocks[i] = site_x();
  return arg;
}

static void *free_all(void *arg) {
  for (int i = 0; i < N; i++)
    free(blocks[i]);
  return arg;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, NULL, alloc_all, NULL);
  pthread_join(t, NULL);
  pthread_create(&t, NULL, free_all, NULL);
  pthread_join(t, NULL);
  return 0;
}
