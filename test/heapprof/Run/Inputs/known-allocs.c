// The known program of the --allocator tests (allocator-*.test): every
// allocation function once or more, from its own site, with sizes and
// counts the tests check; output and exit status that must not change.
//   site_malloc    10 x malloc(100)
//   site_calloc     5 x calloc(3, 100)          (300 bytes each)
//   site_aligned    3 x aligned_alloc(64, 128)
//   site_posix      2 x posix_memalign(.., 4096, 1000)
//   site_realloc    4 of site_malloc's objects realloc'd to 1000 bytes
//   site_leak       2 x malloc(77), never freed
// Everything else is freed: 10 + 5 + 3 + 2 + 4 = 24 frees.  A malloc of
// 2^62 bytes fails with ENOMEM.  With argument "libc", a block from glibc's
// __libc_malloc (which bypasses the runtime, as an allocation made before
// it was ready does) is freed through free(): not recorded, no error.
// Exit status 3.
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void *__libc_malloc(size_t);

static void *volatile keep[32];

__attribute__((noinline)) void site_malloc(int i) { keep[i] = malloc(100); }
__attribute__((noinline)) void site_calloc(int i) { keep[i] = calloc(3, 100); }
__attribute__((noinline)) void site_aligned(int i) {
  keep[i] = aligned_alloc(64, 128);
}
__attribute__((noinline)) int site_posix(int i) {
  void *p = NULL;
  int rc = posix_memalign(&p, 4096, 1000);
  keep[i] = p;
  return rc;
}
__attribute__((noinline)) void site_realloc(int i) {
  keep[i] = realloc(keep[i], 1000);
}
__attribute__((noinline)) void site_leak(int i) { keep[i] = malloc(77); }

int main(int argc, char **argv) {
  for (int i = 0; i < 10; i++)
    site_malloc(i);
  for (int i = 10; i < 15; i++)
    site_calloc(i);
  for (int i = 15; i < 18; i++)
    site_aligned(i);
  for (int i = 18; i < 20; i++)
    if (site_posix(i) || (unsigned long)keep[i] % 4096)
      return 10;
  for (int i = 0; i < 4; i++)
    site_realloc(i);
  for (int i = 10; i < 15; i++)
    for (int j = 0; j < 300; j++)
      if (((char *)keep[i])[j])
        return 11; /* calloc did not zero */
  for (int i = 0; i < 20; i++)
    free(keep[i]);
  site_leak(20);
  site_leak(21);
  errno = 0;
  void *volatile big = malloc((size_t)1 << 62);
  printf("huge malloc: %s, errno %s\n", big ? "non-null" : "NULL",
         errno == ENOMEM ? "ENOMEM" : "not ENOMEM");
  if (argc > 1 && !strcmp(argv[1], "libc")) {
    void *p = __libc_malloc(50);
    free(p);
    puts("freed a block from __libc_malloc");
  }
  puts("done");
  return 3;
}
