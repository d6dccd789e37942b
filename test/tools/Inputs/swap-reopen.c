// A test shim (LD_PRELOAD) for the tools that read their inputs twice:
// from the second open of the file named by HP_TEST_SWAP_FROM on (fopen,
// as merge reads it, or open, as report's loader maps it), it opens
// HP_TEST_SWAP_TO instead, as if the file had been rewritten between the
// two reads.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int opens;

static const char *swapped(const char *path) {
  const char *from = getenv("HP_TEST_SWAP_FROM");
  const char *to = getenv("HP_TEST_SWAP_TO");
  if (from && to && !strcmp(path, from) && ++opens >= 2)
    return to;
  return path;
}

FILE *fopen(const char *path, const char *mode) {
  static FILE *(*real)(const char *, const char *);
  if (!real)
    real = (FILE * (*)(const char *, const char *)) dlsym(RTLD_NEXT, "fopen");
  return real(swapped(path), mode);
}

static int open_with(const char *name, const char *path, int flags,
                     va_list ap) {
  int (*real)(const char *, int, ...) =
      (int (*)(const char *, int, ...))dlsym(RTLD_NEXT, name);
  mode_t mode = (flags & (O_CREAT | O_TMPFILE)) ? va_arg(ap, mode_t) : 0;
  return real(swapped(path), flags, mode);
}

int open(const char *path, int flags, ...) {
  va_list ap;
  va_start(ap, flags);
  int fd = open_with("open", path, flags, ap);
  va_end(ap);
  return fd;
}

int open64(const char *path, int flags, ...) {
  va_list ap;
  va_start(ap, flags);
  int fd = open_with("open64", path, flags, ap);
  va_end(ap);
  return fd;
}
