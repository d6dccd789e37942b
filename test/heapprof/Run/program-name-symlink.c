// A program run by the name of a symbolic link to another file (Debian's
// /usr/bin/redis-server is a link to redis-check-rdb; busybox's applets):
// the profile names the process as the user ran it, the link, while its
// module, the file symbolized, is the real one. The runtime took the name
// from /proc/self/exe, which resolves links, so the report named the
// process check-tool. 100 objects of 204 bytes stay live from leak_site:
// 20,400 bytes, symbolized through the real file.
// RUN: rm -rf %t.real %t.bin %t.d %t.s %t.merged.profraw %t.bad.profraw && mkdir -p %t.real %t.bin
// RUN: %clang_plain -O0 -g %s -o %t.real/check-tool
// RUN: ln -s %t.real/check-tool %t.bin/server
// RUN: env -u LD_PRELOAD heapprof run -o %t.d -- %t.bin/server
// RUN: heapprof report %t.d | FileCheck %s --check-prefix=REPORT
// REPORT: {{^}}process {{ *}}{{.*}}.bin/server pid {{[0-9]+}}, 1 dump
// REPORT: {{^}}program {{ *}}{{.*}}.real/check-tool (build id
// REPORT: 19.9 KiB in 100 objects (204 B each)
// REPORT-NEXT: {{^ +}}leak_site {{.*}}program-name-symlink.c
// RUN: heapprof report --format json %t.d | %python -c "import json,sys; r=json.load(sys.stdin); print(r['summary']['processes'][0]['program'].rsplit('/',2)[-2:], sum(m['symbolized'] for m in r['summary']['modules'] if m['main']))" | FileCheck %s --check-prefix=JSON
// JSON: ['program-name-symlink.c.tmp.bin', 'server'] 1
// RUN: heapprof show %t.d/*.profraw | FileCheck %s --check-prefix=SHOW
// SHOW: run as: {{.*}}.bin/server{{$}}
// A merge of the process's dumps keeps the section (all agree).
// RUN: heapprof merge -o %t.merged.profraw %t.d
// RUN: heapprof show %t.merged.profraw | FileCheck %s --check-prefix=SHOW
// A damaged section is refused with one line naming the file.
// RUN: %python %S/../../tools/Inputs/run-path-section.py length %t.merged.profraw %t.length.profraw
// RUN: %python %S/../../tools/Inputs/run-path-section.py nul %t.merged.profraw %t.nul.profraw
// RUN: not heapprof report %t.length.profraw 2>&1 | FileCheck %s --check-prefix=BAD -DFILE=%t.length.profraw
// RUN: not heapprof report %t.nul.profraw 2>&1 | FileCheck %s --check-prefix=BAD -DFILE=%t.nul.profraw
// BAD: heapprof: error: [[FILE]]: corrupt: dump 0 has a damaged program path section (tag 15)
// RUN: not heapprof merge -o %t.bad.profraw %t.nul.profraw 2>&1 | FileCheck %s --check-prefix=MERGE -DFILE=%t.nul.profraw
// MERGE: heapprof: error: [[FILE]]: the dump at offset 0x0 has a damaged program path section (tag 15)
//
// The static runtime, run through the link from its directory (a relative
// path, made absolute): the text profile's first line names the link too.
// RUN: rm -rf %t.s && mkdir -p %t.s
// RUN: %clang_heapprof -O0 -g %s -o %t.real/check-tool
// RUN: cd %t.bin && %env_heapprof_opts=profile_dir=%t.s:print_text=1 ./server
// RUN: cat %t.s/heapprof.server.*.txt | FileCheck %s --check-prefix=TEXT
// TEXT: HeapProf profile: {{/.*}}.bin/server pid
// RUN: heapprof report %t.s | FileCheck %s --check-prefix=REPORT
//
// Run by its own path: no such section, the process is the file's.
// RUN: rm -rf %t.d && env -u LD_PRELOAD heapprof run -o %t.d -- %t.real/check-tool
// RUN: heapprof show %t.d/*.profraw | FileCheck %s --check-prefix=OWN
// OWN-NOT: run as:
// RUN: heapprof report %t.d | FileCheck %s --check-prefix=OWNREPORT
// OWNREPORT: {{^}}process {{ *}}{{.*}}.real/check-tool pid
#include <stdlib.h>

static void *volatile keep[100];

__attribute__((noinline)) static void leak_site(void) {
  for (int i = 0; i < 100; i++)
    keep[i] = malloc(204);
}

int main(void) {
  leak_site();
  return 0;
}
