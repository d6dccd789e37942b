// shadow_counters: reading heapprof's shadow counters from a test program
// (pass_strided_granules.c, pass_inline_ranges.c), in code the pass leaves
// uninstrumented so that the checks count nothing themselves.
#ifndef HEAPPROF_TEST_SHADOW_COUNTERS_H
#define HEAPPROF_TEST_SHADOW_COUNTERS_H
#include <stdint.h>

extern uintptr_t __heapprof_shadow_memory_dynamic_address;

#define NOINST __attribute__((noinline, disable_sanitizer_instrumentation))

// The counter of the 64-byte granule holding address a.
NOINST static uint64_t *counter(uintptr_t a) {
  return (uint64_t *)(((a & ~(uintptr_t)63) >> 3) +
                      __heapprof_shadow_memory_dynamic_address);
}
// Granule g of a buffer is the g-th from the one holding its first byte
// (the allocator aligns chunks to 32 bytes, not 64).
NOINST static uintptr_t granule0(const char *buf) {
  return (uintptr_t)buf & ~(uintptr_t)63;
}
// Whether any of the buffer's first n granules' counters differs from
// want[].
NOINST static int counters_differ(const char *buf, const uint64_t *want,
                                  long n) {
  for (long g = 0; g < n; g++)
    if (*counter(granule0(buf) + 64 * g) != want[g])
      return 1;
  return 0;
}
#endif
