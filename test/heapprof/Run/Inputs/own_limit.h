// own_limit: the program sets itself a memory limit of 256 MiB, soft and
// hard, of the kind its first argument names ("data": RLIMIT_DATA, else
// RLIMIT_AS), as a sandboxing server does: the Run/rlimit-*.c tests of a
// heap at a limit the program set itself (heapprof_rlimit.c).  Exits 1
// with setrlimit's error if the kernel refuses.
#ifndef HEAPPROF_TEST_OWN_LIMIT_H
#define HEAPPROF_TEST_OWN_LIMIT_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

static void set_own_limit(int argc, char **argv) {
  int res = argc > 1 && !strcmp(argv[1], "data") ? RLIMIT_DATA : RLIMIT_AS;
  struct rlimit r = {256ull << 20, 256ull << 20};
  if (setrlimit(res, &r)) {
    perror("setrlimit");
    exit(1);
  }
}
#endif
