// A live chunk with a page the program protected (a guard page in a
// posix_memalign'd stack: PROT_NONE) is scanned around it: the leak check
// read it and the program died at exit of a SIGSEGV inside heapprof, with
// no profile.  The 3-page chunk is reachable from a global; its first page
// points to a 40-byte object, its third to a 56-byte one, both reachable;
// the one 100-byte object whose pointer the program dropped is the only
// leak: 1 direct object, 100 bytes.
// RUN: %clang_heapprof -O0 -g %s -o %t
// RUN: rm -rf %t.d && %env_heapprof_opts=profile_dir=%t.d %run %t | FileCheck %s --check-prefix=OUT
// RUN: heapprof show %t.d/*.profraw | FileCheck %s
// RUN: %clang_plain -O0 -g %s -o %t.plain
// RUN: rm -rf %t.run && heapprof run -o %t.run -- %t.plain | FileCheck %s --check-prefix=OUT
// RUN: heapprof show %t.run/*.profraw | FileCheck %s
// REQUIRES: heapprof-driver
// OUT: done
// CHECK: leaks: head_words=10 objects={{[0-9]+}} root_bytes={{[0-9]+}} direct_objects=1 direct_bytes=100 indirect_objects=0 indirect_bytes=0
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

static char **volatile guarded;

__attribute__((noinline)) static void drop(void) {
  char *volatile lost = malloc(100);
  lost[0] = 1;
}

// Overwrites the stack below main's frame, where drop's frame was.
__attribute__((noinline)) static void clobber(void) {
  volatile char buf[16384];
  memset((char *)buf, 0, sizeof(buf));
}

int main(void) {
  void *p;
  if (posix_memalign(&p, 4096, 3 * 4096))
    return 2;
  memset(p, 0, 3 * 4096);
  char **words = p;
  words[0] = malloc(40);
  words[2 * 4096 / sizeof(char *)] = malloc(56);
  mprotect((char *)p + 4096, 4096, PROT_NONE);
  guarded = words;
  drop();
  clobber();
  puts("done");
  return 0;
}
