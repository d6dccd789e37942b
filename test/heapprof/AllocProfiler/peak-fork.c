// A fork child's profile starts afresh, its peak too.  The parent reaches
// 8 MiB at site P and frees it, then forks; the child allocates 2 x 1 MiB
// at site C (two calls: two contexts) and frees one.  The parent's peak is
// P's 8 MiB; the child's is C's 2 MiB, not the parent's (whose contexts
// the child's profile does not have).
// RUN: %clang_heapprof -O0 -g %s -o %t
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: %env_heapprof_opts=profile_dir=%t.d %run %t
// RUN: heapprof show %t.d/*.profraw | grep ' peak: ' | sort | FileCheck %s
// CHECK: peak: peak_bytes=2097152 peak_block_bytes={{[0-9]+}} peak_objects=2 peak_ms={{[0-9]+}} peak_contexts=2
// CHECK-NEXT: peak: peak_bytes=8388608 peak_block_bytes={{[0-9]+}} peak_objects=8 peak_ms={{[0-9]+}} peak_contexts=1
// Its timeline starts afresh too: the child's highest is its own 2 MiB (the
// parent's heap was 0 at the fork), the parent's 8 MiB; each process's
// peak and highest, sorted.
// RUN: heapprof show %t.d/*.profraw | %python -c "import re,sys; t=sys.stdin.read(); print(sorted((int(re.search(r'peak: peak_bytes=(\d+)', f).group(1)), max(int(h) for h in re.findall(r'highest=(\d+)', f))) for f in t.split(' dump\n')[1:]))" | FileCheck %s --check-prefix=TIMELINE
// TIMELINE: [(2097152, 2097152), (8388608, 8388608)]
// RUN: heapprof report --format json --top 0 %t.d > %t.json
// RUN: %python %S/Inputs/peak_check.py %t.json peak_bytes=8388608 site_p=8,8388608 site_c=0,0 peak.processes=2
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

__attribute__((noinline)) static char *site_p(void) { return malloc(1 << 20); }
__attribute__((noinline)) static char *site_c(void) { return malloc(1 << 20); }
static char *volatile p[8], *volatile c[2];

int main(void) {
  for (int i = 0; i < 8; i++)
    p[i] = site_p();
  for (int i = 0; i < 8; i++)
    free(p[i]);
  pid_t k = fork();
  if (k == 0) {
    c[0] = site_c();
    c[1] = site_c();
    free(c[0]);
    return 0;
  }
  waitpid(k, NULL, 0);
  return 0;
}
