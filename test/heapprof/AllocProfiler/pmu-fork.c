// pmu_events in a fork child: its profile's PMU rows count its own
// allocator calls, not its parent's again.  The parent makes 100
// malloc/free pairs of 64 bytes, every call sampled (pmu_sample_every=1),
// and forks; the child makes 10 pairs and exits.  The child's rows: 10
// sampled mallocs and 10 sampled frees (they had started from the
// parent's totals at the fork: 110 and 110).  The parent's: 100 and 100.
// No stdio: its buffer would be one more allocation.
// RUN: %clang_heapprof -O0 %s -o %t
// RUN: rm -rf %t.d && %env_heapprof_opts=profile_dir=%t.d:pmu_events=1:pmu_sample_every=1 %run %t > %t.out
// RUN: sh -c 'heapprof show "$0"/*."$(sed -n "s/^child //p" "$1")".profraw' %t.d %t.out | %python %S/Inputs/pmu_sums.py | FileCheck %s --check-prefix=CHILD
// RUN: sh -c 'heapprof show "$0"/*."$(sed -n "s/^parent //p" "$1")".profraw' %t.d %t.out | %python %S/Inputs/pmu_sums.py | FileCheck %s --check-prefix=PARENT
// CHILD: malloc samples 10, free samples 10
// PARENT: malloc samples 100, free samples 100
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static void pairs(int n) {
  for (int i = 0; i < n; i++) {
    char *volatile p = malloc(64);
    free(p);
  }
}

static void say(const char *who, long pid) {
  char line[64];
  int n = snprintf(line, sizeof(line), "%s %ld\n", who, pid);
  if (write(1, line, (size_t)n) != n)
    _exit(3);
}

int main(void) {
  pairs(100);
  pid_t c = fork();
  if (c < 0)
    return 2;
  if (c == 0) {
    pairs(10);
    exit(0);
  }
  int st;
  waitpid(c, &st, 0);
  say("parent", (long)getpid());
  say("child", (long)c);
  return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : 1;
}
