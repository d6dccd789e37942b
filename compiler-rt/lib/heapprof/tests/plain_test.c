/* The plain path (heapprof_allocator.c): taken in the default mode, left
 * for the general path as soon as one per-call feature is on, and the
 * features still work there. */
#include "hp_test.h"
#include <stdlib.h>

static void *volatile sink;

static bool plain_with(bool *flag) {
  bool old = *flag;
  *flag = !old;
  hp_allocator_init_plain();
  bool plain = hp_alloc_plain;
  *flag = old;
  hp_allocator_init_plain();
  return plain;
}

int main(void) {
  __heapprof_init();
  EXPECT(hp_alloc_plain); /* the unit tests run with the default flags */
  EXPECT(!plain_with(&hp_flags.junk_fill));
  EXPECT(!plain_with(&hp_flags.zero_fill));
  EXPECT(!plain_with(&hp_flags.false_sharing));
  EXPECT(!plain_with(&hp_flags.op_classes));
  EXPECT(!plain_with(&hp_pmu_on));
  EXPECT(hp_alloc_plain);
  hp_flags.max_allocation_size_mb = 1;
  hp_allocator_init_plain();
  EXPECT(!hp_alloc_plain);
  /* The general path checks the limit (allocator_may_return_null is on by
   * default: NULL, no abort). */
  sink = malloc(2 << 20);
  EXPECT(sink == NULL);
  hp_flags.max_allocation_size_mb = 0;
  hp_allocator_init_plain();
  EXPECT(hp_alloc_plain);

  /* Plain: a freed block comes back from the thread cache (last in, first
   * out) as the program left it. */
  unsigned char *p = malloc(40);
  hp_memset(p, 0x11, 40);
  free(p);
  unsigned char *q = malloc(40);
  EXPECT(q == p);
  EXPECT_EQ(q[0], 0x11);
  EXPECT_EQ(q[39], 0x11);
  free(q);

  /* General, with junk_fill: a new chunk reads 0xd0, a freed one 0xdf. */
  hp_flags.junk_fill = true;
  hp_allocator_init_plain();
  EXPECT(!hp_alloc_plain);
  unsigned char *r = malloc(40);
  EXPECT(r == p);
  EXPECT_EQ(r[0], HP_JUNK_ALLOC);
  EXPECT_EQ(r[39], HP_JUNK_ALLOC);
  free(r);
  EXPECT_EQ(r[8], HP_JUNK_FREE); /* the header's 32 bytes come before */
  /* realloc(NULL, n) allocates on the same two paths. */
  unsigned char *a = realloc(NULL, 40);
  EXPECT(a == p);
  EXPECT_EQ(a[0], HP_JUNK_ALLOC);
  hp_memset(a, 0x22, 40);
  hp_flags.junk_fill = false;
  hp_allocator_init_plain();
  free(a); /* plain: no junk */
  unsigned char *b = realloc(NULL, 40);
  EXPECT(b == p);
  EXPECT_EQ(b[0], 0x22);
  free(b);
  hp_flags.junk_fill = true;
  hp_allocator_init_plain();
  hp_flags.junk_fill = false;
  hp_allocator_init_plain();
  EXPECT(hp_alloc_plain);
  return hp_test_done("plain_test");
}
