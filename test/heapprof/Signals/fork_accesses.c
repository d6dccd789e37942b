// fork: the child's profile holds the accesses and the lifetime of what it
// inherited from the fork on; the parent counts them before the fork.  A
// report over both profiles counts each access once.
// RUN: rm -rf %t.dir && %clang_heapprof -O1 %s -o %t
// RUN: %env_heapprof_opts=print_raw=0:profile_dir=%t.dir:print_text=1 %run %t
// RUN: ls %t.dir | count 2
// The parent: 100 stores before the fork and 3 after, then its free; 200 ms
// and more between the allocation and the fork.  No top: the parent frees
// after the child's exit, whose profile is symbolized meanwhile (336 to
// 500 ms in all at load average 7; the pattern's 3 digits had made 999 one).
// RUN: cat %t.dir/*.txt | grep -A12 "alloc_count 1, size (ave/min/max) 64.00" | FileCheck %s --check-prefix=PARENT
// PARENT: access_count (ave/min/max): 103.00 / 103 / 103
// PARENT: lifetime (ave/min/max): {{[0-9.]+}} / [[L:[2-9][0-9][0-9]|[1-9][0-9][0-9][0-9]+]] / [[L]]{{$}}
// The child: 7 stores to the object it inherited and holds at its exit;
// its lifetime in the child is from the fork, under the 200 ms the
// parent held it before (before: the child repeated the parent's 100
// accesses and the whole lifetime since the allocation).
// RUN: cat %t.dir/*.txt | grep -A12 "alloc_count 0, size (ave/min/max) n/a / 64 / 64" | FileCheck %s --check-prefix=CHILD
// CHILD: access_count (ave/min/max): n/a / 7 / 7
// CHILD: lifetime (ave/min/max): n/a / [[C:1?[0-9]?[0-9]]] / [[C]]{{$}}
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

int main(void) {
  volatile long *obj = malloc(64);
  for (int i = 0; i < 100; i++)
    obj[0] = i;
  usleep(200 * 1000);
  pid_t c = fork();
  if (c == 0) {
    for (int i = 0; i < 7; i++)
      obj[1] = i;
    exit(0);
  }
  int st;
  waitpid(c, &st, 0);
  for (int i = 0; i < 3; i++)
    obj[2] = i;
  free((void *)obj);
  return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : 1;
}
