// A program that defines string functions of its own (portability code
// does: strdup, strlen) links with -fheapprof and its definitions serve,
// as they do over libc's without heapprof: the runtime's string
// interceptors are weak.  The link failed with "multiple definition of
// 'strlen'".  The program's functions are instrumented, so their accesses
// count by the pass: the copy's context is the program's strdup, called
// from main, and its object, a copy of a 99-byte string and its NUL (100
// bytes), has 100 stores (strdup's copy loop) and 100 loads (strlen of the
// copy), at -O0 (-O1 makes the copy loop a memcpy).
// RUN: %clang_heapprof -O0 %s -o %t
// RUN: %env_heapprof_opts=log_path=stderr %run %t 2>&1 | FileCheck %s
// RUN: %clang_heapprof -O0 -DPLAIN_CHECK %s -o %t.calls
// RUN: %run %t.calls | FileCheck %s --check-prefix=CALLS
// CALLS: own strlen 2, own strdup 1, own strchr 1
#include <stdio.h>
#include <stdlib.h>

static int strlen_calls, strdup_calls, strchr_calls;

__attribute__((noinline)) size_t strlen(const char *s) {
  strlen_calls++;
  size_t n = 0;
  while (s[n])
    n++;
  return n;
}

char *strdup(const char *s) {
  strdup_calls++;
  size_t n = strlen(s) + 1;
  char *d = malloc(n);
  for (size_t i = 0; i < n; i++)
    d[i] = s[i];
  return d;
}

char *strchr(const char *s, int c) {
  strchr_calls++;
  for (;; s++) {
    if (*s == (char)c)
      return (char *)s;
    if (!*s)
      return NULL;
  }
}

static char text[100]; /* not heap: its reads count nothing */

int main(void) {
  for (int i = 0; i < 99; i++)
    text[i] = 'a';
  char *volatile copy = strdup(text);
  size_t n = strlen(copy);
  int found = strchr(text, 'b') == NULL;
#ifdef PLAIN_CHECK
  printf("own strlen %d, own strdup %d, own strchr %d\n", strlen_calls,
         strdup_calls, strchr_calls);
#endif
  free(copy);
  return n == 99 && found ? 0 : 1;
}
// CHECK: Memory allocation stack id = [[ID:[0-9]+]]
// CHECK-NEXT: alloc_count 1, size (ave/min/max) 100.00 / 100 / 100
// CHECK-NEXT: access_count (ave/min/max): 200.00 / 200 / 200
// CHECK: Stack for id [[ID]]:
// CHECK-NEXT: in strdup
// CHECK-NEXT: in main
