/* Sites whose numbers are known, for sampled mode on another allocator
 * (allocator-sampled.test): site_a allocates and frees 200000 blocks of
 * 1000 bytes, site_b 2000 of 64 KiB, site_c keeps 1000 of 64 KiB live to
 * exit, site_d allocates and frees 100 of 256 KiB (over 128 KiB: the
 * "large" operation classes).  Prints nothing. */
#include <stdlib.h>

__attribute__((noinline)) void *site_a(void) { return malloc(1000); }
__attribute__((noinline)) void *site_b(void) { return malloc(65536); }
__attribute__((noinline)) void *site_c(void) { return malloc(65536); }
__attribute__((noinline)) void *site_d(void) { return malloc(262144); }
static void *volatile keep[1000];

int main(void) {
  void *volatile p;
  for (int i = 0; i < 200000; i++) {
    p = site_a();
    *(volatile char *)p = 1;
    free(p);
  }
  for (int i = 0; i < 2000; i++) {
    p = site_b();
    *(volatile char *)p = 1;
    free(p);
  }
  for (int i = 0; i < 1000; i++) {
    keep[i] = site_c();
    *(volatile char *)keep[i] = 1;
  }
  for (int i = 0; i < 100; i++) {
    p = site_d();
    *(volatile char *)p = 1;
    free(p);
  }
  return 0;
}
