// unshare(CLONE_NEWUSER) refuses a process with more than one thread, and
// the dump_signal thread is one: heapprof stops it around the call and
// starts it again, so the program gets what it gets without heapprof, and
// the dump signal still writes checkpoints afterwards.
// RUN: rm -rf %t.dir %t.run && %clang_plain -O1 %s -o %t.plain
// RUN: %run %t.plain > %t.plain.out
// RUN: %clang_heapprof -O1 %s -o %t
// RUN: %env_heapprof_opts=dump_signal=SIGUSR2:profile_dir=%t.dir %run %t %t.dir > %t.inst.out
// RUN: diff %t.plain.out %t.inst.out
// RUN: %env_heapprof_opts=dump_signal=SIGUSR2 heapprof run -o %t.run -- %t.plain %t.run > %t.run.out
// RUN: diff %t.plain.out %t.run.out
// RUN: ls %t.dir | FileCheck %s --check-prefix=FILES
// RUN: ls %t.run | FileCheck %s --check-prefix=FILES
// FILES: heapprof.{{.*}}.1.profraw
// setns (nstype 0: any namespace) back into the user namespace the process
// is in fails with EINVAL with or without heapprof (retried with the thread
// stopped, and started again).
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

// Waits for a checkpoint file in dir (written by heapprof's dump thread).
static int checkpoint_in(const char *dir) {
  for (int i = 0; i < 2000; i++) {
    DIR *d = opendir(dir);
    struct dirent *e;
    while (d && (e = readdir(d))) {
      size_t n = strlen(e->d_name);
      if (n > 10 && !strcmp(e->d_name + n - 10, ".1.profraw"))
        return closedir(d), 1;
    }
    if (d)
      closedir(d);
    usleep(10 * 1000);
  }
  return 0;
}

int main(int argc, char **argv) {
  char *volatile p = malloc(32);
  free(p);
  if (unshare(CLONE_NEWUSER) != 0)
    printf("unshare: %s\n", strerror(errno));
  else
    printf("unshare: ok\n");
  int fd = open("/proc/self/ns/user", O_RDONLY);
  if (setns(fd, 0) != 0)
    printf("setns: %s\n", strerror(errno));
  else
    printf("setns: ok\n");
  close(fd);
  if (argc > 1) {
    // Profiled: the dump signal works after the calls.
    raise(SIGUSR2);
    if (!checkpoint_in(argv[1]))
      printf("no checkpoint\n");
  }
  return 0;
}
