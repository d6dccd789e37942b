// A test shim (LD_PRELOAD) for the tools that map their inputs (hpr_map):
// changes the file named by HP_TEST_CHANGE_FILE while the tool has it
// mapped, at the HP_TEST_CHANGE_N-th call (from 1) of HP_TEST_CHANGE_AT:
// "qsort" (merge sorts its dumps after the first read, then each dump's
// stacks) or "madvise" (calls giving pages back, MADV_DONTNEED: the parse
// at each dump's end, then show and merge once a dump is read).
// HP_TEST_CHANGE_HOW is "truncate" (to half its size: the mapping past
// that raises SIGBUS) or "rewrite" (its own bytes written over it: the
// same bytes, a new modification time).
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static void maybe_change(const char *at) {
  static int calls;
  const char *file = getenv("HP_TEST_CHANGE_FILE");
  const char *want = getenv("HP_TEST_CHANGE_AT");
  const char *n = getenv("HP_TEST_CHANGE_N");
  const char *how = getenv("HP_TEST_CHANGE_HOW");
  if (!file || !want || !n || !how || strcmp(at, want) || ++calls != atoi(n))
    return;
  struct stat st;
  if (stat(file, &st))
    _exit(99);
  if (!strcmp(how, "truncate")) {
    if (truncate(file, st.st_size / 2))
      _exit(99);
    return;
  }
  int fd = open(file, O_RDWR);
  char *buf = malloc((size_t)st.st_size);
  if (fd < 0 || !buf || pread(fd, buf, (size_t)st.st_size, 0) != st.st_size ||
      pwrite(fd, buf, (size_t)st.st_size, 0) != st.st_size)
    _exit(99);
  free(buf);
  close(fd);
}

void qsort(void *base, size_t n, size_t size,
           int (*cmp)(const void *, const void *)) {
  static void (*real)(void *, size_t, size_t,
                      int (*)(const void *, const void *));
  if (!real)
    real = (void (*)(void *, size_t, size_t,
                     int (*)(const void *, const void *)))dlsym(RTLD_NEXT,
                                                                "qsort");
  maybe_change("qsort");
  real(base, n, size, cmp);
}

int madvise(void *addr, size_t len, int advice) {
  static int (*real)(void *, size_t, int);
  if (!real)
    real = (int (*)(void *, size_t, int))dlsym(RTLD_NEXT, "madvise");
  int rc = real(addr, len, advice);
  if (advice == MADV_DONTNEED)
    maybe_change("madvise");
  return rc;
}
