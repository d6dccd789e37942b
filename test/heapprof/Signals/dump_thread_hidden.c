// heapprof's dump thread (dump_signal) is not a thread of the program's: a
// single-threaded program stays serial in the allocator's operation
// classes, and the leak check at exit has no other thread running to warn
// of. Here main allocates 10 blocks of 40 bytes after a checkpoint and
// drops the pointer to one of them: one 40-byte leak, found exactly.
// Instrumented, and under heapprof run with a fork child, which starts a
// dump thread of its own and overwrites keep[0..2] with 3 blocks of 24
// bytes: it leaks 4 of the 40-byte blocks it inherited (keep[3]'s too), so
// the two processes leak 5 (200 bytes).
// RUN: rm -rf %t.dir %t.run && %clang_heapprof -O0 -g %s -o %t
// RUN: %env_heapprof_opts=profile_dir=%t.dir:dump_signal=SIGUSR2 %run %t
// RUN: heapprof report --top 0 %t.dir/*[0-9][0-9].profraw | FileCheck %s
// RUN: %clang_plain -O0 -g %s -o %t.plain
// RUN: env HEAPPROF_OPTIONS=dump_signal=SIGUSR2 heapprof run -o %t.run -- %t.plain fork
// RUN: heapprof report --top 0 %t.run | FileCheck %s --check-prefix=FORK
// CHECK: == Memory leaks
// CHECK-NEXT: bytes {{.*}}objects
// CHECK-NEXT: 40 B {{.*}} 1 {{.*}}leak_site
// CHECK-NOT: other thread
// CHECK: == Allocator cost by operation class
// CHECK-NOT: {{(new|reused|-) parallel}}
// CHECK: malloc small new serial
// CHECK: cost per operation
// FORK: == Memory leaks
// FORK-NEXT: bytes {{.*}}objects
// FORK-NEXT: 200 B {{.*}} 5 {{.*}}leak_site
// FORK-NOT: other thread
// FORK: == Allocator cost by operation class
// FORK-NOT: {{(new|reused|-) parallel}}
// FORK: cost per operation
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <dirent.h>

void *volatile keep[10];

__attribute__((noinline)) void *leak_site(void) { return malloc(40); }

int main(int argc, char **argv) {
  raise(SIGUSR2);
  usleep(100000); // the checkpoint, from the dump thread
  for (int i = 0; i < 10; i++)
    keep[i] = leak_site();
  keep[3] = 0; // the one leak
  if (argc > 1 && !strcmp(argv[1], "fork")) {
    pid_t p = fork();
    if (p == 0) {
      for (int i = 0; i < 3; i++)
        keep[i] = malloc(24);
      _exit(0);
    }
    waitpid(p, 0, 0);
  }
  return 0;
}
