/* Minimal unit-test harness for heapprof's runtime internals.  Each test
 * program links the whole runtime and calls hp_* functions directly. */
#ifndef HP_TEST_H
#define HP_TEST_H
#include "heapprof_internal.h"
#include <stdio.h>

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
#endif
