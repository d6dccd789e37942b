// The HTML page's title names each program once, with how many processes
// ran it, as the text report's "process" rows do: this program forks three
// children (four processes, four profiles), and one-alloc.c is one more
// program of one process.  The title listed the path once per process.
// REQUIRES: chromium
// RUN: rm -rf %t.d %t.one.d %t.chrome && mkdir -p %t.d %t.one.d
// RUN: %clang_heapprof -O0 -g %s -o %t
// RUN: %clang_heapprof -O0 -g %S/Inputs/one-alloc.c -o %t.one
// RUN: %env_heapprof_opts=profile_dir=%t.d %run %t
// RUN: %env_heapprof_opts=profile_dir=%t.one.d %run %t.one
// RUN: heapprof report %t.d %t.one.d | FileCheck %s --check-prefix=TEXT
// RUN: heapprof html -o %t.html %t.d %t.one.d
// RUN: chromium --headless --no-sandbox --disable-gpu --user-data-dir=%t.chrome \
// RUN:   --virtual-time-budget=5000 --dump-dom 'file://%t.html' > %t.dom 2>/dev/null
// RUN: grep -o '<title>[^<]*</title>\|<h1[^>]*>[^<]*</h1>\|data-ready="1"' %t.dom | FileCheck %s
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

int main(void) {
  for (int i = 0; i < 3; i++) {
    if (fork() == 0) {
      char *volatile p = malloc(100);
      free(p);
      exit(0);
    }
    wait(NULL);
  }
  return 0;
}

// TEXT: heapprof report: 5 processes, 5 files
// TEXT: process {{.*}}html-processes.c.tmp: 4 processes, pids
// TEXT: process {{.*}}html-processes.c.tmp.one pid

// CHECK: <title>heapprof: {{[^,]*}}html-processes.c.tmp: 4 processes, {{[^,]*}}html-processes.c.tmp.one</title>
// CHECK: data-ready="1"
// CHECK: <h1 id="title">heapprof report: {{[^,]*}}html-processes.c.tmp: 4 processes, {{[^,]*}}html-processes.c.tmp.one</h1>
