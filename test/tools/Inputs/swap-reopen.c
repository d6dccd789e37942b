// A test shim (LD_PRELOAD) for the tools that read their inputs twice:
// from the second fopen of the file named by HP_TEST_SWAP_FROM on, it
// opens HP_TEST_SWAP_TO instead, as if the file had been rewritten
// between the two reads.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

FILE *fopen(const char *path, const char *mode) {
  static FILE *(*real)(const char *, const char *);
  static int opens;
  if (!real)
    real = (FILE * (*)(const char *, const char *)) dlsym(RTLD_NEXT, "fopen");
  const char *from = getenv("HP_TEST_SWAP_FROM");
  const char *to = getenv("HP_TEST_SWAP_TO");
  if (from && to && !strcmp(path, from) && ++opens >= 2)
    path = to;
  return real(path, mode);
}
