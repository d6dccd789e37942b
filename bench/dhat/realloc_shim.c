/* bench/dhat: preloaded under DHAT only.  realloc as malloc + copy + free
   at the realloc call's stack, so that DHAT charges each realloc'd block to
   the realloc call, as heapprof does (DHAT charges it to the block's first
   allocation).  Counts are unchanged: one block per realloc that returns
   one, none for realloc(p, 0). */
#define _GNU_SOURCE
#include <malloc.h>
#include <stdlib.h>
#include <string.h>
__attribute__((noinline)) void *realloc(void *p, size_t n) {
  if (!p) return malloc(n);
  if (n == 0) { free(p); return NULL; }
  void *q = malloc(n);
  if (!q) return NULL;
  size_t o = malloc_usable_size(p);
  memcpy(q, p, o < n ? o : n);
  free(p);
  return q;
}
void *reallocarray(void *p, size_t a, size_t b) {
  size_t n;
  if (__builtin_mul_overflow(a, b, &n)) return NULL;
  return realloc(p, n);
}
