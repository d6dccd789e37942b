/*===- realloc_growth.c - buffers grown by doubling and by small steps ----===
 *
 *   realloc_growth ROUNDS
 *
 * Each round grows 32 interleaved buffers two ways, the way real programs
 * grow vectors and strings:
 *   - doubling: 16 bytes up to 256 KiB, capacity *= 2 on each step;
 *   - small increments: 24 bytes up to 16 KiB in steps of 24..88 bytes.
 * Growing several buffers in turn stops realloc from always extending in
 * place. After every realloc the newly added tail is written at its first
 * and last byte; everything is read back into the checksum before freeing.
 *===----------------------------------------------------------------------===*/
#include "bench_common.h"

enum { NBUF = 32, DOUBLE_MAX = 256 << 10, STEP_MAX = 16 << 10 };

static unsigned char *grow(unsigned char *p, size_t old, size_t new_size,
                           unsigned char tag) {
  p = realloc(p, new_size);
  if (!p) {
    fprintf(stderr, "realloc failed\n");
    exit(3);
  }
  p[old] = tag;
  p[new_size - 1] = (unsigned char)(tag + 1);
  return p;
}

int main(int argc, char **argv) {
  long rounds = bench_arg(argc, argv, 1, 40, 1, "ROUNDS");
  uint64_t rng = 1234, sum = 0, reallocs = 0;
  unsigned char *buf[NBUF];
  size_t len[NBUF];

  for (long r = 0; r < rounds; r++) {
    /* doubling */
    for (int i = 0; i < NBUF; i++) {
      len[i] = 16;
      buf[i] = bench_xmalloc(16);
      buf[i][0] = (unsigned char)i;
      buf[i][15] = 1;
    }
    for (size_t cap = 32; cap <= DOUBLE_MAX; cap *= 2)
      for (int i = 0; i < NBUF; i++) {
        buf[i] = grow(buf[i], len[i], cap, (unsigned char)(cap + i));
        len[i] = cap;
        reallocs++;
      }
    for (int i = 0; i < NBUF; i++) {
      for (size_t k = 16; k < len[i]; k *= 2)
        sum = sum * 31 + buf[i][k] + buf[i][k - 1];
      free(buf[i]);
    }
    /* small increments */
    for (int i = 0; i < NBUF; i++) {
      len[i] = 24;
      buf[i] = bench_xmalloc(24);
      buf[i][0] = (unsigned char)r;
      buf[i][23] = 2;
    }
    for (int live = NBUF; live > 0;) {
      live = 0;
      for (int i = 0; i < NBUF; i++) {
        if (len[i] >= STEP_MAX)
          continue;
        size_t n = len[i] + 24 + bench_rng_below(&rng, 65);
        buf[i] = grow(buf[i], len[i], n, (unsigned char)n);
        len[i] = n;
        reallocs++;
        live++;
      }
    }
    for (int i = 0; i < NBUF; i++) {
      sum = sum * 31 + buf[i][0] + buf[i][len[i] - 1];
      free(buf[i]);
    }
  }
  printf("realloc_growth: %" PRIu64 " reallocs\n", reallocs);
  bench_checksum("realloc_growth", sum);
  return 0;
}
