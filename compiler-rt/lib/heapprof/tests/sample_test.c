/* Sampled mode's arithmetic (heapprof_sample.c): the -ln(u) used for the
 * exponential intervals and p(s) = 1 - e^(-s/N), against libm's values
 * (Python's math.log and math.expm1); the countdown's fast path
 * (heapprof_sample.h) at its edges. */
#include "hp_test.h"

static double rel(double a, double b) {
  double d = (a - b) / b;
  return d < 0 ? -d : d;
}

int main(void) {
  /* -ln(u): exact at 1 and powers of two, and at u = e^-k for chosen k. */
  EXPECT(hp_sample_neg_log(1.0) == 0.0);
  EXPECT(rel(hp_sample_neg_log(0.5), 0.69314718055994531) < 1e-15);
  EXPECT(rel(hp_sample_neg_log(0.36787944117144233), 1.0) < 1e-15); /* 1/e */
  EXPECT(rel(hp_sample_neg_log(0.1), 2.3025850929940457) < 1e-15);
  EXPECT(rel(hp_sample_neg_log(0.7), 0.35667494393873245) < 1e-14);
  EXPECT(rel(hp_sample_neg_log(0.99), 0.01005033585350145) < 1e-13);
  EXPECT(rel(hp_sample_neg_log(1.1102230246251565e-16), 36.7368005696771) <
         1e-15); /* 2^-53, the smallest draw */
  /* The mean of -ln(u) over a fine midpoint grid of (0, 1) is 1 - (a
   * bias of the approximation would show here; the grid's own error is
   * below 1e-5). */
  double sum = 0;
  int n = 1 << 20;
  for (int i = 0; i < n; i++)
    sum += hp_sample_neg_log((i + 0.5) / n);
  EXPECT(rel(sum / n, 1.0) < 1e-5);

  /* p(s) = 1 - e^(-s/N), both branches (s/N below and above 1/2). */
  EXPECT(rel(hp_sample_probability(1000, 65536), 0.015142963607740685) < 1e-14);
  EXPECT(rel(hp_sample_probability(65536, 65536), 0.6321205588285577) < 1e-14);
  EXPECT(rel(hp_sample_probability(1, 524288), 1.9073468138242529e-06) < 1e-14);
  EXPECT(rel(hp_sample_probability(32768, 65536), 0.3934693402873666) < 1e-14);
  EXPECT(hp_sample_probability(1u << 30, 1024) == 1.0);
  /* A 0-byte request counts as 1 byte. */
  EXPECT(hp_sample_probability(0, 100) == hp_sample_probability(1, 100));

  /* The countdown: an allocation is skipped only when bytes are left after
   * it; otherwise nothing changes and the slow path decides. */
  hp_sample_left = 0; /* a thread's first call */
  EXPECT(!hp_sample_skip(1) && hp_sample_left == 0);
  hp_sample_left = 10;
  EXPECT(hp_sample_skip(9) && hp_sample_left == 1);
  EXPECT(!hp_sample_skip(1) && hp_sample_left == 1); /* reaches 0: sampled */
  hp_sample_left = 10;
  EXPECT(hp_sample_skip(0) && hp_sample_left == 9); /* 0 bytes count as 1 */
  EXPECT(!hp_sample_skip(10) && hp_sample_left == 9);
  /* Sizes that would wrap a signed count: slow path, nothing counted. */
  hp_sample_left = 4000000000000000001ull; /* a draw's bound */
  EXPECT(!hp_sample_skip((uptr)-1) && hp_sample_left == 4000000000000000001ull);
  EXPECT(!hp_sample_skip((uptr)1 << 63));
  EXPECT(hp_sample_skip(4000000000000000000ull) && hp_sample_left == 1);
  hp_sample_left = 0;
  return hp_test_done("sample_test");
}
