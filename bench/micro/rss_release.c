/*===- rss_release.c - does freed memory leave the process? ---------------===
 *
 *   rss_release big COUNT     COUNT x 64 KiB written and freed, then
 *                             COUNT x 40 KiB written and freed
 *   rss_release small COUNT   COUNT x 64 B written, all but every 256th
 *                             freed, then COUNT/1000 x 64 KiB written and
 *                             freed
 *
 * The second phase of each uses another size class than the first, so an
 * allocator can serve it from the first phase's memory only by giving that
 * memory back to the kernel (or by coalescing it): peak RSS is the sum of
 * the phases when freed memory stays resident, close to the larger phase
 * when it goes back.  "small" is the fragmented case: the survivors pin
 * some pages of the first phase.  Also prints, on stderr, the resident set
 * right after each phase's frees (/proc/self/statm), which is what the
 * allocator kept.
 *===----------------------------------------------------------------------===*/
#include "bench_common.h"

#include <string.h>
#include <unistd.h>

/* Allocates n blocks of size bytes, writes each, frees those with
 * index % keep != 0 (all when keep is 0); returns a checksum. */
static uint64_t phase(unsigned char **v, long n, size_t size, long keep,
                      uint64_t *rng) {
  uint64_t sum = 0;
  for (long i = 0; i < n; i++) {
    v[i] = bench_xmalloc(size);
    memset(v[i], (int)bench_rng_below(rng, 255) + 1, size);
  }
  for (long i = 0; i < n; i++) {
    sum += v[i][size / 2] + (uint64_t)i;
    if (!keep || i % keep) {
      free(v[i]);
      v[i] = NULL;
    }
  }
  return sum;
}

int main(int argc, char **argv) {
  if (argc < 2 || (strcmp(argv[1], "big") && strcmp(argv[1], "small"))) {
    fprintf(stderr, "usage: %s big|small [COUNT]\n", argv[0]);
    return 2;
  }
  int big = !strcmp(argv[1], "big");
  long n = bench_arg(argc, argv, 2, big ? 3000 : 1000000, 1000, "COUNT");
  uint64_t rng = 42, sum = 0;
  unsigned char **v = bench_xmalloc((size_t)n * sizeof *v);
  long rss0 = bench_rss_kib();
  if (big)
    sum += phase(v, n, 64 * 1024, 0, &rng);
  else
    sum += phase(v, n, 64, 256, &rng);
  long rss1 = bench_rss_kib();
  unsigned char **w = bench_xmalloc((size_t)n * sizeof *w);
  if (big)
    sum += phase(w, n, 40 * 1024, 0, &rng);
  else
    sum += phase(w, n / 1000, 64 * 1024, 0, &rng);
  long rss2 = bench_rss_kib();
  fprintf(stderr, "rss_release %s %ld: resident after phase 1 %ld KiB, after "
                  "phase 2 %ld KiB (start %ld KiB)\n",
          argv[1], n, rss1, rss2, rss0);
  for (long i = 0; i < n; i++)
    free(v[i]);
  free(v);
  free(w);
  bench_checksum(big ? "rss_release big" : "rss_release small", sum);
  return 0;
}
