// A minimal "allocator library" for the --allocator tests: glibc's
// allocator under its own names (through __libc_malloc and friends: malloc
// here, the rest from glibc_rest.h), plus
// operator new/delete that count their calls and print the counts at exit,
// so a test can see that heapprof run called the library's C++ forms.
#include "glibc_rest.h"
#include <stddef.h>
#include <stdio.h>
#include <unistd.h>

void *malloc(size_t n) { return __libc_malloc(n); }

static long news, array_news, deletes, array_deletes;
void *_ZnwmRKSt9nothrow_t(size_t n, const void *nt) {
  news++;
  return __libc_malloc(n);
}
void *_ZnamRKSt9nothrow_t(size_t n, const void *nt) {
  array_news++;
  return __libc_malloc(n);
}
void _ZdlPv(void *p) {
  deletes++;
  __libc_free(p);
}
void _ZdaPv(void *p) {
  array_deletes++;
  __libc_free(p);
}

__attribute__((destructor)) static void report(void) {
  char buf[128];
  int n = snprintf(buf, sizeof buf,
                   "counting-alloc: new %ld new[] %ld delete %ld "
                   "delete[] %ld\n",
                   news, array_news, deletes, array_deletes);
  write(2, buf, n);
}
