// heapprof report reads a profile of upstream MemProf (clang++
// -fmemory-profile).  Its stacks begin inside the runtime's interceptor
// (malloc's, or operator new's, linked in without DWARF); llvm-profdata
// drops that frame and so does the report: 100 objects of 40 bytes from
// make() and 10 of 64 bytes from main (through raw(), inlined or not) are
// charged to the program's own lines.  The profile has no heapprof
// extension: no paths of modules (a library is named by its build id),
// no frees, bins or peak, and the report says who wrote it.
// RUN: %clangxx_plain -O1 -g -fmemory-profile %s -o %t
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: env MEMPROF_OPTIONS=log_path=%t.d/up.profraw %t
// RUN: heapprof report --top 0 --binary %t %t.d/up.profraw.* | FileCheck %s
// CHECK: 4000 B in 100 objects (40 B each)
// CHECK-NEXT: {{^ +}}make {{.*}}report-upstream.cpp:{{[0-9]+}}
// CHECK: 640 B in 10 objects (64 B each)
// CHECK-NEXT: {{^ +}}{{raw|main}} {{.*}}report-upstream.cpp
// CHECK: (the profile lacks live_at_dump: it was written by upstream MemProf (-fmemory-profile) or heapprof with raw_extension=0, without heapprof's extension)
// CHECK: (the profile has no peak: written by upstream MemProf
// heapprof diff of two such profiles, named base and new: they record no
// program's path, so their file names say nothing of which program they
// are, and no "different programs" warning is given (diff-other-program.c).
// RUN: cp %t.d/up.profraw.* %t.d/base.profraw && cp %t.d/up.profraw.* %t.d/new.profraw
// RUN: heapprof diff --binary %t %t.d/base.profraw %t.d/new.profraw 2>&1 >/dev/null | count 0
// RUN: heapprof report --top 0 --binary %t %t.d/up.profraw.* | FileCheck %s --check-prefix=NOT
// NOT-NOT: interceptor
// NOT-NOT: operator new
// NOT-NOT: {{^ +}}+0x
// A library without a path is named by its build id, not left blank
// (libstdc++'s emergency exception pool, allocated at its start).
// RUN: heapprof report --top 0 --format json --binary %t %t.d/up.profraw.* | %python -c "import json,sys; r=json.load(sys.stdin); print(sorted({f['function'].split(']')[0] + ']' for c in r['contexts'] for f in c['stack'] if f['function'].startswith('[')}))" | FileCheck %s --check-prefix=LIB
// LIB: ['[build id {{[0-9a-f]+}}]']
// pprof gets only the counts the profile made: no inuse_* types (a 0
// there would be a guess), in go tool pprof.
// RUN: heapprof pprof -o %t.pb.gz --binary %t %t.d/up.profraw.*
// RUN: go tool pprof -raw %t.pb.gz 2>/dev/null | FileCheck %s --check-prefix=PPROF
// PPROF: Samples:
// PPROF-NEXT: alloc_objects/count alloc_space/bytes[dflt] accesses/count{{$}}
// PPROF-DAG: {{^ *}}100 4000 500: 
// PPROF-DAG: {{^ *}}10 640 0: 
// The page says the same, in headless Chromium.
// RUN: rm -rf %t.chrome && heapprof html -o %t.html --binary %t %t.d/up.profraw.*
// RUN: chromium --headless --no-sandbox --disable-gpu --user-data-dir=%t.chrome \
// RUN:   --virtual-time-budget=5000 --dump-dom 'file://%t.html' > %t.dom 2>/dev/null
// RUN: grep -o '<p class="note" id="peak">[^<]*</p>' %t.dom | FileCheck %s --check-prefix=HTML
// HTML: not in this profile: written by upstream MemProf or with raw_extension=0 (no heapprof extension)
// The top table by live bytes, which the profile lacks, says why as the
// text report does.
// RUN: heapprof report --sort live --binary %t %t.d/up.profraw.* | FileCheck %s --check-prefix=LIVETEXT
// RUN: heapprof html --sort live -o %t.live.html --binary %t %t.d/up.profraw.*
// RUN: chromium --headless --no-sandbox --disable-gpu --user-data-dir=%t.chrome \
// RUN:   --virtual-time-budget=5000 --dump-dom 'file://%t.live.html' > %t.live.dom 2>/dev/null
// RUN: grep -o '<p class="note" id="top">[^<]*</p>' %t.live.dom | FileCheck %s --check-prefix=LIVE
// LIVETEXT: Top contexts by live
// LIVETEXT-NEXT: (the profile lacks live_at_dump: it was written by upstream MemProf (-fmemory-profile) or heapprof with raw_extension=0, without heapprof's extension)
// LIVE: not in this profile: the profile lacks live_at_dump: it was written by upstream MemProf (-fmemory-profile) or heapprof with raw_extension=0, without heapprof's extension
#include <cstdlib>

struct W {
  int c;
  char name[36];
};
static W *volatile keep[100];

__attribute__((noinline)) W *make() { return new W(); }
__attribute__((noinline)) void *raw(size_t n) { return malloc(n); }

int main() {
  for (int i = 0; i < 100; i++)
    keep[i] = make();
  for (int i = 0; i < 10; i++)
    free(raw(64));
  return 0;
}
