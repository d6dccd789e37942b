/*===- checkpoint_load.c - checkpoints taken while threads allocate --------===
 *
 *   checkpoint_load LIVE INTERVAL_MS DUMPS [THREADS]
 *
 * A load test's view of checkpoints.  LIVE objects stay live, each in a
 * context of its own (LIVE distinct call stacks, up to 110592), while
 * THREADS threads (default 4) each loop on malloc + write + free of one
 * small block, reading CLOCK_MONOTONIC after every pair and keeping the
 * longest gap between two consecutive pairs.  The main thread runs for
 * DUMPS * INTERVAL_MS milliseconds and, unless INTERVAL_MS is given as a
 * negative number (then it only sleeps as long), calls __heapprof_dump()
 * every INTERVAL_MS, timing each call and reading the resident set after
 * it.
 *
 * Prints (stdout) the workers' pairs in all, the longest gap and how many
 * gaps exceeded 1, 10 and 50 ms; each checkpoint's milliseconds at
 * 1, 10, 50, 100, 200 (and the median and largest); the resident set at
 * the same points.  The workers' pairs all come from one call site
 * (worker_pair), so a profile series must count exactly that many
 * allocations there, and exactly one in each of the LIVE contexts.
 * docs/performance.md, "Checkpoints under load".  Builds plain too (the
 * dump is a weak symbol): the scheduler's own gaps on this machine.
 *===----------------------------------------------------------------------===*/
#include "bench_common.h"
#include <pthread.h>
#include <string.h>
#include <time.h>

int __heapprof_dump(void) __attribute__((weak));

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

/* ---------------------------------------------- LIVE distinct contexts */
/* Three levels of 48 functions: context c is l1[c / 2304] -> l2[c / 48 %
 * 48] -> l3[c % 48] -> malloc, every frame a distinct return address. */
#define HP_48(X)                                                               \
  X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11) X(12) X(13)    \
  X(14) X(15) X(16) X(17) X(18) X(19) X(20) X(21) X(22) X(23) X(24) X(25)      \
  X(26) X(27) X(28) X(29) X(30) X(31) X(32) X(33) X(34) X(35) X(36) X(37)      \
  X(38) X(39) X(40) X(41) X(42) X(43) X(44) X(45) X(46) X(47)

#define ATTR __attribute__((noinline, disable_tail_calls))
typedef void *(*l3_fn)(size_t);
typedef void *(*l2_fn)(unsigned, size_t);
typedef void *(*l1_fn)(unsigned, unsigned, size_t);

#define DEF_L3(k)                                                              \
  ATTR static void *l3_##k(size_t n) {                                         \
    void *p = bench_xmalloc(n + (k));                                          \
    memset(p, k, n);                                                           \
    return p;                                                                  \
  }
HP_48(DEF_L3)
#define REF_L3(k) l3_##k,
static l3_fn l3[48] = {HP_48(REF_L3)};

#define DEF_L2(k)                                                              \
  ATTR static void *l2_##k(unsigned c, size_t n) {                             \
    void *p = l3[c](n);                                                        \
    __asm__ volatile("" ::"r"(p) : "memory");                                  \
    return p;                                                                  \
  }
HP_48(DEF_L2)
#define REF_L2(k) l2_##k,
static l2_fn l2[48] = {HP_48(REF_L2)};

#define DEF_L1(k)                                                              \
  ATTR static void *l1_##k(unsigned b, unsigned c, size_t n) {                 \
    void *p = l2[b](c, n);                                                     \
    __asm__ volatile("" ::"r"(p) : "memory");                                  \
    return p;                                                                  \
  }
HP_48(DEF_L1)
#define REF_L1(k) l1_##k,
static l1_fn l1[48] = {HP_48(REF_L1)};

/* ------------------------------------------------------------- workers */
typedef struct worker {
  pthread_t tid;
  int id;
  long pairs;
  double max_gap_ms;
  long over1, over10, over50;
  uint64_t sum;
  long nlong; /* gaps over 1 ms, kept for the overlap with checkpoints */
  double (*longs)[2];
} worker_t;

#define MAX_LONG 65536

static volatile int stop;

ATTR static uint64_t worker_pair(int id) {
  unsigned char *volatile p = bench_xmalloc(48);
  p[0] = (unsigned char)id;
  p[47] = (unsigned char)(id + 1);
  uint64_t v = p[0] + p[47];
  free(p);
  return v;
}

static void *worker_main(void *arg) {
  worker_t *w = arg;
  double prev = now_ms();
  while (!__atomic_load_n(&stop, __ATOMIC_RELAXED)) {
    w->sum += worker_pair(w->id);
    w->pairs++;
    double t = now_ms();
    double gap = t - prev;
    prev = t;
    if (gap > w->max_gap_ms)
      w->max_gap_ms = gap;
    if (gap > 1 && w->nlong < MAX_LONG) {
      w->longs[w->nlong][0] = t - gap;
      w->longs[w->nlong++][1] = t;
    }
    w->over1 += gap > 1;
    w->over10 += gap > 10;
    w->over50 += gap > 50;
  }
  return NULL;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

int main(int argc, char **argv) {
  long live = bench_arg(argc, argv, 1, 1000, 0, "LIVE");
  if (argc < 3) {
    fprintf(stderr, "usage: %s LIVE INTERVAL_MS DUMPS [THREADS]\n", argv[0]);
    return 2;
  }
  long interval = strtol(argv[2], NULL, 10);
  long dumps = bench_arg(argc, argv, 3, 200, 1, "DUMPS");
  long nthreads = bench_arg(argc, argv, 4, 4, 1, "THREADS");
  int dumping = interval > 0 && __heapprof_dump;
  if (interval < 0)
    interval = -interval;
  if (live > 48L * 48 * 48 || interval == 0) {
    fprintf(stderr, "%s: LIVE at most 110592, INTERVAL_MS not 0\n", argv[0]);
    return 2;
  }

  void **objs = bench_xmalloc(sizeof(void *) * (size_t)(live ? live : 1));
  for (long i = 0; i < live; i++)
    objs[i] = l1[i / 2304]((unsigned)(i / 48 % 48), (unsigned)(i % 48), 16);

  worker_t *ws = calloc((size_t)nthreads, sizeof(worker_t));
  double *ms = calloc((size_t)dumps, sizeof(double));
  double (*span)[2] = calloc((size_t)dumps, sizeof(double[2]));
  long *rss = calloc((size_t)dumps, sizeof(long));
  long rss0 = bench_rss_kib();
  for (long i = 0; i < nthreads; i++) {
    ws[i].id = (int)i;
    ws[i].longs = bench_xmalloc(sizeof(double[2]) * MAX_LONG);
    pthread_create(&ws[i].tid, NULL, worker_main, &ws[i]);
  }
  double start = now_ms();
  for (long d = 0; d < dumps; d++) {
    double due = start + (double)(d + 1) * interval;
    double t;
    while ((t = now_ms()) < due) {
      double left = due - t;
      struct timespec ts = {(time_t)(left / 1e3),
                            (long)((left - (double)(time_t)(left / 1e3) * 1e3) *
                                   1e6)};
      nanosleep(&ts, NULL);
    }
    if (dumping) {
      double t0 = now_ms();
      __heapprof_dump();
      double t1 = now_ms();
      ms[d] = t1 - t0;
      span[d][0] = t0;
      span[d][1] = t1;
    }
    rss[d] = bench_rss_kib();
  }
  __atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
  long pairs = 0, o1 = 0, o10 = 0, o50 = 0;
  double maxgap = 0;
  uint64_t sum = 0;
  for (long i = 0; i < nthreads; i++) {
    pthread_join(ws[i].tid, NULL);
    pairs += ws[i].pairs;
    o1 += ws[i].over1;
    o10 += ws[i].over10;
    o50 += ws[i].over50;
    sum += ws[i].sum;
    if (ws[i].max_gap_ms > maxgap)
      maxgap = ws[i].max_gap_ms;
  }
  printf("live %ld threads %ld dumps %ld interval %ld ms: %s\n", live,
         nthreads, dumping ? dumps : 0, interval,
         dumping ? "checkpoints" : "no checkpoints");
  printf("worker pairs %ld (%.0f/s), longest gap %.2f ms, gaps >1ms %ld "
         ">10ms %ld >50ms %ld\n",
         pairs, pairs / ((now_ms() - start) / 1e3), maxgap, o1, o10, o50);
  /* A gap that overlaps a checkpoint may be the checkpoint's doing; one
   * that does not is the scheduler's (or another program's). */
  double max_in = 0, max_out = 0;
  long n_in = 0, n_out = 0;
  for (long i = 0; i < nthreads; i++)
    for (long k = 0; k < ws[i].nlong; k++) {
      double a = ws[i].longs[k][0], b = ws[i].longs[k][1], g = b - a;
      int in = 0;
      for (long d = 0; dumping && d < dumps && !in; d++)
        in = a < span[d][1] && b > span[d][0];
      if (in) {
        n_in++;
        max_in = g > max_in ? g : max_in;
      } else {
        n_out++;
        max_out = g > max_out ? g : max_out;
      }
    }
  printf("gaps >1ms during a checkpoint %ld (longest %.2f ms), outside %ld "
         "(longest %.2f ms)\n",
         n_in, max_in, n_out, max_out);
  if (dumping) {
    static const long at[] = {1, 10, 50, 100, 200, 500, 1000};
    printf("checkpoint ms at");
    for (unsigned i = 0; i < sizeof(at) / sizeof(at[0]) && at[i] <= dumps; i++)
      printf(" #%ld %.2f", at[i], ms[at[i] - 1]);
    double last = ms[dumps - 1];
    qsort(ms, (size_t)dumps, sizeof(double), cmp_double);
    printf(" #%ld %.2f; median %.2f max %.2f\n", dumps, last,
           ms[dumps / 2], ms[dumps - 1]);
  }
  printf("rss KiB before %ld, after checkpoint", rss0);
  static const long at[] = {1, 10, 50, 100, 200, 500, 1000};
  for (unsigned i = 0; i < sizeof(at) / sizeof(at[0]) && at[i] <= dumps; i++)
    printf(" #%ld %ld", at[i], rss[at[i] - 1]);
  printf(" #%ld %ld\n", dumps, rss[dumps - 1]);
  for (long i = 0; i < live; i++)
    free(objs[i]);
  free(objs);
  bench_checksum("checkpoint_load", sum + (uint64_t)live);
  return 0;
}
