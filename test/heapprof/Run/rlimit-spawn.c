// A posix_spawn child of a program that lowered its own memory limit:
// heapprof holds the limit raised by its reservations (heapprof_rlimit.c)
// and an exec gives the new image the program's soft limit, but glibc's
// posix_spawn execs inside libc and its child inherited the raised one:
// `sh -c 'ulimit -S -v'` printed 37606611171 (KiB) where natively it
// prints 262144, the 256 MiB the program set (268435456 / 1024), and so
// did `ulimit -H -v`.  Now the
// spawn is heapprof's own (heapprof_spawn.c), and each line is what the
// program prints natively:
//  - posix_spawn of /bin/sh and posix_spawnp of "sh": the child's soft
//    limits, soft and hard, are 262144 KiB, and it exits 0;
//  - posix_spawnp of grep with file actions (chdir to the directory named
//    by argv[2], stdout opened onto out.txt there) and attributes (signal
//    mask: SIGUSR1, bit 10 - 1 = 9 of SigBlk, 0x200; its own process
//    group): out.txt holds grep's line, and the group is its own;
//  - a path that does not exist, and a name on no PATH directory: ENOENT
//    from posix_spawn itself, no child.
// RUN: %clang_plain -O0 %s -o %t
// RUN: rm -rf %t.dir && mkdir %t.dir && %t as %t.dir | FileCheck %s --check-prefixes=CHECK,AS
// RUN: FileCheck %s --check-prefix=FILE < %t.dir/out.txt
// RUN: rm -rf %t.dir && mkdir %t.dir && heapprof run -o %t.p -- %t as %t.dir 2> %t.err | FileCheck %s --check-prefixes=CHECK,AS
// RUN: FileCheck %s --check-prefix=FILE < %t.dir/out.txt
// RUN: not grep HeapProf %t.err
// RUN: rm -rf %t.dir && mkdir %t.dir && heapprof run -o %t.p -- %t data %t.dir | FileCheck %s --check-prefixes=CHECK,DATA
// RUN: FileCheck %s --check-prefix=FILE < %t.dir/out.txt
// Under --follow-exec the children run without heapprof (their runtime
// could not start under 256 MiB: Run/exec-under-limit.c), said once each.
// RUN: rm -rf %t.dir && mkdir %t.dir && heapprof run --follow-exec -o %t.f -- %t as %t.dir 2> %t.ferr | FileCheck %s --check-prefixes=CHECK,AS
// RUN: FileCheck %s --check-prefix=FILE < %t.dir/out.txt
// RUN: FileCheck %s --check-prefix=FOLLOW < %t.ferr
// FOLLOW: HeapProf: WARNING: '/bin/sh' runs without heapprof: the address-space limit (ulimit -v, RLIMIT_AS) is 268435456 bytes
// Built with -fheapprof (the static runtime).
// RUN: %clang_heapprof -O0 %s -o %t.inst
// RUN: rm -rf %t.dir && mkdir %t.dir && env HEAPPROF_OPTIONS=profile_dir=%t.i %t.inst as %t.dir | FileCheck %s --check-prefixes=CHECK,AS
// RUN: FileCheck %s --check-prefix=FILE < %t.dir/out.txt
// AS: soft 262144 hard 262144
// DATA: soft 262144 hard 262144
// CHECK: status 0
// AS-NEXT: soft 262144 hard 262144
// DATA-NEXT: soft 262144 hard 262144
// CHECK-NEXT: status 0
// CHECK-NEXT: group own
// CHECK-NEXT: status 0
// CHECK-NEXT: status 0
// CHECK-NEXT: /nonexistent/nope: ENOENT
// CHECK-NEXT: nope-not-on-any-path: ENOENT
// FILE: SigBlk: 0000000000000200
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>

extern char **environ;

static void run(int search, const char *path, char **argv,
                posix_spawn_file_actions_t *fa, posix_spawnattr_t *at) {
  pid_t pid;
  int rc = search ? posix_spawnp(&pid, path, fa, at, argv, environ)
                  : posix_spawn(&pid, path, fa, at, argv, environ);
  if (rc) {
    printf("%s: %s\n", path, rc == ENOENT ? "ENOENT" : strerror(rc));
    return;
  }
  int st;
  waitpid(pid, &st, 0);
  printf("status %d\n", WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st));
}

int main(int argc, char **argv) {
  setvbuf(stdout, NULL, _IONBF, 0);
  int data = !strcmp(argv[1], "data");
  struct rlimit r = {256ull << 20, 256ull << 20};
  if (setrlimit(data ? RLIMIT_DATA : RLIMIT_AS, &r)) {
    perror("setrlimit");
    return 1;
  }
  char *limit[] = {"sh", "-c",
                   data ? "echo soft $(ulimit -S -d) hard $(ulimit -H -d)"
                        : "echo soft $(ulimit -S -v) hard $(ulimit -H -v)",
                   NULL};
  run(0, "/bin/sh", limit, NULL, NULL);
  run(1, "sh", limit, NULL, NULL);

  posix_spawnattr_t at;
  posix_spawnattr_init(&at);
  posix_spawnattr_setpgroup(&at, 0);
  posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP);
  char *group[] = {"sh", "-c",
                   "read -r l < /proc/$$/stat; set -- $l; "
                   "[ \"$5\" = \"$$\" ] && echo group own || echo group not",
                   NULL};
  run(1, "sh", group, NULL, &at);

  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addchdir_np(&fa, argv[2]);
  posix_spawn_file_actions_addopen(&fa, 1, "out.txt",
                                   O_WRONLY | O_CREAT | O_TRUNC, 0644);
  sigset_t m;
  sigemptyset(&m);
  sigaddset(&m, SIGUSR1);
  posix_spawnattr_setsigmask(&at, &m);
  posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSIGMASK);
  char *grep[] = {"grep", "SigBlk", "/proc/self/status", NULL};
  run(1, "grep", grep, &fa, &at);

  char *no[] = {"nope", NULL};
  run(0, "/nonexistent/nope", no, NULL, NULL);
  run(1, "nope-not-on-any-path", no, NULL, NULL);
  return 0;
}
