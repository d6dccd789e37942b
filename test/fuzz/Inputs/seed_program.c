/* Writes the raw profiles the reader fuzzer starts from: several allocation
 * contexts (small, large, freed, live at the dump), a checkpoint with
 * __heapprof_dump() and the exit profile.  Run with append_dumps=1 it writes
 * one file holding both dumps. */
#include <heapprof/heapprof_interface.h>
#include <stdlib.h>
#include <string.h>

__attribute__((noinline)) char *small(void) { return malloc(24); }
__attribute__((noinline)) char *large(void) { return malloc(200000); }
__attribute__((noinline)) char *live(void) { return calloc(10, 40); }

int main(void) {
  char *volatile keep = live();
  for (int i = 0; i < 3; i++) {
    char *volatile p = small();
    p[0] = (char)i;
    free(p);
  }
  char *volatile big = large();
  memset(big, 1, 4096);
  __heapprof_dump();
  free(big);
  keep[0] = 1;
  return 0;
}
