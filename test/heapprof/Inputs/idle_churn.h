// idle_churn: churn(), 256 mallocs of 32 bytes then their frees: refills
// and drains of the 64-byte class's thread cache (it holds at most 64
// blocks and a refill brings 32: at least (256 - 64) / 32 = 6 refills a
// churn), where a due release_idle_ms pass runs (TestCases/release_idle.c, TestCases/release_idle_step.c,
// TestCases/release_idle_mlockall.c, Security/seccomp_idle.c).
#ifndef HEAPPROF_TEST_IDLE_CHURN_H
#define HEAPPROF_TEST_IDLE_CHURN_H
#include <stdlib.h>

static char *volatile churn_blocks[256];

__attribute__((unused)) static void churn(void) {
  for (int i = 0; i < 256; i++)
    churn_blocks[i] = malloc(32);
  for (int i = 0; i < 256; i++)
    free(churn_blocks[i]);
}

#endif
