// A program that holds every descriptor its soft limit allows (EMFILE)
// still gets its profile, symbolized: heapprof needs two descriptors for a
// moment (the directory and the file; the symbolizer's socket pair) and
// raises the soft limit by up to 16 within the hard limit, then puts it
// back.  With the hard limit there too, the profile goes to stderr
// with a warning that names the limit.
// RUN: %clang_rt_heapprof -O0 %s -o %t
// RUN: rm -rf %t.dir && mkdir %t.dir
// RUN: %env_heapprof_opts=print_raw=0:print_text=1:profile_dir=%t.dir %run %t soft 2>&1 | FileCheck %s --check-prefix=SOFT
// SOFT: checkpoint: 0
// SOFT-NEXT: soft limit after it: 32
// SOFT-NOT: WARNING
// RUN: ls %t.dir | FileCheck %s --check-prefix=SOFT-FILES
// SOFT-FILES: heapprof.{{.*}}.1.txt
// SOFT-FILES-NEXT: heapprof.{{.*}}.txt
// RUN: cat %t.dir/*.1.txt | FileCheck %s --check-prefix=SOFT-SYM
// SOFT-SYM: Stack for id
// SOFT-SYM-NEXT: in main {{.*}}fd_limit.c
// RUN: rm -rf %t.dir && mkdir %t.dir
// RUN: %env_heapprof_opts=print_raw=0:print_text=1:profile_dir=%t.dir %run %t hard 2>&1 | FileCheck %s --check-prefix=HARD
// HARD: HeapProf: WARNING: cannot write profile '{{.*}}.1.txt': too many open files (the process's descriptor limit, ulimit -n); writing it to stderr instead
// HARD: HeapProf profile: {{.*}} checkpoint, dump 1
// HARD: checkpoint: -1
#include <fcntl.h>
#include <heapprof/heapprof_interface.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

int main(int argc, char **argv) {
  (void)argc;
  char *volatile p = malloc(100);
  p[0] = 1;
  struct rlimit rl;
  getrlimit(RLIMIT_NOFILE, &rl);
  rl.rlim_cur = 32;
  if (!strcmp(argv[1], "hard"))
    rl.rlim_max = 32;
  if (setrlimit(RLIMIT_NOFILE, &rl) != 0)
    return 1;
  while (open("/dev/null", O_RDONLY) >= 0) {
  }
  fprintf(stderr, "checkpoint: %d\n", __heapprof_dump());
  getrlimit(RLIMIT_NOFILE, &rl);
  fprintf(stderr, "soft limit after it: %llu\n", (unsigned long long)rl.rlim_cur);
  free(p);
  return 0;
}
