// A profile is written to a temporary file, then renamed: a signal that
// ends the process while the temporary file exists must not leave it
// behind.
//  - term: the program's own write() (which the runtime's file writes go
//    through) sends the process SIGTERM when it writes to the temporary
//    file; SIGTERM has its default action: the process dies of it, and the
//    directory is empty afterwards (no profile, no temporary file).
//  - handled: the same with the program's own SIGTERM handler, which
//    counts and returns: the program's handler is left alone, the process
//    lives on and its profile is complete.
//  - the file size limit: RLIMIT_FSIZE below the profile's size makes the
//    kernel send SIGXFSZ to the writing thread, whose default action would
//    kill the program for heapprof's file; the write fails instead, the
//    profile goes to stderr with a warning, and the program ends as it
//    would have.
// RUN: %clang_rt_heapprof -O0 %s -o %t
// RUN: rm -rf %t.d && mkdir %t.d
// RUN: %env_heapprof_opts=log_path=%t.d/prof not --crash %run %t term 2>&1 | FileCheck %s --check-prefix=TERM
// RUN: ls -A %t.d | count 0
// RUN: %env_heapprof_opts=log_path=%t.d/prof %run %t handled 2>&1 | FileCheck %s --check-prefix=HANDLED
// RUN: ls -A %t.d | FileCheck %s --check-prefix=HANDLED-DIR
// RUN: rm -rf %t.d && mkdir %t.d
// RUN: %env_heapprof_opts=log_path=%t.d/prof:print_raw=0:print_text=1 %run %t fsize 2>&1 | FileCheck %s --check-prefix=FSIZE
// RUN: ls -A %t.d | count 0
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

static int mode_term;

/* The runtime is linked into this program: its write() calls end here. */
ssize_t write(int fd, const void *buf, size_t n) {
  if (mode_term) {
    char link[64], target[4096];
    snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
    ssize_t len = readlink(link, target, sizeof(target) - 1);
    if (len > 0) {
      target[len] = '\0';
      if (strstr(target, ".tmp.")) {
        mode_term = 0;
        kill(getpid(), SIGTERM);
      }
    }
  }
  return syscall(SYS_write, fd, buf, n);
}

static void on_term(int sig) {
  (void)sig;
  static const char msg[] = "the program's SIGTERM handler ran\n";
  syscall(SYS_write, 2, msg, sizeof(msg) - 1);
}

int main(int argc, char **argv) {
  for (int i = 0; i < 100; i++) {
    char *volatile p = malloc(100 + i);
    p[0] = 1;
    free(p);
  }
  if (!strcmp(argv[1], "handled"))
    signal(SIGTERM, on_term);
  if (!strcmp(argv[1], "fsize")) {
    /* The profile (a memory map, 100 objects) is well over 512 bytes. */
    struct rlimit rl = {512, 512};
    setrlimit(RLIMIT_FSIZE, &rl);
  }
  mode_term = strcmp(argv[1], "fsize") != 0;
  fprintf(stderr, "program finished\n");
  return 0;
}
// TERM: program finished
// TERM-NOT: HeapProf profile

// HANDLED: program finished
// HANDLED: the program's SIGTERM handler ran
// HANDLED-DIR: prof.{{[0-9]+}}.profraw
// HANDLED-DIR-NOT: tmp

// FSIZE: program finished
// FSIZE: HeapProf: WARNING: cannot write profile '{{.*}}': file too large (the file size limit, ulimit -f); writing it to stderr instead
// FSIZE: HeapProf profile:
// FSIZE: alloc_count 100
