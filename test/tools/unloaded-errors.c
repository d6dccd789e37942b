// Section 11 (the modules dlclose unloaded) as the tools read it: heapprof
// show lists the module, report names it unloaded, and a damaged section
// is refused with one error naming the file, by show, report and merge
// (which writes nothing); random damage (100 copies for report and show,
// 50 for merge) crashes none of them.
// REQUIRES: heapprof-driver
// RUN: %clang_heapprof -O0 -g -shared -fPIC -DLIB %s -o %t-lib.so
// RUN: %clang_heapprof -O0 -g %s -o %t -ldl
// RUN: rm -rf %t.d %t.m && mkdir -p %t.d %t.m
// RUN: %env_heapprof_opts=profile_dir=%t.d %run %t %t-lib.so
// RUN: heapprof show %t.d/*.profraw | FileCheck %s --check-prefix=SHOW
// SHOW: unloaded modules: 1, dropped=0
// SHOW-NEXT: unloaded at {{[0-9]+}} ms: {{.*}}-lib.so bias 0x{{[0-9a-f]+}} build id {{[0-9a-f]+}} 0x{{[0-9a-f]+}}-0x{{[0-9a-f]+$}}
// RUN: heapprof report --format json %t.d | FileCheck %s --check-prefix=JSON
// JSON: "main": true,
// JSON-NEXT: "symbolized": true,
// JSON-NEXT: "addresses": {{[1-9][0-9]*}},
// JSON-NEXT: "unnamed": 0,
// JSON-NEXT: "unloaded_ms": null
// JSON: "path": "{{.*}}-lib.so",
// JSON-NEXT: "file": "{{.*}}-lib.so",
// JSON-NEXT: "build_id": "{{[0-9a-f]+}}",
// JSON-NEXT: "main": false,
// JSON-NEXT: "symbolized": true,
// JSON-NEXT: "addresses": {{[1-9][0-9]*}},
// JSON-NEXT: "unnamed": 0,
// JSON-NEXT: "unloaded_ms": {{[0-9]+$}}
//
// RUN: %python %S/Inputs/unloaded-section.py head %t.d/*.profraw %t.head.profraw
// RUN: %python %S/Inputs/unloaded-section.py count %t.d/*.profraw %t.count.profraw
// RUN: %python %S/Inputs/unloaded-section.py build-id %t.d/*.profraw %t.id.profraw
// RUN: %python %S/Inputs/unloaded-section.py segs %t.d/*.profraw %t.segs.profraw
// RUN: %python %S/Inputs/unloaded-section.py seg-end %t.d/*.profraw %t.end.profraw
// RUN: not heapprof report %t.head.profraw 2>&1 | FileCheck %s --check-prefix=HEAD -DFILE=%t.head.profraw
// HEAD: heapprof: error: [[FILE]]: corrupt: the unloaded modules' section (tag 11) has a 2-word head
// HEAD-NOT: error
// RUN: not heapprof show %t.count.profraw 2>&1 | FileCheck %s --check-prefix=COUNT -DFILE=%t.count.profraw
// COUNT: heapprof: error: [[FILE]]: corrupt: 1000000 unloaded modules at offset 0x{{[0-9a-f]+}} cannot fit in the {{[0-9]+}} bytes left
// RUN: not heapprof report %t.id.profraw 2>&1 | FileCheck %s --check-prefix=ID -DFILE=%t.id.profraw
// ID: heapprof: error: [[FILE]]: corrupt: unloaded module 0 has a 33-byte build id (at most 32)
// RUN: not heapprof report %t.segs.profraw 2>&1 | FileCheck %s --check-prefix=SEGS -DFILE=%t.segs.profraw
// SEGS: heapprof: error: [[FILE]]: corrupt: unloaded module 0 has 5 segments (at most 4)
// RUN: not heapprof merge -o %t.m/bad.profraw %t.end.profraw 2>&1 | FileCheck %s --check-prefix=END -DFILE=%t.end.profraw
// END: heapprof: error: [[FILE]]: corrupt: unloaded module 0's segment 0 ends at 0x[[ADDR:[0-9a-f]+]], not above its start 0x[[ADDR]]
// RUN: not ls %t.m/bad.profraw
//
// RUN: %python %S/Inputs/mutate.py %t.d/heapprof.*.profraw %t.m 100 977 --alternate report,show -- %heapprof_bin_dir/heapprof @ALT @PROFILE | FileCheck %s --check-prefix=MUT
// RUN: %python %S/Inputs/mutate.py %t.d/heapprof.*.profraw %t.m 50 978 -- %heapprof_bin_dir/heapprof merge -o %t.m/out.profraw @PROFILE | FileCheck %s --check-prefix=MUT2
// MUT: 100 mutations, 0 bad
// MUT2: 50 mutations, 0 bad
#include <stdlib.h>

#ifdef LIB
void *lib_site(void) { return malloc(24); }
#else
#include <dlfcn.h>
#include <stdio.h>

int main(int argc, char **argv) {
  void *h = dlopen(argv[1], RTLD_NOW);
  if (!h) {
    fprintf(stderr, "%s\n", dlerror());
    return 1;
  }
  void *p = ((void *(*)(void))dlsym(h, "lib_site"))();
  dlclose(h);
  free(p);
  return 0;
}
#endif
