/*===- heapprof_pmu.c - PMU events per allocator call -------------------===
 *
 * Part of heapprof.  See heapprof_pmu.h.  Each thread opens one counter
 * group (the first event that opens leads, PERF_FORMAT_GROUP reads them
 * all in one read(2)) at its first sampled call.  Section 4:
 *
 *   u64 nevents (HP_NUM_PMU_EVENTS), u64 flags (HP_PMU_NO_*), u64 mask of
 *   the events counted, u64 nrows,
 *   nrows x { u64 class, samples, nevents x u64 sums }
 *
 * rows ascending by class, only classes sampled since the previous dump;
 * every number but the flags and mask is the change since that dump.
 *===----------------------------------------------------------------------===*/
#include "heapprof_internal.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <pthread.h>
#include <sys/syscall.h>
#include <unistd.h>

bool hp_pmu_on;

/* The events, in slot order. */
static const struct {
  u32 type;
  u64 config;
} events[HP_NUM_PMU_EVENTS] = {
    {PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS},
    {PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES},
    {PERF_TYPE_HW_CACHE, PERF_COUNT_HW_CACHE_DTLB |
                             (PERF_COUNT_HW_CACHE_OP_READ << 8) |
                             (PERF_COUNT_HW_CACHE_RESULT_MISS << 16)},
    {PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS},
    {PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MIN},
    {PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MAJ},
    {PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES},
    {PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK},
};

/* One thread's counters; its own. */
typedef struct pmu_thread {
  int fds[HP_NUM_PMU_EVENTS]; /* valid for the first nopen */
  u32 nopen;
  u8 slot[HP_NUM_PMU_EVENTS]; /* the event of each group member */
  bool opened;                /* tried (nopen 0: nothing opened) */
  hp_fd_id_t id[HP_NUM_PMU_EVENTS]; /* what each descriptor was at open */
  bool active;                /* a sampled call is under way */
  u32 tick[HP_NUM_OPS];
  u64 start[HP_NUM_PMU_EVENTS];
} pmu_thread_t;
static HP_TLS pmu_thread_t pt;

/* Totals per class (atomic adds: 1 call in pmu_sample_every, each already
 * paying two read(2)s); the flags and mask of what was opened. */
typedef struct pmu_row {
  u64 samples;
  u64 sums[HP_NUM_PMU_EVENTS];
} pmu_row_t;
static pmu_row_t table[HP_OPC_NUM_CLASSES];
static u64 counted_mask, flags_word;
/* The totals at the previous dump: under the dump lock.  now, base and
 * made_for: the dump whose section was made last, its totals and its
 * previous dump's, for the same rows when it is made again (write_profile
 * makes the raw profile once for each destination it tries). */
static pmu_row_t last[HP_OPC_NUM_CLASSES];
static pmu_row_t now[HP_OPC_NUM_CLASSES], base[HP_OPC_NUM_CLASSES];
static u64 made_for;

static void open_group(void);

/* Opens the init thread's counters at once, so the profile says what this
 * machine counts even before a call is sampled. */
void hp_pmu_init(void) {
  hp_pmu_on = hp_flags.pmu_events && hp_flags.profiling;
  if (hp_pmu_on)
    open_group();
}

static int open_event(u32 i, int group) {
  if (hp_in_sandbox()) /* not the program's call (heapprof_sandbox.c) */
    return -1;
  struct perf_event_attr a;
  hp_memset(&a, 0, sizeof(a));
  a.size = sizeof(a);
  a.type = events[i].type;
  a.config = events[i].config;
  a.exclude_kernel = 1; /* perf_event_paranoid 2 allows user space only */
  a.exclude_hv = 1;
  a.read_format = PERF_FORMAT_GROUP;
  int saved = errno;
  int fd = (int)syscall(SYS_perf_event_open, &a, (long)0, (long)-1,
                        (long)group, (long)PERF_FLAG_FD_CLOEXEC);
  /* Never on 0, 1 or 2: with the program's stdout closed, its write(1)
   * failed with EINVAL instead of EBADF and its open("/dev/null") got 7
   * instead of 1. */
  fd = hp_fd_above_stdio(fd);
  errno = saved;
  return fd;
}

static void open_group(void) {
  pt.opened = true;
  int leader = -1;
  u64 mask = 0;
  for (u32 i = 0; i < HP_NUM_PMU_EVENTS; i++) {
    int fd = open_event(i, leader);
    if (fd < 0)
      continue;
    if (leader < 0)
      leader = fd;
    hp_fd_id_take(fd, &pt.id[pt.nopen]);
    pt.fds[pt.nopen] = fd;
    pt.slot[pt.nopen++] = (u8)i;
    mask |= 1ull << i;
  }
  u64 f = 0;
  if (!(mask & 7))
    f |= HP_PMU_NO_HARDWARE;
  if (!mask)
    f |= HP_PMU_NO_EVENTS;
  __atomic_or_fetch(&counted_mask, mask, __ATOMIC_RELAXED);
  __atomic_or_fetch(&flags_word, f, __ATOMIC_RELAXED);
}

/* Whether descriptor k is still the one heapprof opened.  A program that
 * closes every descriptor it did not open, and reuses the numbers, must
 * not have its file read (moving its offset) or closed by heapprof.  All
 * perf events share one anonymous inode, so this tells a perf event from
 * the program's files, sockets and pipes. */
static bool fd_ours(u32 k) { return hp_fd_id_is(pt.fds[k], &pt.id[k]); }

/* The group's values in slot order into v; false if the read failed. */
static bool read_group(u64 *v) {
  u64 buf[1 + HP_NUM_PMU_EVENTS];
  int saved = errno;
  /* read(2) is a cancellation point, and malloc and free are none: a
   * pending cancel was acted on inside the allocator call. */
  int cancel;
  pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &cancel);
  ssize_t n = read(pt.fds[0], buf, (1 + pt.nopen) * 8);
  pthread_setcancelstate(cancel, NULL);
  errno = saved;
  if (n != (ssize_t)((1 + pt.nopen) * 8) || buf[0] != pt.nopen)
    return false;
  for (u32 k = 0; k < pt.nopen; k++)
    v[pt.slot[k]] = buf[1 + k];
  return true;
}

void hp_pmu_begin(u8 op) {
  if (op >= HP_NUM_OPS)
    return; /* a moving realloc's halves: the realloc began */
  pt.active = false;
  if (++pt.tick[op] < (u32)hp_flags.pmu_sample_every)
    return;
  pt.tick[op] = 0;
  if (pt.nopen && !fd_ours(0))
    pt.nopen = 0, pt.opened = false; /* the program closed them: forgotten */
  if (!pt.opened)
    open_group();
  if (pt.nopen && read_group(pt.start))
    pt.active = true;
}

void hp_pmu_end(u32 cls) {
  if (!pt.active)
    return;
  pt.active = false;
  u64 end[HP_NUM_PMU_EVENTS];
  if (cls >= HP_OPC_NUM_CLASSES || !read_group(end))
    return;
  pmu_row_t *r = &table[cls];
  __atomic_add_fetch(&r->samples, 1, __ATOMIC_RELAXED);
  for (u32 k = 0; k < pt.nopen; k++) {
    u32 e = pt.slot[k];
    __atomic_add_fetch(&r->sums[e], end[e] - pt.start[e], __ATOMIC_RELAXED);
  }
}

static void close_group(void) {
  int saved = errno;
  for (u32 k = 0; k < pt.nopen; k++)
    if (fd_ours(k))
      close(pt.fds[k]);
  errno = saved;
  hp_memset(&pt, 0, sizeof(pt));
}

void hp_pmu_thread_exit(void) {
  close_group();
  /* Marked tried: a later key destructor's malloc on this thread would
   * open a group no exit closes any more (5 descriptors a thread here:
   * 100 such threads left 500 open). */
  pt.opened = true;
}

/* The totals so far, into out. */
static void read_table(pmu_row_t out[HP_OPC_NUM_CLASSES]) {
  for (u32 c = 0; c < HP_OPC_NUM_CLASSES; c++) {
    out[c].samples = __atomic_load_n(&table[c].samples, __ATOMIC_RELAXED);
    for (u32 e = 0; e < HP_NUM_PMU_EVENTS; e++)
      out[c].sums[e] = __atomic_load_n(&table[c].sums[e], __ATOMIC_RELAXED);
  }
}

/* The parent's samples up to the fork are the parent's: the child's
 * first profile counts from here (it repeated them, as sections 2 and 3
 * did: heapprof_opclass.c, heapprof_syscalls.c). */
void hp_pmu_fork_child(void) {
  close_group();
  read_table(last);
}

static u64 delta(u64 now, u64 before) { return now > before ? now - before : 0; }

void hp_pmu_write_section(hp_buf_t *b, const struct hp_profile_info *info) {
  if (!hp_pmu_on)
    return;
  if (info->dump != made_for) {
    read_table(now);
    hp_memcpy(base, last, sizeof(base));
    hp_memcpy(last, now, sizeof(last));
    made_for = info->dump;
  }
  u64 nrows = 0;
  for (u32 c = 0; c < HP_OPC_NUM_CLASSES; c++)
    nrows += delta(now[c].samples, base[c].samples) != 0;
  u64 head[4] = {HP_NUM_PMU_EVENTS,
                 __atomic_load_n(&flags_word, __ATOMIC_RELAXED),
                 __atomic_load_n(&counted_mask, __ATOMIC_RELAXED), nrows};
  hp_buf_append(b, head, sizeof(head));
  for (u32 c = 0; c < HP_OPC_NUM_CLASSES; c++) {
    if (!delta(now[c].samples, base[c].samples))
      continue;
    u64 row[2 + HP_NUM_PMU_EVENTS] = {c, delta(now[c].samples, base[c].samples)};
    for (u32 e = 0; e < HP_NUM_PMU_EVENTS; e++)
      row[2 + e] = delta(now[c].sums[e], base[c].sums[e]);
    hp_buf_append(b, row, sizeof(row));
  }
}
