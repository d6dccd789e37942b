// The symbolizer's socket is heapprof's, not the program's: a program
// that closes every descriptor above 2 after heapprof started its
// symbolizer (at the first checkpoint), and then makes a socket pair of
// its own, which gets the same numbers, neither receives heapprof's
// requests on it nor has it closed; the next checkpoint starts a new
// symbolizer and is symbolized as the first was.
// RUN: rm -rf %t.dir && %clang_rt_heapprof -O0 %s -o %t
// RUN: %env_heapprof_opts=print_raw=0:print_text=1:profile_dir=%t.dir %run %t | FileCheck %s
// CHECK: first checkpoint: 0
// CHECK-NEXT: program's socket: 3 4
// CHECK-NEXT: second checkpoint: 0
// CHECK-NEXT: bytes waiting on the program's socket: none
// CHECK-NEXT: the program's socket still works: yes
// RUN: cat %t.dir/*.2.txt | FileCheck %s --check-prefix=TWO
// TWO: checkpoint, dump 2
// TWO: Stack for id
// TWO-NEXT: in make_it {{.*}}symbolizer_fd_reused.c
#include <errno.h>
#include <heapprof/heapprof_interface.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

__attribute__((noinline)) static char *make_it(void) { return malloc(64); }

int main(void) {
  char *volatile a = make_it();
  a[0] = 1;
  printf("first checkpoint: %d\n", __heapprof_dump());
  for (int fd = 3; fd < 1024; fd++)
    close(fd);
  int sv[2];
  if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != 0)
    return 1;
  printf("program's socket: %d %d\n", sv[0], sv[1]);
  fflush(stdout);
  char *volatile b = make_it();
  b[0] = 2;
  printf("second checkpoint: %d\n", __heapprof_dump());
  char buf[256];
  ssize_t n1 = recv(sv[0], buf, sizeof(buf), MSG_DONTWAIT);
  ssize_t n2 = recv(sv[1], buf, sizeof(buf), MSG_DONTWAIT);
  printf("bytes waiting on the program's socket: %s\n",
         n1 < 0 && n2 < 0 && errno == EAGAIN ? "none" : "SOME");
  int ok = send(sv[0], "x", 1, 0) == 1 && recv(sv[1], buf, 1, 0) == 1 &&
           buf[0] == 'x';
  printf("the program's socket still works: %s\n", ok ? "yes" : "no");
  free(a);
  free(b);
  return 0;
}
