// One binary run under two names (a hard link, as git runs as git and
// git-upload-pack, busybox as each of its commands): report names each
// process by the path its own map records, not the first path seen for the
// binary's build id.  Three runs as %t, two as the link.
// RUN: rm -rf %t.dir %t-link && mkdir -p %t.dir
// RUN: %clang_heapprof -O0 -g %s -o %t
// RUN: ln %t %t-link
// RUN: %env_heapprof_opts=profile_dir=%t.dir %run %t-link
// RUN: %env_heapprof_opts=profile_dir=%t.dir %run %t
// RUN: %env_heapprof_opts=profile_dir=%t.dir %run %t
// RUN: %env_heapprof_opts=profile_dir=%t.dir %run %t-link
// RUN: %env_heapprof_opts=profile_dir=%t.dir %run %t
// RUN: heapprof report %t.dir | FileCheck %s -DT=%t
// CHECK: heapprof report: 5 processes, 5 files
// CHECK-DAG: process          [[T]]-link: 2 processes, pids
// CHECK-DAG: process          [[T]]: 3 processes, pids
// RUN: heapprof report --format json %t.dir | %python -c "import json,sys,collections; r=json.load(sys.stdin); print(sorted(collections.Counter(p['program'].rsplit('/',1)[1] for p in r['summary']['processes']).items()))" | FileCheck %s --check-prefix=JSON
// JSON: [('report-program-names.c.tmp', 3), ('report-program-names.c.tmp-link', 2)]
#include <stdlib.h>

int main(void) {
  char *volatile p = malloc(40);
  p[0] = 1;
  free(p);
  return 0;
}
