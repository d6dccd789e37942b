// An instrumented shared library calls __heapprof_record_strided (a
// preserve_all function: its caller keeps r10 and r11 live across the call)
// through the GOT, bound at load, never through a lazy PLT entry, whose
// resolver may use r10 and r11 on the first call: jq's libjq.so crashed
// there in locfile_init, the loops below.  The library's calls are checked
// in its code, and the program runs with lazy binding (the default) and
// counts exactly: the 1000-byte text is written a byte at a time by main
// (-O0, 1000 accesses), copied by the library's memcpy (a copy counts one
// access per 8-byte word: 125) and read by its two walks (not vectorized:
// one access a byte, 2000): 3125.
// REQUIRES: heapprof-driver
// RUN: %clang_heapprof -O2 -fno-vectorize -fno-slp-vectorize -g -fPIC -shared -DLIB %s -o %t-lib.so
// RUN: llvm-objdump -d --no-show-raw-insn %t-lib.so | FileCheck %s --check-prefix=CODE
// CODE: <lines_init>:
// CODE-NOT: <__heapprof_record_strided@plt>
// CODE: {{callq?}} *{{0x[0-9a-f]+}}(%rip)
// RUN: %clang_heapprof -O0 -g %s -o %t %t-lib.so -Wl,-rpath,%T
// RUN: rm -rf %t.dir && env -u LD_BIND_NOW %env_heapprof_opts=profile_dir=%t.dir:print_text=1 %run %t | FileCheck %s
// CHECK: 101 lines, the last starts at 1000
// RUN: cat %t.dir/*.txt | FileCheck %s --check-prefix=TEXT
// TEXT: alloc_count 1, size (ave/min/max) 1000.00 / 1000 / 1000
// TEXT-NEXT: access_count (ave/min/max): 3125.00 / 3125 / 3125
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct lines {
  char *data;
  int length, nlines;
  int *linemap;
};

#ifdef LIB
struct lines *lines_init(const char *data, int length) {
  struct lines *l = malloc(sizeof(struct lines));
  l->data = malloc(length);
  memcpy(l->data, data, length);
  l->length = length;
  l->nlines = 1;
  for (int i = 0; i < length; i++)
    if (data[i] == '\n')
      l->nlines++;
  l->linemap = calloc(l->nlines + 1, sizeof(int));
  l->linemap[0] = 0;
  int line = 1;
  for (int i = 0; i < length; i++) {
    if (data[i] == '\n') {
      l->linemap[line] = i + 1;
      line++;
    }
  }
  l->linemap[l->nlines] = length + 1;
  return l;
}
#else
struct lines *lines_init(const char *data, int length);

int main(void) {
  int n = 1000;
  char *text = malloc(n);
  for (int i = 0; i < n; i++)
    text[i] = i % 10 == 9 ? '\n' : 'x';
  struct lines *l = lines_init(text, n);
  printf("%d lines, the last starts at %d\n", l->nlines,
         l->linemap[l->nlines - 1]);
  return 0;
}
#endif
