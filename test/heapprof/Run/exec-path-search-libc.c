// execvp, execlp and execvpe of a name without a '/': glibc searches PATH
// itself, trying each directory with an execve inside libc that no
// interposer sees.  A search that found the program nowhere still wrote
// the image's profile as a checkpoint before it, and the exit profile that
// followed made two files (Run/exec-path-search.c is the same for a search
// made with one execv per directory, as dash makes it).  Now the runtime
// asks first whether any name the search would try can start: none, no
// checkpoint; one, the checkpoint once, before glibc's search.
//
// "MODE PATH NAME": 3 objects of 111 bytes, then PATH (or none: "-") in an
// environment of the program's own (no allocation), and exec of NAME
// through MODE's function; the program itself, run so (fewer than three
// arguments), makes 5 objects of 222 bytes.  A failed exec prints its
// errno, then 6 objects of 444 bytes.  The directories tried: one that
// does not exist, one without the file, one where the name is a
// directory, one where it is a file without an x bit, and last one with
// the program.
// RUN: %clang_plain -O0 %s -o %t
// RUN: rm -rf %t.none %t.empty %t.isdir %t.noexec %t.bin %t.d* %t.s*
// RUN: mkdir -p %t.empty %t.isdir/prog %t.noexec %t.bin
// RUN: touch %t.noexec/prog && chmod 644 %t.noexec/prog && cp %t %t.bin/prog
//
// Under heapprof run.  Found in the last directory: two profiles, the
// first image's checkpoint, written once, with its 3 objects, and the
// second image's.
// RUN: env -u LD_PRELOAD heapprof run -o %t.d1 -- %t vp %t.none:%t.empty:%t.isdir:%t.noexec:%t.bin prog | FileCheck %s --check-prefix=FOUND
// FOUND: second: 5 objects
// RUN: ls %t.d1 | FileCheck %s --check-prefix=FILES
// RUN: ls %t.d1 | count 2
// FILES: heapprof.exec-path-search-libc.c.tmp.[[PID:[0-9]+]].1.profraw
// FILES-NEXT: heapprof.prog.[[PID]].profraw
// RUN: heapprof report %t.d1 | FileCheck %s --check-prefix=BINS
// BINS: heapprof report: 2 processes, 2 files
// BINS: == Allocation bins
// BINS: {{^ *111 +3 }}
// BINS: {{^ *222 +5 }}
//
// Found nowhere, through each function: glibc's errno (EACCES when a name
// tried was a directory or a file without an x bit, else ENOENT), and one
// profile, the exit's, with the 3 and the 6.  (Before, two: the
// checkpoint and the exit's.)
// RUN: env -u LD_PRELOAD heapprof run -o %t.d2 -- %t vp %t.none:%t.empty:%t.isdir:%t.noexec prog | FileCheck %s --check-prefix=VP
// VP: vp -1 EACCES
// RUN: ls %t.d2 | count 1
// RUN: heapprof report %t.d2 | FileCheck %s --check-prefix=EXIT
// EXIT: heapprof report: 1 process, 1 file
// EXIT: == Allocation bins
// EXIT: {{^ *111 +3 }}
// EXIT: {{^ *444 +6 }}
// RUN: env -u LD_PRELOAD heapprof run -o %t.d3 -- %t lp %t.none:%t.empty:%t.isdir:%t.noexec prog | FileCheck %s --check-prefix=LP
// LP: lp -1 EACCES
// RUN: ls %t.d3 | count 1
// RUN: heapprof report %t.d3 | FileCheck %s --check-prefix=EXIT
// RUN: env -u LD_PRELOAD heapprof run -o %t.d4 -- %t vpe %t.none:%t.empty prog | FileCheck %s --check-prefix=VPE
// VPE: vpe -1 ENOENT
// RUN: ls %t.d4 | count 1
// RUN: heapprof report %t.d4 | FileCheck %s --check-prefix=EXIT
//
// No PATH: glibc searches /bin:/usr/bin, where no such program is.
// RUN: env -u LD_PRELOAD heapprof run -o %t.d5 -- %t vp - heapprof-no-such-program | FileCheck %s --check-prefix=NOPATH
// NOPATH: vp -1 ENOENT
// RUN: ls %t.d5 | count 1
//
// An empty entry is the current directory, where the program is: found
// there, after two directories without it.
// RUN: cd %t.bin && env -u LD_PRELOAD heapprof run -o %t.d6 -- %t vpe %t.none::%t.empty prog | FileCheck %s --check-prefix=FOUND
// RUN: ls %t.d6 | count 2
// RUN: ls %t.d6 | FileCheck %s --check-prefix=FILES
//
// A name of NAME_MAX (255) bytes is one glibc tries (only a longer one
// fails at once, ENAMETOOLONG): found, the first image's profile written
// at the exec.  Taken for a name that cannot start, the exec went on
// without the checkpoint, and the first image's 3 objects were lost.
// RUN: rm -rf %t.long %t.d7 && mkdir -p %t.long
// RUN: sh -c 'n=$(%python -c "print(\"p\" * 255)") && cp %t %t.long/$n && env -u LD_PRELOAD heapprof run -o %t.d7 -- %t vp %t.long $n' | FileCheck %s --check-prefix=FOUND
// RUN: ls %t.d7 | count 2
// RUN: heapprof report %t.d7 | FileCheck %s --check-prefix=BINS
//
// The static runtime (-fheapprof): the same.
// RUN: %clang_heapprof -O0 %s -o %t.s
// RUN: mkdir -p %t.sbin && cp %t.s %t.sbin/prog
// RUN: %env_heapprof_opts=profile_dir=%t.s1 %run %t.s vp %t.none:%t.empty:%t.isdir:%t.noexec:%t.sbin prog | FileCheck %s --check-prefix=FOUND
// RUN: ls %t.s1 | count 2
// RUN: ls %t.s1 | FileCheck %s --check-prefix=SFILES
// SFILES: heapprof.exec-path-search-libc.c.tmp.s.[[PID:[0-9]+]].1.profraw
// SFILES-NEXT: heapprof.prog.[[PID]].profraw
// RUN: heapprof report %t.s1 | FileCheck %s --check-prefix=BINS
// RUN: %env_heapprof_opts=profile_dir=%t.s2 %run %t.s lp %t.none:%t.empty:%t.isdir:%t.noexec prog | FileCheck %s --check-prefix=LP
// RUN: ls %t.s2 | count 1
// RUN: heapprof report %t.s2 | FileCheck %s --check-prefix=EXIT
// RUN: %env_heapprof_opts=profile_dir=%t.s3 %run %t.s vpe - heapprof-no-such-program | FileCheck %s --check-prefix=NOPATHE
// NOPATHE: vpe -1 ENOENT
// RUN: ls %t.s3 | count 1
#define _GNU_SOURCE /* execvpe */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern char **environ;
static char *env[256];
static char path_var[4096];
static void *volatile keep[16];

int main(int argc, char **argv) {
  if (argc < 4) {
    for (int i = 0; i < 5; i++)
      keep[i] = malloc(222);
    printf("second: 5 objects\n");
    return 0;
  }
  const char *mode = argv[1];
  for (int i = 0; i < 3; i++)
    keep[i] = malloc(111);
  int n = 0;
  for (char **e = environ; *e && n < 254; e++)
    if (strncmp(*e, "PATH=", 5))
      env[n++] = *e;
  if (strcmp(argv[2], "-")) {
    snprintf(path_var, sizeof(path_var), "PATH=%s", argv[2]);
    env[n++] = path_var;
  }
  env[n] = NULL;
  environ = env;
  char *next[] = {argv[3], "second", NULL};
  if (!strcmp(mode, "vp"))
    execvp(argv[3], next);
  else if (!strcmp(mode, "lp"))
    execlp(argv[3], argv[3], "second", (char *)NULL);
  else
    execvpe(argv[3], next, env);
  int e = errno;
  printf("%s -1 %s\n", mode,
         e == ENOENT ? "ENOENT" : e == EACCES ? "EACCES" : "other");
  for (int i = 0; i < 6; i++)
    keep[3 + i] = malloc(444);
  return 0;
}
