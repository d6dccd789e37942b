// An exec that cannot start writes no profile.  dash's `exec PROG`
// (`sh -c 'exec vim ...'`, a wrapper script's `exec "$@"`) searches PATH
// itself, one execve per directory, and the image's profile used to be
// written before each try: one checkpoint file per directory tried, all
// but the first empty.  Now a try whose file is missing, is not a regular
// file, or is executable by no one fails at once, without a checkpoint.
//
// The program (not rebuilt: plain clang) searches as dash does.  "search"
// makes 3 objects of 111 bytes and tries, in order: a directory that does
// not exist, one without the file, one where the name is a directory, one
// where it is a file without an x bit, and last the program itself, which
// runs as "second": 5 objects of 222 bytes.
// RUN: %clang_plain -O0 %s -o %t
// RUN: rm -rf %t.none %t.empty %t.isdir %t.noexec %t.bin %t.d*
// RUN: mkdir -p %t.empty %t.isdir/prog %t.noexec %t.bin
// RUN: touch %t.noexec/prog && chmod 644 %t.noexec/prog && cp %t %t.bin/prog
// RUN: env -u LD_PRELOAD heapprof run -o %t.d1 -- %t search %t.none %t.empty %t.isdir %t.noexec %t.bin | FileCheck %s --check-prefix=SEARCH
// SEARCH: second: 5 objects
//
// Two profiles: the first image's, written once, at the exec that
// started, with its 3 objects; the second image's at its exit.  (Before,
// six: five checkpoints, one per try.)
// RUN: ls %t.d1 | FileCheck %s --check-prefix=FILES
// RUN: ls %t.d1 | count 2
// FILES: heapprof.exec-path-search.c.tmp.[[PID:[0-9]+]].1.profraw
// FILES-NEXT: heapprof.prog.[[PID]].profraw
// RUN: heapprof report %t.d1 | FileCheck %s --check-prefix=BINS
// BINS: heapprof report: 2 processes, 2 files
// BINS: == Allocation bins
// BINS: {{^ *111 +3 }}
// BINS: {{^ *222 +5 }}
//
// "fail": the same four tries and no fifth; the program goes on, makes 6
// objects of 444 bytes and exits.  One profile, the exit's, with both.
// RUN: env -u LD_PRELOAD heapprof run -o %t.d2 -- %t fail %t.none %t.empty %t.isdir %t.noexec | FileCheck %s --check-prefix=FAIL
// FAIL: 4 tries failed: ENOENT ENOENT EACCES EACCES
// RUN: ls %t.d2 | count 1
// RUN: heapprof report %t.d2 | FileCheck %s --check-prefix=BOTH
// BOTH: heapprof report: 1 process, 1 file
// BOTH: == Allocation bins
// BOTH: {{^ *111 +3 }}
// BOTH: {{^ *444 +6 }}
//
// The shell's own search: whether sh searches PATH with one execve per
// directory (dash) or finds the file first (bash), two profiles, the
// shell's and the program's.
// RUN: env -u LD_PRELOAD heapprof run -o %t.d3 -- /bin/sh -c 'PATH=%t.none:%t.empty:%t.isdir:%t.noexec:%t.bin; exec prog second' | FileCheck %s --check-prefix=SEARCH
// RUN: ls %t.d3 | count 2
// RUN: ls %t.d3 | FileCheck %s --check-prefix=SHELL
// SHELL: heapprof.prog.{{[0-9]+}}.profraw
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void *volatile keep[16];

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "";
  if (!strcmp(mode, "search") || !strcmp(mode, "fail")) {
    for (int i = 0; i < 3; i++)
      keep[i] = malloc(111);
    char *next[] = {"prog", "second", NULL};
    char errs[256] = "";
    int tries = 0;
    for (int i = 2; i < argc; i++) {
      char path[4096];
      snprintf(path, sizeof(path), "%s/prog", argv[i]);
      execv(path, next);
      tries++;
      strcat(errs, errno == ENOENT ? " ENOENT"
                   : errno == EACCES ? " EACCES"
                                     : " other");
    }
    printf("%d tries failed:%s\n", tries, errs);
    for (int i = 0; i < 6; i++)
      keep[3 + i] = malloc(444);
    return 0;
  }
  for (int i = 0; i < 5; i++)
    keep[i] = malloc(222);
  printf("second: 5 objects\n");
  return 0;
}
