#include <stdlib.h>

/* 10 volatile int stores into a 40-byte chunk: 10 accesses at any -O. */
__attribute__((noinline)) int *fill(void) {
  volatile int *p = malloc(10 * sizeof(int));
  for (int i = 0; i < 10; i++)
    p[i] = i;
  return (int *)p;
}
