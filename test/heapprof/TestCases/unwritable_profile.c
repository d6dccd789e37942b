// A profile that cannot be written where asked goes elsewhere (the text one
// to stderr, the raw one to TMPDIR), with a warning naming the path and the
// reason; nothing is lost.  A profile that is
// written is complete, and no temporary file is left behind.
// (A regular file used as a directory fails even for root.)
// RUN: %clang_rt_heapprof -O0 %s -o %t
// RUN: rm -rf %t.file %t.dir && echo > %t.file
// RUN: %env_heapprof_opts=print_text=1:print_raw=0:profile_dir=%t.file/sub %run %t 2>&1 | FileCheck %s --check-prefixes=CHECK,DIR -DPATH=%t.file/sub
// RUN: %env_heapprof_opts=print_text=1:print_raw=0:log_path=%t.file/prof %run %t 2>&1 | FileCheck %s --check-prefixes=CHECK,LOG -DPATH=%t.file/prof
// Checkpoints fall back the same way, and __heapprof_dump() returns -1.
// RUN: %env_heapprof_opts=print_text=1:print_raw=0:profile_dir=%t.file/sub %run %t dump 2>&1 | FileCheck %s --check-prefixes=CHECK,DIR,DUMP -DPATH=%t.file/sub
//
// A writable directory gets complete files and no .tmp leftovers.
// RUN: %env_heapprof_opts=print_text=1:print_raw=0:profile_dir=%t.dir %run %t dump 2>&1 | FileCheck %s --check-prefix=OK
// RUN: ls -a %t.dir | FileCheck %s --check-prefix=FILES
// RUN: cat %t.dir/heapprof.unwritable_profile.c.tmp.*.1.txt | FileCheck %s --check-prefix=COMPLETE
// The raw profile (the default format) is bytes, which would corrupt a
// program's log: it goes to TMPDIR (else /tmp) first, whatever stderr is,
// and the warning names the file; a checkpoint that went there returns -1.
// RUN: rm -rf %t.tmpdir && mkdir -p %t.tmpdir
// RUN: env TMPDIR=%t.tmpdir %env_heapprof_opts=profile_dir=%t.file/sub %run %t dump 2> %t.err
// RUN: FileCheck %s --check-prefix=RAWTMP --input-file=%t.err -DPATH=%t.file/sub -DTMP=%t.tmpdir
// RUN: not grep -q -a HPEXT %t.err
// RUN: heapprof show %t.tmpdir/*.1.profraw | FileCheck %s --check-prefix=TTYFILE
// RAWTMP: HeapProf: WARNING: cannot write profile '[[PATH]]/heapprof.unwritable_profile.c.tmp.{{[0-9]+}}.1.profraw': a path component is not a directory; wrote it to '[[TMP]]/heapprof.unwritable_profile.c.tmp.{{[0-9]+}}.1.profraw' instead
// RAWTMP-NEXT: dump returned -1
// RAWTMP-NEXT: HeapProf: WARNING: cannot write profile '[[PATH]]/heapprof.unwritable_profile.c.tmp.{{[0-9]+}}.profraw': a path component is not a directory; wrote it to '[[TMP]]/heapprof.unwritable_profile.c.tmp.{{[0-9]+}}.profraw' instead
// Only when that fails too do the bytes go to stderr (redirect it to keep
// them), after one warning naming both places.
// RUN: env TMPDIR=%t.file/sub %env_heapprof_opts=profile_dir=%t.file/sub %run %t 2>&1 | grep -a -c "HeapProf: WARNING: cannot write profile .*\.profraw.: a path component is not a directory, nor .*\.profraw.: a path component is not a directory; writing it to stderr instead" | FileCheck %s --check-prefix=RAWFALLBACK
// RUN: env TMPDIR=%t.file/sub %env_heapprof_opts=profile_dir=%t.file/sub %run %t 2>&1 | grep -a -c HPEXT | FileCheck %s --check-prefix=RAWFALLBACK
// RAWFALLBACK: 1
// A warning longer than the runtime's 1 KiB message buffer (a directory name
// of 1000 characters) is written whole, its reason and newline included: it
// used to be cut at 1023 bytes, the raw bytes running on in its line.
// RUN: sh -c 'env TMPDIR=%t.file/sub %env_heapprof_opts=profile_dir=%t.file/$(printf "%%01000d" 0) %run %t' 2>&1 | grep -a -c "HeapProf: WARNING: cannot write profile .*/0\{1000\}/heapprof\.[^']*\.profraw.: a path component is not a directory, nor .*\.profraw.: a path component is not a directory; writing it to stderr instead$" | FileCheck %s --check-prefix=RAWFALLBACK
// A directory longer than a path may be (460 components of 9 bytes: 4140)
// is not written into cut to 4095 bytes, another directory, nor made: the
// profile goes to TMPDIR with the reason.
// RUN: rm -rf %t.deep %t.tmpdir && mkdir -p %t.tmpdir
// RUN: sh -c 'env TMPDIR=%t.tmpdir %env_heapprof_opts=profile_dir=%t.deep/$(printf "abcdefgh/%%.0s" $(seq 460)) %run %t' 2>&1 | FileCheck %s --check-prefix=DEEP -DTMP=%t.tmpdir
// DEEP: HeapProf: WARNING: cannot write profile '{{.*}}.deep/abcdefgh/{{(abcdefgh/)+}}/heapprof.unwritable_profile.c.tmp.{{[0-9]+}}.profraw': file name too long; wrote it to '[[TMP]]/heapprof.unwritable_profile.c.tmp.{{[0-9]+}}.profraw' instead
// RUN: not ls %t.deep
// A profile whose name and its -2 to -1000 are all earlier profiles (an
// image re-exec'd 1000 times in one process; here the program makes them)
// says so, not "temporary names kept colliding", and goes to TMPDIR.
// RUN: rm -rf %t.taken %t.tmpdir && mkdir -p %t.taken %t.tmpdir
// RUN: env TMPDIR=%t.tmpdir %env_heapprof_opts=profile_dir=%t.taken %run %t taken %t.taken 2>&1 | FileCheck %s --check-prefix=TAKEN -DDIR=%t.taken -DTMP=%t.tmpdir
// TAKEN: HeapProf: WARNING: cannot write profile '[[DIR]]/heapprof.unwritable_profile.c.tmp.{{[0-9]+}}.profraw': the name and its -2 to -1000 are taken by earlier profiles; wrote it to '[[TMP]]/heapprof.unwritable_profile.c.tmp.{{[0-9]+}}.profraw' instead
// When stderr is a terminal (script gives it one) the same: to TMPDIR,
// and heapprof show reads it whole. If that fails too, the bytes would be
// lost on the terminal, and garble it: nothing is written and the warning
// says how to get it.
// RUN: rm -rf %t.tmpdir && mkdir -p %t.tmpdir
// RUN: script -qec "env TMPDIR=%t.tmpdir HEAPPROF_OPTIONS=profile_dir=%t.file/sub %t" /dev/null | FileCheck %s --check-prefix=TTY -DPATH=%t.file/sub -DTMP=%t.tmpdir
// TTY: HeapProf: WARNING: cannot write profile '[[PATH]]/heapprof.unwritable_profile.c.tmp.{{[0-9]+}}.profraw': a path component is not a directory; wrote it to '[[TMP]]/heapprof.unwritable_profile.c.tmp.{{[0-9]+}}.profraw' instead
// TTY-NOT: HPEXT
// RUN: heapprof show %t.tmpdir/*.profraw | FileCheck %s --check-prefix=TTYFILE
// TTYFILE: 1 dump
// TTYFILE: MIB stack id {{[0-9]+}}: AllocCount=1 {{.*}}TotalSize=77 
// RUN: script -qec "env TMPDIR=%t.file/sub HEAPPROF_OPTIONS=profile_dir=%t.file/sub %t" /dev/null | FileCheck %s --check-prefix=TTYNONE -DPATH=%t.file/sub
// TTYNONE: cannot write profile '[[PATH]]/heapprof.{{.*}}.profraw': a path component is not a directory, nor '[[PATH]]/heapprof.{{.*}}.profraw': a path component is not a directory; not writing it (stderr is a terminal: redirect it to a file to get the raw profile there)
// TTYNONE-NOT: HPEXT
#include <heapprof/heapprof_interface.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

__attribute__((noinline)) void *make(void) { return malloc(77); }

int main(int argc, char **argv) {
  void *volatile p = make();
  if (argc > 2 && !strcmp(argv[1], "taken")) {
    for (int k = 1; k <= 1000; k++) {
      char name[4096];
      snprintf(name, sizeof(name),
               k == 1 ? "%s/heapprof.unwritable_profile.c.tmp.%d.profraw"
                      : "%s/heapprof.unwritable_profile.c.tmp.%d-%d.profraw",
               argv[2], (int)getpid(), k);
      fclose(fopen(name, "w"));
    }
  }
  if (argc > 1 && !strcmp(argv[1], "dump"))
    fprintf(stderr, "dump returned %d\n", __heapprof_dump());
  free(p);
  return 0;
}
// DUMP: HeapProf: WARNING: cannot write profile '[[PATH]]/heapprof.unwritable_profile.c.tmp.{{[0-9]+}}.1.txt': a path component is not a directory; writing it to stderr instead
// DUMP-NEXT: HeapProf profile: {{.*}}, checkpoint, dump 1
// DUMP: Summary: 1 contexts, 1 allocations, 77 bytes
// DUMP-NEXT: dump returned -1
// DIR: HeapProf: WARNING: cannot write profile '[[PATH]]/heapprof.unwritable_profile.c.tmp.{{[0-9]+}}.txt': a path component is not a directory; writing it to stderr instead
// LOG: HeapProf: WARNING: cannot write profile '[[PATH]].{{[0-9]+}}.txt': a path component is not a directory; writing it to stderr instead
// CHECK-NEXT: HeapProf profile: {{.*}}unwritable_profile.c.tmp pid {{[0-9]+}}, exit, dump 0
// CHECK: in make
// CHECK: Summary:

// OK: dump returned 0
// OK-NOT: WARNING

// FILES-NOT: .tmp.{{[0-9]+}}{{.*}}.txt.
// FILES: heapprof.unwritable_profile.c.tmp.{{[0-9]+}}.1.txt
// FILES-NEXT: heapprof.unwritable_profile.c.tmp.{{[0-9]+}}.txt
// FILES-NOT: {{.}}

// COMPLETE: HeapProf profile: {{.*}}, checkpoint, dump 1
// COMPLETE: alloc_count 1, size (ave/min/max) 77.00 / 77 / 77
// COMPLETE: in make
// COMPLETE: Summary: 1 contexts, 1 allocations, 77 bytes
