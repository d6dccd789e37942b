// pmu_events keeps a descriptor per counter, opened at the thread's first
// sampled call.  A program that then closes every descriptor above 2 (as
// daemons do) and opens a file of its own, which gets one of those
// numbers, must not have that file read by heapprof (its offset would
// move) nor closed at thread exit; heapprof opens new counters instead,
// and the calls after it are still measured.  The counters are opened
// with close-on-exec.
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: %clang_heapprof -O0 %s -o %t
// RUN: %env_heapprof_opts=log_path=%t.dir/p:print_raw=1:print_text=0:pmu_events=1:pmu_sample_every=1 %run %t %t.file | FileCheck %s
// CHECK: the program's file is descriptor 3
// CHECK-NEXT: offset after 100 mallocs and frees: 0
// CHECK-NEXT: descriptor 3 still open after the thread ended: yes
// CHECK-NEXT: contents: "hello"
// Every call is sampled: the 100 mallocs after the descriptors were
// closed are in the profile's rows (with the first one's, 101 at least).
// RUN: heapprof show %t.dir/p.*.profraw | FileCheck %s --check-prefix=ROWS
// ROWS: malloc small new serial: samples={{[0-9]+}}
// RUN: heapprof show %t.dir/p.*.profraw | awk '/^ *malloc small (new|reused) (serial|parallel): samples=/ { sub(/.*samples=/, ""); n += $0 + 0 } END { exit !(n >= 101) }'
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static void *first_thread(void *arg) {
  (void)arg;
  char *volatile p = malloc(32); /* opens this thread's counters */
  free(p);
  return NULL;
}

int main(int argc, char **argv) {
  (void)argc;
  char *volatile p = malloc(32); /* opens main's counters */
  free(p);
  for (int fd = 3; fd < 1024; fd++)
    close(fd);
  int f = open(argv[1], O_RDWR | O_CREAT | O_TRUNC, 0600);
  if (write(f, "hello", 5) != 5 || lseek(f, 0, SEEK_SET) != 0)
    return 1;
  printf("the program's file is descriptor %d\n", f);
  for (int i = 0; i < 100; i++) {
    char *volatile q = malloc(40);
    free(q);
  }
  printf("offset after 100 mallocs and frees: %lld\n",
         (long long)lseek(f, 0, SEEK_CUR));
  /* A thread whose counters open now, on numbers above the file's, ends:
   * its exit closes its own counters, not the program's file. */
  pthread_t t;
  pthread_create(&t, NULL, first_thread, NULL);
  pthread_join(t, NULL);
  printf("descriptor 3 still open after the thread ended: %s\n",
         fcntl(f, F_GETFD) >= 0 ? "yes" : "no");
  char buf[16] = "";
  pread(f, buf, sizeof(buf) - 1, 0);
  printf("contents: \"%s\"\n", buf);
  return 0;
}
