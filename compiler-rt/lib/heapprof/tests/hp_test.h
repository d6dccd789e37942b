/* Minimal unit-test harness for heapprof's runtime internals.  Each test
 * program links the whole runtime and calls hp_* functions directly. */
#ifndef HP_TEST_H
#define HP_TEST_H
#include "heapprof_internal.h"
#include <stdio.h>
#include <sys/mman.h>
#include <sys/sysinfo.h>

static int hp_test_checks, hp_test_failures;

#define EXPECT(c)                                                            \
  do {                                                                       \
    hp_test_checks++;                                                        \
    if (!(c)) {                                                              \
      hp_test_failures++;                                                    \
      printf("%s:%d: EXPECT failed: %s\n", __FILE__, __LINE__, #c);          \
    }                                                                        \
  } while (0)

#define EXPECT_EQ(a, b)                                                      \
  do {                                                                       \
    unsigned long long _a = (unsigned long long)(a);                         \
    unsigned long long _b = (unsigned long long)(b);                         \
    hp_test_checks++;                                                        \
    if (_a != _b) {                                                          \
      hp_test_failures++;                                                    \
      printf("%s:%d: EXPECT_EQ failed: %s == %llu, expected %s == %llu\n",   \
             __FILE__, __LINE__, #a, _a, #b, _b);                            \
    }                                                                        \
  } while (0)

#define EXPECT_STREQ(a, b)                                                   \
  do {                                                                       \
    hp_test_checks++;                                                        \
    if (hp_strcmp((a), (b))) {                                               \
      hp_test_failures++;                                                    \
      printf("%s:%d: EXPECT_STREQ failed: \"%s\" vs \"%s\"\n", __FILE__,      \
             __LINE__, (a), (b));                                            \
    }                                                                        \
  } while (0)

static inline int hp_test_done(const char *name) {
  printf("%s: %d checks, %d failures\n", name, hp_test_checks,
         hp_test_failures);
  return hp_test_failures != 0 || hp_test_checks == 0;
}
/* Resident pages among the pages of [beg, beg + size) (mincore), or
 * (uptr)-1 when it cannot tell. */
static inline uptr hp_test_resident_pages(uptr beg, uptr size) {
  static unsigned char vec[8192];
  uptr n = 0;
  uptr b = HP_ROUND_DOWN(beg, HP_PAGE_SIZE);
  uptr e = HP_ROUND_UP(beg + size, HP_PAGE_SIZE);
  if ((e - b) / HP_PAGE_SIZE > sizeof(vec) || mincore((void *)b, e - b, vec))
    return (uptr)-1;
  for (uptr i = 0; i < (e - b) / HP_PAGE_SIZE; i++)
    n += vec[i] & 1;
  return n;
}

/* Whether the machine has swap (or sysinfo fails): then heapprof's scans
 * read every page of counters (hp_shadow_holes_zero). */
static inline bool hp_test_swap_on(void) {
  struct sysinfo si;
  return sysinfo(&si) != 0 || si.totalswap != 0;
}

#endif
