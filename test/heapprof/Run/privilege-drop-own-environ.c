// A server's worker that drops privileges and may not write into the 0700
// directory heapprof run made for root has its profile written to TMPDIR
// (privilege-drop.c), the caller's: also when the server has given its
// workers an environment of its own making, without TMPDIR, as nginx does
// (ngx_set_environment: TZ and what `env` directives name).  The worker
// keeps 3 blocks of 1234 bytes (3,702 bytes); its profile is in TMPDIR,
// where the warning in its stderr (nginx's error_log) says it is.  Before,
// the runtime asked the worker's environment for TMPDIR, found none, and
// wrote it to /tmp.
// REQUIRES: root
// RUN: rm -rf %t.run %t.tmp && mkdir %t.tmp && chmod 1777 %t.tmp
// RUN: %clang_plain -O0 -g %s -o %t
// RUN: env TMPDIR=%t.tmp heapprof run -o %t.run -- %t 2> %t.log
// RUN: FileCheck %s --input-file=%t.log -DPROF=%t.run -DTMP=%t.tmp
// RUN: ls %t.tmp | count 1
// RUN: heapprof show %t.tmp/*.profraw | FileCheck %s --check-prefix=WORKER
// The same built with -fheapprof.
// RUN: rm -rf %t.prof %t.tmp && mkdir %t.tmp %t.prof && chmod 1777 %t.tmp && chmod 700 %t.prof
// RUN: %clang_heapprof -O0 -g %s -o %t.built
// RUN: env TMPDIR=%t.tmp %env_heapprof_opts=profile_dir=%t.prof %run %t.built 2> %t.log2
// RUN: FileCheck %s --input-file=%t.log2 -DPROF=%t.prof -DTMP=%t.tmp
// RUN: ls %t.tmp | count 1
// RUN: heapprof show %t.tmp/*.profraw | FileCheck %s --check-prefix=WORKER

// CHECK: HeapProf: WARNING: cannot write profile '[[PROF]]/heapprof.{{[^']*}}.[[PID:[0-9]+]].profraw': permission denied; wrote it to '[[TMP]]/heapprof.{{[^']*}}.[[PID]].profraw' instead
// CHECK-NEXT: worker done
// WORKER: MIB stack id {{[0-9]+}}: AllocCount=3 {{.*}}TotalSize=3702
#include "../Inputs/privilege_drop.h"

void *volatile keep;

int main(void) {
  keep = malloc(555);
  static char *workers_env[] = {"TZ=UTC", NULL};
  return drop_privileges_worker(workers_env, "worker done");
}
