// dump_signal holds no file descriptor of the program's: a program that
// closes every descriptor above 2 (as daemons and children before exec
// do), then opens two files of its own, which get the lowest numbers, and
// writes "hello" into the second, still gets its checkpoint on SIGUSR2, and
// its files are untouched (no byte of heapprof's written into them).
// RUN: rm -rf %t.dir && %clang_rt_heapprof -O0 %s -o %t
// RUN: %env_heapprof_opts=print_raw=0:print_text=1:profile_dir=%t.dir:dump_signal=SIGUSR2 %run %t %t.a %t.b | FileCheck %s
// CHECK: descriptors of the files: 3 4
// CHECK-NEXT: checkpoint written: yes
// CHECK-NEXT: second file: 5 bytes, "hello"
// CHECK-NEXT: first file: 0 bytes
#include "Inputs/profiles.h"
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int main(int argc, char **argv) {
  (void)argc;
  char *volatile keep = malloc(48);
  keep[0] = 1;
  for (int fd = 3; fd < 1024; fd++)
    close(fd);
  int a = open(argv[1], O_RDWR | O_CREAT | O_TRUNC, 0600);
  int b = open(argv[2], O_RDWR | O_CREAT | O_TRUNC, 0600);
  printf("descriptors of the files: %d %d\n", a, b);
  if (write(b, "hello", 5) != 5)
    return 1;
  raise(SIGUSR2);
  printf("checkpoint written: %s\n",
         wait_for_profiles(".1.txt", 1) ? "yes" : "no");
  char buf[64] = "";
  ssize_t got = pread(b, buf, sizeof(buf) - 1, 0);
  printf("second file: %zd bytes, \"%s\"\n", got, buf);
  struct stat st;
  fstat(a, &st);
  printf("first file: %lld bytes\n", (long long)st.st_size);
  free(keep);
  return 0;
}
