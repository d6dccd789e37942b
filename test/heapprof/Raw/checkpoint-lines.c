// The lines and pages touched per object add up over checkpoints to what
// one profile without them says.  The object is 4 lines on one page
// (256 bytes, 256-aligned).  Line 0 is written before the first
// checkpoint, lines 0 and 1 before the second, line 2 before the free:
// 3 of its 4 lines, its 1 page.  The first dump counts the object (4
// lines, 1 touched, 1 page, 1 touched); a later piece of its life adds no
// lines or pages of the object (the dump that counted it did), and only
// the lines first touched since (line 1, then line 2), not line 0 again.
// A checkpoint used to add all 4 lines and the page again, and "lines
// touched per object" came out 4 of 12 (33 %) instead of 3 of 4.  The same
// with heapprof's allocator, in sampled mode (sample_bytes=1: every object
// sampled, weight 1) and on glibc's allocator (allocator=system).
// RUN: %clang_heapprof -O1 %s -o %t
// RUN: rm -rf %t.d && %env_heapprof_opts=profile_dir=%t.d %run %t
// RUN: heapprof merge -o %t.profraw %t.d && heapprof show %t.profraw | FileCheck %s
// RUN: rm -rf %t.d && %env_heapprof_opts=profile_dir=%t.d:sample_bytes=1:sample_seed=3 %run %t
// RUN: heapprof merge -o %t.profraw %t.d && heapprof show %t.profraw | FileCheck %s
// RUN: rm -rf %t.d && %env_heapprof_opts=profile_dir=%t.d:allocator=system %run %t
// RUN: heapprof merge -o %t.profraw %t.d && heapprof show %t.profraw | FileCheck %s
// The report of the directory says the same: 3 of 4 lines, 1 of 1 page.
// RUN: heapprof report --format json %t.d | %python -c "import json, sys; c = [c for c in json.load(sys.stdin)['contexts'] if c['bytes'] == 256][0]; print('lines', c['derived']['lines_touched_per_object'], 'pages', c['derived']['pages_touched_per_object'])" | FileCheck %s --check-prefix=JSON
//
// A fork child's copy: the parent counted the object's lines; the child's
// piece of its life (lines 0 and 3 written there) adds none, so the
// process tree still says 1 of 4 lines, not 3 of 8.
// RUN: %clang_heapprof -O1 -DFORK %s -o %t.fork
// RUN: rm -rf %t.d && %env_heapprof_opts=profile_dir=%t.d %run %t.fork
// RUN: heapprof merge -o %t.profraw %t.d && heapprof show %t.profraw | FileCheck %s --check-prefix=FORK
#include <heapprof/heapprof_interface.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

__attribute__((noinline)) char *make(void) { return aligned_alloc(256, 256); }

int main(void) {
  char *volatile p = make();
#ifdef FORK
  p[0] = 1;
  pid_t c = fork();
  if (c == 0) {
    p[0] = 2;
    p[192] = 2;
    return 0; /* exits with the copy live */
  }
  int st;
  waitpid(c, &st, 0);
  free(p);
  return !(WIFEXITED(st) && WEXITSTATUS(st) == 0);
#else
  p[0] = 1;
  if (__heapprof_dump() != 0)
    return 1;
  p[0] = 2;
  p[64] = 2;
  if (__heapprof_dump() != 0)
    return 1;
  p[128] = 3;
  free(p);
  return 0;
#endif
}
// CHECK: MIB stack id {{[0-9]+}}: AllocCount=1 TotalAccessCount=4 {{.*}}TotalSize=256
// CHECK-NEXT: heapprof: granules=4 touched_granules=3 pages=1 touched_pages=1 {{.*}}continuations=0 {{.*}}max_size64=256{{ }}
// JSON: lines 0.75 pages 1.0
// FORK: MIB stack id {{[0-9]+}}: AllocCount=1 TotalAccessCount=3 {{.*}}TotalSize=256
// FORK-NEXT: heapprof: granules=4 touched_granules=1 pages=1 touched_pages=1 {{.*}}continuations=1 {{.*}}max_size64=256{{ }}
