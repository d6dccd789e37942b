// A process that drops privileges (a server's worker: nginx's run as
// nobody) may not write into the 0700 directory its root parent made.
// Its raw profile then goes to TMPDIR, and the warning in its stderr names
// both files. Its stderr is the program's own log here, as nginx's
// error_log is: no profile bytes may land in it. The parent forks a child
// that becomes nobody and keeps 3 blocks of 1234 bytes; the parent's
// profile is written where asked.
// REQUIRES: root
// RUN: rm -rf %t.prof %t.tmp && mkdir %t.tmp && chmod 1777 %t.tmp
// RUN: %clang_heapprof -O0 -g %s -o %t
// RUN: env TMPDIR=%t.tmp %env_heapprof_opts=profile_dir=%t.prof %run %t 2> %t.log
// RUN: FileCheck %s --check-prefixes=CHECK,MKDIR --input-file=%t.log -DPROF=%t.prof -DTMP=%t.tmp
// RUN: not grep -q -a HPEXT %t.log
// RUN: heapprof show %t.tmp/*.profraw | FileCheck %s --check-prefix=CHILD
// RUN: heapprof show %t.prof/*.profraw | FileCheck %s --check-prefix=PARENT
// The same program not rebuilt, under heapprof run, which makes the
// directory (0700) before the program starts, as nginx's master does by
// writing first:
// RUN: rm -rf %t.run %t.tmp && mkdir %t.tmp && chmod 1777 %t.tmp
// RUN: %clang_plain -O0 -g %s -o %t.plain
// RUN: env TMPDIR=%t.tmp heapprof run -o %t.run -- %t.plain 2> %t.runlog
// RUN: FileCheck %s --check-prefixes=CHECK,DENIED --input-file=%t.runlog -DPROF=%t.run -DTMP=%t.tmp
// RUN: not grep -q -a HPEXT %t.runlog
// RUN: heapprof show %t.tmp/*.profraw | FileCheck %s --check-prefix=CHILD
// RUN: heapprof show %t.run/*.profraw | FileCheck %s --check-prefix=PARENT
// When TMPDIR is no better (root's 0700 directory too), and stderr is no
// terminal, the bytes go to stderr as the last resort, with the warning.
// RUN: rm -rf %t.prof %t.tmp && mkdir %t.tmp && chmod 700 %t.tmp
// RUN: env TMPDIR=%t.tmp %env_heapprof_opts=profile_dir=%t.prof %run %t 2> %t.log2
// RUN: FileCheck %s --check-prefix=LAST --input-file=%t.log2 -DPROF=%t.prof -DTMP=%t.tmp
// RUN: grep -q -a HPEXT %t.log2

// The runtime makes -fheapprof's directory when it first writes: here the
// child does, and may not.
// MKDIR: HeapProf: WARNING: cannot write profile '[[PROF]]/heapprof.privilege-drop.c.tmp.[[PID:[0-9]+]].profraw': cannot create directory '[[PROF]]': permission denied; wrote it to '[[TMP]]/heapprof.privilege-drop.c.tmp.[[PID]].profraw' instead
// DENIED: HeapProf: WARNING: cannot write profile '[[PROF]]/heapprof.privilege-drop.c.tmp.plain.[[PID:[0-9]+]].profraw': permission denied; wrote it to '[[TMP]]/heapprof.privilege-drop.c.tmp.plain.[[PID]].profraw' instead
// CHECK-NEXT: child done
// CHECK-NOT: WARNING
// LAST: HeapProf: WARNING: cannot write profile '[[PROF]]/heapprof.privilege-drop.c.tmp.[[PID:[0-9]+]].profraw': cannot create directory '[[PROF]]': permission denied, nor '[[TMP]]/heapprof.privilege-drop.c.tmp.[[PID]].profraw': permission denied; writing it to stderr instead

// CHILD: MIB stack id {{[0-9]+}}: AllocCount=3 {{.*}}TotalSize=3702
// PARENT-NOT: TotalSize=3702
// PARENT: MIB stack id {{[0-9]+}}: AllocCount=1 {{.*}}TotalSize=555
// PARENT-NOT: TotalSize=3702
#include "../Inputs/privilege_drop.h"

void *volatile keep;

__attribute__((noinline)) void *master_buffer(void) { return malloc(555); }

int main(void) {
  keep = master_buffer();
  return drop_privileges_worker(NULL, "child done");
}
