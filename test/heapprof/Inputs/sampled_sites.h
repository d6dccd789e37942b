// sampled_sites: three allocation sites whose numbers are known, for the
// tests of sampled mode's estimates (Sampled/estimates.c, and
// Run/Inputs/sampled-sites.c for Run/allocator-sampled.test).
// run_sampled_sites() calls them in this order: site_a allocates and frees
// 200000 blocks of 1000 bytes, site_b 2000 blocks of 64 KiB, site_c keeps
// 1000 blocks of 64 KiB live to exit (in sampled_keep).  Each block is
// written once, by a store the pass instruments where the test is built
// with it.  The sites are functions of their own (noinline): a report
// names each by its function.
#ifndef HEAPPROF_TEST_SAMPLED_SITES_H
#define HEAPPROF_TEST_SAMPLED_SITES_H
#include <stdlib.h>

__attribute__((noinline)) void *site_a(void) { return malloc(1000); }
__attribute__((noinline)) void *site_b(void) { return malloc(65536); }
__attribute__((noinline)) void *site_c(void) { return malloc(65536); }
static void *volatile sampled_keep[1000];

static void run_sampled_sites(void) {
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
    sampled_keep[i] = site_c();
    *(volatile char *)sampled_keep[i] = 1;
  }
}

#endif
