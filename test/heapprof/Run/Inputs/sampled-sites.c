/* Sites whose numbers are known, for sampled mode on another allocator
 * (allocator-sampled.test).  From ../../Inputs/sampled_sites.h: site_a
 * allocates and frees 200000 blocks of 1000 bytes, site_b 2000 of 64 KiB,
 * site_c keeps 1000 of 64 KiB live to exit.  Then site_d allocates and
 * frees 100 of 256 KiB (over 128 KiB: the "large" operation classes).
 * Prints nothing. */
#include "../../Inputs/sampled_sites.h"

__attribute__((noinline)) void *site_d(void) { return malloc(262144); }

int main(void) {
  void *volatile p;
  run_sampled_sites();
  for (int i = 0; i < 100; i++) {
    p = site_d();
    *(volatile char *)p = 1;
    free(p);
  }
  return 0;
}
