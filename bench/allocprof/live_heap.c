/*===- live_heap.c - a large live heap at the dump -----------------------===
 *
 *   live_heap OBJECTS
 *
 * Allocates OBJECTS 48-byte objects, writes every one, frees every other
 * one and keeps the rest live to the exit dump: what heap utilization's
 * scan at dump time walks (the heap's counters, the live chunks).
 *===----------------------------------------------------------------------===*/
#include "../micro/bench_common.h"

#include <string.h>

int main(int argc, char **argv) {
  long n = bench_arg(argc, argv, 1, 1000000, 1, "object count");
  char **objs = bench_xmalloc((size_t)n * sizeof *objs);
  uint64_t sum = 0;
  for (long i = 0; i < n; i++) {
    objs[i] = bench_xmalloc(48);
    memset(objs[i], (int)i, 48);
  }
  for (long i = 0; i < n; i += 2)
    free(objs[i]);
  for (long i = 1; i < n; i += 2)
    sum += (unsigned char)objs[i][47];
  bench_checksum("live_heap", sum);
  return 0;
}
