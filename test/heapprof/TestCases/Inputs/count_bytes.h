// count_bytes: what the fill tests (junk_fill.c, junk_on_free.c,
// fill_realloc.c) count in a block.
#ifndef HEAPPROF_TEST_COUNT_BYTES_H
#define HEAPPROF_TEST_COUNT_BYTES_H
#include <stddef.h>

// Counts the bytes of [p, p + n) equal to b, reading through volatile.
static size_t count_bytes(const volatile unsigned char *p, size_t n, int b) {
  size_t k = 0;
  for (size_t i = 0; i < n; i++)
    k += p[i] == (unsigned char)b;
  return k;
}
#endif
