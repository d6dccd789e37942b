// A program built with -fheapprof that replaces itself with exec, run under
// heapprof run: its own runtime (the executable's) does the profiling, but
// heapprof run's environment is held by the preloaded one, which gives it
// back for the exec, so the new image is profiled into -o DIR too, with
// access counts; its children get the caller's environment.
// "first" makes 3 objects of 24 bytes (4 stores each: 3 words, one of them
// written twice) and execs itself as "second", which makes 5 objects of 48
// bytes (6 stores each) and prints the variables heapprof run sets.
// REQUIRES: heapprof-driver
// RUN: %clang_heapprof -O0 -g %s -o %t
// RUN: rm -rf %t.d && mkdir %t.d && cd %t.d && env -u LD_PRELOAD -u HEAPPROF_OPTIONS heapprof run -o %t.d/out -- %t first > %t.out
// RUN: FileCheck %s --check-prefix=ENV < %t.out
// ENV: LD_PRELOAD (unset)
// ENV-NEXT: HEAPPROF_OPTIONS (unset)
// ENV-NEXT: HEAPPROF_RUN (unset)
//
// Both images' profiles in -o DIR (the first one's a checkpoint at the
// exec), none elsewhere.
// RUN: ls %t.d/out | FileCheck %s --check-prefix=FILES
// RUN: ls %t.d/out | count 2
// RUN: ls %t.d | count 1
// FILES: heapprof.instrumented-exec-self.c.tmp.[[PID:[0-9]+]].1.profraw
// FILES-NEXT: heapprof.instrumented-exec-self.c.tmp.[[PID]].profraw
// RUN: heapprof report --full %t.d/out | FileCheck %s --check-prefix=REPORT
// 3 x 4 + 5 x 6 stores:
// REPORT: heapprof report: 2 processes, 2 files
// REPORT: allocations      8 objects, 312 bytes
// REPORT: accesses         42
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static long *volatile keep[8];

// write(2), not stdio: stdout's buffer would be one more object.
static void show(const char *var) {
  const char *v = getenv(var);
  char line[512];
  int n = snprintf(line, sizeof(line), "%s %s\n", var, v ? v : "(unset)");
  if (write(1, line, (size_t)n) != n)
    exit(2);
}

int main(int argc, char **argv) {
  if (argc > 1 && !strcmp(argv[1], "first")) {
    for (int i = 0; i < 3; i++) {
      long *p = malloc(24);
      for (int j = 0; j < 4; j++)
        p[j % 3] = j;
      keep[i] = p;
    }
    char *next[] = {argv[0], "second", NULL};
    execv(argv[0], next);
    return 127;
  }
  for (int i = 0; i < 5; i++) {
    long *p = malloc(48);
    for (int j = 0; j < 6; j++)
      p[j] = j;
    keep[i] = p;
  }
  show("LD_PRELOAD");
  show("HEAPPROF_OPTIONS");
  show("HEAPPROF_RUN");
  return 0;
}
