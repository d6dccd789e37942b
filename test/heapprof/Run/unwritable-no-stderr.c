// Under heapprof run the program's stderr is its own output: a profile
// that can be written neither in -o DIR nor in TMPDIR (else /tmp) is not
// written there as a last resort, as a -fheapprof build's is
// (TestCases/unwritable_profile.c), but said in one warning naming both
// paths and their errors.  Chromium's sandboxed processes, chroot'ed away
// from both, put seven raw profiles on its stderr a run.
// RUN: %clang_plain -O0 %s -o %t
// RUN: rm -rf %t.d %t.file && echo > %t.file
// RUN: printf 'own stderr line\n' > %t.own
//
// The program replaces its -o directory with a regular file before it
// exits, and TMPDIR is under a regular file too: neither can be written
// (even by root).  Its stdout is its own two lines, and its stderr is its
// own line and the warning, no raw bytes (the raw profile's HPEXT section
// name would be among them).
// RUN: env TMPDIR=%t.file/sub heapprof run -o %t.d -- %t replace %t.d > %t.out 2> %t.err
// RUN: FileCheck %s --check-prefix=OUT < %t.out
// OUT: allocated 10 of 10
// OUT-NEXT: replaced 0
// RUN: FileCheck %s --check-prefix=WARN --input-file=%t.err -DDIR=%t.d -DTMP=%t.file/sub
// WARN: own stderr line
// WARN-NEXT: HeapProf: WARNING: cannot write profile '[[DIR]]/heapprof.unwritable-no-stderr.c.tmp.{{[0-9]+}}.profraw': a path component is not a directory, nor '[[TMP]]/heapprof.unwritable-no-stderr.c.tmp.{{[0-9]+}}.profraw': a path component is not a directory; not writing it (heapprof run: the program's stderr is its own)
// RUN: not grep -q -a HPEXT %t.err
// RUN: grep -a -v '^HeapProf: WARNING: cannot write profile' %t.err | cmp - %t.own
//
// The text form (print_text=1) went to stderr the same way: it goes to
// TMPDIR now, the warning naming it, and not to stderr.
// RUN: rm -rf %t.d %t.tmp && mkdir %t.tmp
// RUN: env TMPDIR=%t.tmp HEAPPROF_OPTIONS=print_text=1:print_raw=0 heapprof run -o %t.d -- %t replace %t.d > %t.out 2> %t.terr
// RUN: FileCheck %s --check-prefix=TEXT --input-file=%t.terr -DDIR=%t.d -DTMP=%t.tmp
// TEXT: own stderr line
// TEXT-NEXT: HeapProf: WARNING: cannot write profile '[[DIR]]/heapprof.unwritable-no-stderr.c.tmp.{{[0-9]+}}.txt': a path component is not a directory; wrote it to '[[TMP]]/heapprof.unwritable-no-stderr.c.tmp.{{[0-9]+}}.txt' instead
// RUN: grep -a -v '^HeapProf: WARNING: cannot write profile' %t.terr | cmp - %t.own
// 10 objects of 100 bytes, kept to the exit: 1,000 bytes live.
// RUN: cat %t.tmp/*.txt | FileCheck %s --check-prefix=TEXTFILE
// TEXTFILE: live at dump: 10, continued from earlier dumps: 0, live bytes: 1000
//
// As Chromium's sandbox does: the program chroots into an empty procfs
// directory, where -o DIR and TMPDIR cannot be made.  heapprof says what
// the chroot costs (the leak check, the profile's root) on lines of its
// own; besides its warnings, stderr is the program's one line.
// REQUIRES: root
// RUN: rm -rf %t.d && heapprof run -o %t.d -- %t chroot > %t.out 2> %t.cerr
// RUN: FileCheck %s --check-prefix=CHROOT < %t.out
// CHROOT: allocated 10 of 10
// CHROOT-NEXT: chroot 0
// RUN: FileCheck %s --check-prefix=CWARN --input-file=%t.cerr -DDIR=%t.d
// CWARN: own stderr line
// CWARN: HeapProf: WARNING: cannot write profile '[[DIR]]/heapprof.unwritable-no-stderr.c.tmp.{{[0-9]+}}.profraw': {{.*}}, nor '{{.*}}/heapprof.unwritable-no-stderr.c.tmp.{{[0-9]+}}.profraw': {{.*}}; not writing it (heapprof run: the program's stderr is its own)
// RUN: not grep -q -a HPEXT %t.cerr
// RUN: grep -a -v '^HeapProf: WARNING: ' %t.cerr | cmp - %t.own
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void *volatile keep[10];

int main(int argc, char **argv) {
  int ok = 0;
  for (int i = 0; i < 10; i++)
    ok += (keep[i] = malloc(100)) != NULL;
  printf("allocated %d of 10\n", ok);
  fprintf(stderr, "own stderr line\n");
  if (!strcmp(argv[1], "replace")) {
    rmdir(argv[2]);
    int fd = open(argv[2], O_WRONLY | O_CREAT | O_EXCL, 0644);
    printf("replaced %d\n", fd < 0 ? -1 : close(fd));
  } else {
    int r = chroot("/proc/self/fdinfo");
    printf("chroot %d\n", r ? r : chdir("/"));
  }
  return 0;
}
