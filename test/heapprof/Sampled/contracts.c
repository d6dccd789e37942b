// The allocation functions keep their C and POSIX contracts in sampled
// mode, whether an object is sampled (glibc memory behind heapprof's
// prefix) or not (glibc's own), and across realloc between the two:
// sample_bytes=1 samples every allocation of 40 bytes or more (p = 1 -
// e^-40), 2^40 practically none, 256 a mix.  Every check prints what failed;
// the program ends with "done, 0 failures".
// RUN: %clang_rt_heapprof -O0 %s -o %t
// RUN: %env_heapprof_opts=sample_bytes=1:sample_seed=1:dump_at_exit=0 %run %t 2>&1 | FileCheck %s
// RUN: %env_heapprof_opts=sample_bytes=256:sample_seed=2:dump_at_exit=0 %run %t 2>&1 | FileCheck %s
// RUN: %env_heapprof_opts=sample_bytes=1099511627776:dump_at_exit=0 %run %t 2>&1 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: done, 0 failures
#include <errno.h>
#include <malloc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;
#define CHECK(c)                                                               \
  do {                                                                         \
    if (!(c)) {                                                                \
      printf("FAIL line %d: %s\n", __LINE__, #c);                              \
      failures++;                                                              \
    }                                                                          \
  } while (0)

static int all(const unsigned char *p, size_t n, unsigned char v) {
  for (size_t i = 0; i < n; i++)
    if (p[i] != v)
      return 0;
  return 1;
}

int main(void) {
  // Dirty memory that calloc may get back.
  for (int i = 0; i < 200; i++) {
    char *volatile p = malloc(64 + i * 8);
    memset(p, 0xab, 64 + i * 8);
    free(p);
  }
  for (int i = 0; i < 200; i++) {
    size_t n = 64 + i * 8;
    unsigned char *p = calloc(1, n);
    CHECK(p && all(p, n, 0));
    CHECK(malloc_usable_size(p) >= n);
    free(p);
  }
  errno = 0;
  CHECK(calloc(SIZE_MAX / 2, 3) == NULL && errno == ENOMEM);

  // realloc: contents kept up to the smaller size, across every mix of
  // sampled and unsampled old and new objects.
  unsigned char *r = NULL;
  size_t n = 0;
  srand(1);
  for (int i = 0; i < 2000; i++) {
    size_t m = 1 + (size_t)rand() % 3000;
    unsigned char *q = realloc(r, m);
    CHECK(q != NULL);
    CHECK(all(q, n < m ? n : m, (unsigned char)(i - 1)));
    memset(q, (unsigned char)i, m);
    CHECK(malloc_usable_size(q) >= m);
    r = q, n = m;
  }
  CHECK(realloc(r, 0) == NULL); // glibc: frees r

  // The whole usable size is the program's, and realloc keeps it (Redis's
  // strings grow into it): bytes written up to malloc_usable_size survive
  // a realloc to a larger size, sampled or not, old or new.
  r = NULL;
  n = 0;
  for (int i = 0; i < 2000; i++) {
    size_t m = n + 1 + (size_t)rand() % 600;
    if (m > 20000)
      m = 1 + (size_t)rand() % 300;
    unsigned char *q = realloc(r, m);
    CHECK(q != NULL);
    CHECK(all(q, n < m ? n : m, (unsigned char)(i - 1)));
    n = malloc_usable_size(q);
    CHECK(n >= m);
    memset(q, (unsigned char)i, n);
    r = q;
  }
  free(r);

  // The memalign family.
  for (size_t a = 16; a <= 8192; a *= 2) {
    void *p = memalign(a, 100);
    CHECK(p && (uintptr_t)p % a == 0);
    memset(p, 1, 100);
    free(p);
    void *q = NULL;
    CHECK(posix_memalign(&q, a, 1000) == 0 && (uintptr_t)q % a == 0);
    free(q);
    void *s = aligned_alloc(a, 4 * a);
    CHECK(s && (uintptr_t)s % a == 0);
    free(s);
  }
  void *q = (void *)1;
  CHECK(posix_memalign(&q, 24, 100) == EINVAL && q == (void *)1);
  // A failure sets errno to ENOMEM too, as glibc's does (sampled or not).
  errno = 0;
  CHECK(posix_memalign(&q, 64, (size_t)1 << 50) == ENOMEM && errno == ENOMEM &&
        q == (void *)1);
  errno = 0;
  CHECK(aligned_alloc(((size_t)1 << 63) + 1, 100) == NULL && errno == EINVAL);
  void *v = valloc(5000);
  CHECK(v && (uintptr_t)v % 4096 == 0);
  free(v);
  void *pv = pvalloc(5000);
  CHECK(pv && (uintptr_t)pv % 4096 == 0 && malloc_usable_size(pv) >= 8192);
  free(pv);

  // strdup and friends allocate through malloc.
  char *d = strdup("a string of forty-five bytes, more or less...");
  CHECK(d && !strcmp(d, "a string of forty-five bytes, more or less..."));
  char *e = strndup(d, 8);
  CHECK(e && !strcmp(e, "a string"));
  free(d);
  free(e);
  free(NULL);

  // A realloc glibc cannot serve fails with ENOMEM and leaves the object
  // as it was, live (sampled at N = 1: the resize of a sampled object in
  // place must put it back).
  unsigned char *keep = malloc(5000);
  memset(keep, 9, 5000);
  errno = 0;
  CHECK(realloc(keep, SIZE_MAX / 4) == NULL && errno == ENOMEM);
  CHECK(all(keep, 5000, 9));
  free(keep);

  // Large objects (glibc maps them).
  unsigned char *big = malloc(1 << 20);
  memset(big, 7, 1 << 20);
  big = realloc(big, 3 << 20);
  CHECK(big && all(big, 1 << 20, 7));
  free(big);

  printf("done, %d failures\n", failures);
  return 0;
}
