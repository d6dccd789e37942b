// The HTML page's flamedata block is what docs/formats.md ("HTML page")
// says: its keys, and its nodes' columns in that order
// (Inputs/html-flamedata-doc.py reads the documented block and names the
// root's weights by it).  The program makes each weight a different
// number: three 100-byte blocks, five stores into each; the first two
// freed before the next malloc (temporary), the last one kept to the end.
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: %clang_heapprof -O0 -g %s -o %t
// RUN: %env_heapprof_opts=profile_dir=%t.d:detect_leaks=0 %run %t
// RUN: heapprof html -o %t.html %t.d
// RUN: %python %S/Inputs/html-flamedata-doc.py %t.html %heapprof_src_root/docs/formats.md | FileCheck %s
#include <stdlib.h>

char *volatile kept;

int main(void) {
  for (int i = 0; i < 3; i++) {
    char *volatile p = malloc(100);
    for (int j = 0; j < 5; j++)
      p[j] = j;
    if (i < 2)
      free(p);
    else
      kept = p;
  }
  return 0;
}

// 300 bytes in 3 objects, 15 accesses, 100 bytes live at exit, 2 freed
// before their thread allocated again; the profile records all but
// leaked_bytes (detect_leaks=0: no leak check at exit).
// CHECK: keys names weights frames min_share nodes
// CHECK-NEXT: root bytes=300 allocs=3 accesses=15 live_bytes=100 temporary=2 leaked_bytes=0{{$}}
// CHECK-NEXT: weights bytes allocs accesses live_bytes temporary{{$}}
