/*===- heapprof_report.c - error reports --------------------------------===
 *
 * Part of heapprof.  Reports go to stderr with raw write(2).  Only one
 * report prints at a time (report_lock), so threads' reports don't mix.
 *===----------------------------------------------------------------------===*/
#include "heapprof_internal.h"

#include <fcntl.h>
#include <unistd.h>

#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

static hp_spinlock_t report_lock;
static int report_cancel; /* the reporting thread's cancel state, under it */

/* Cancellation is off while a report prints: its writes and the
 * symbolizer's reads are cancellation points, and a thread cancelled there
 * would leave report_lock held, and every later report waiting. */
static void begin(void) {
  hp_spin_lock(&report_lock);
  pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &report_cancel);
}

HP_NORETURN static void die(void) {
  /* Nothing lost: the profile so far is written before the abort; unless
   * the call reported came from a signal handler that interrupted heapprof
   * on this thread (more locks held than report_lock): the dump would wait
   * for them. */
  if (hp_locks_held > 1)
    hp_printf("HeapProf: the profile is not written: a signal handler made "
              "this call while the thread was inside heapprof\n");
  else if (hp_signals_vfork_child())
    hp_printf("HeapProf: the profile is not written: this is a vfork "
              "child, which runs in its parent's memory\n");
  else if (hp_signals_unhandled_fork_child(NULL))
    hp_printf("HeapProf: the profile is not written: this process is a "
              "copy of its parent made without fork's handlers\n");
  else
    hp_rtl_dump_final("error");
  hp_spin_unlock(&report_lock);
  signal(SIGABRT, SIG_DFL);
  abort();
}

void hp_check_failed(const char *file, int line, const char *cond) {
  hp_printf("HeapProf: CHECK failed: %s:%d \"%s\"\n", file, line, cond);
  signal(SIGABRT, SIG_DFL);
  abort();
}

/* vm.overcommit_memory=2: the kernel counts every writable private
 * mapping, reserved or not, against CommitLimit (swap + a share of RAM). */
static bool strict_overcommit(void) {
  int fd = open("/proc/sys/vm/overcommit_memory", O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return false;
  char c = 0;
  bool strict = read(fd, &c, 1) == 1 && c == '2';
  close(fd);
  return strict;
}

/* The limits that count the reservations at init (HP_SHADOW_SIZE,
 * HP_NUM_REGIONS x HP_REGION_SIZE), address space, not memory: the
 * address-space limit, and the data-size limit (Linux counts private
 * writable mappings, reserved or not, against it) when it is below them.
 * A message says so, since the figures look absurd otherwise
 * (HP_RESERVED_BYTES: heapprof_rlimit.h). */
static const struct {
  int resource;
  rlim_t below; /* names it when its limit is below this */
  const char *limit, *space, *counts, *flag;
} reserving_limits[] = {
    {RLIMIT_AS, RLIM_INFINITY, "address-space limit (ulimit -v, RLIMIT_AS)",
     "", "", "v"},
    {RLIMIT_DATA, HP_RESERVED_BYTES,
     "data-size limit (ulimit -d, RLIMIT_DATA)", "writable ",
     ", which the limit counts", "d"},
};

/* The first limit of reserving_limits that counts the reservations: its
 * index, and its value in *cur; -1 when none does. */
static int reserving_limit(rlim_t *cur) {
  for (u32 k = 0; k < HP_ARRAY_SIZE(reserving_limits); k++) {
    struct rlimit rl;
    if (getrlimit(reserving_limits[k].resource, &rl) == 0 &&
        rl.rlim_cur < reserving_limits[k].below) {
      *cur = rl.rlim_cur;
      return (int)k;
    }
  }
  return -1;
}

/* A new image's runtime reserves HP_RESERVED_BYTES at start, and an exec
 * keeps the process's limits: below this one, it could only abort the
 * program it starts in (hp_report_mmap_failure).  heapprof run refuses to
 * start under the same (cmd_run.cpp). */
#define HP_START_LIMIT_MIN (20ull << 40)

bool hp_limits_refuse_start(void) {
  for (u32 k = 0; k < HP_ARRAY_SIZE(reserving_limits); k++) {
    struct rlimit rl;
    if (getrlimit(reserving_limits[k].resource, &rl) == 0 &&
        rl.rlim_cur < HP_START_LIMIT_MIN)
      return true;
  }
  return false;
}

void hp_report_exec_unprofiled(const char *path) {
  for (u32 k = 0; k < HP_ARRAY_SIZE(reserving_limits); k++) {
    struct rlimit rl;
    if (getrlimit(reserving_limits[k].resource, &rl) != 0 ||
        rl.rlim_cur >= HP_START_LIMIT_MIN)
      continue;
    hp_printf("HeapProf: WARNING: '%s' runs without heapprof: the %s is "
              "%llu bytes, and heapprof's runtime reserves about %llu TiB "
              "of %saddress space at start%s (run with ulimit -%s "
              "unlimited to profile it)\n",
              path ? path : "?", reserving_limits[k].limit,
              (unsigned long long)rl.rlim_cur,
              (unsigned long long)(HP_RESERVED_BYTES >> 40),
              reserving_limits[k].space, reserving_limits[k].counts,
              reserving_limits[k].flag);
    return;
  }
}

/* A limit the program set for itself has the reservations added to it
 * (heapprof_rlimit.c): reaching it is the program's own mappings, with
 * heapprof's memory besides the reservations, filling what the program
 * allowed itself, and blaming the reservations would be false.  cur is
 * that value as the program set it (getrlimit, interposed, gives it).
 * Only a checkpoint's baseline (16 TiB, HP_SHADOW_SIZE) is not among
 * what was added when heapprof_rlimit.c could not reserve it first. */
void hp_report_mapping_refused_why(char *buf, uptr size, bool baseline) {
  rlim_t cur;
  int k = reserving_limit(&cur);
  bool own = k >= 0 && hp_rlimit_program_set(reserving_limits[k].resource);
  if (own && baseline)
    /* heapprof_rlimit.c reserves the baseline before it adds the
     * reservations; refused then (the limit the process started with had
     * no room for it), the program's limit was raised without it. */
    hp_snprintf(buf, size,
                "the %s the program set itself is %llu bytes, and heapprof "
                "added its reservations to it but not the checkpoints' "
                "baseline (%llu TiB of address space), which could not be "
                "reserved when the limit was set",
                reserving_limits[k].limit, (unsigned long long)cur,
                (unsigned long long)(HP_SHADOW_SIZE >> 40));
  else if (own)
    hp_snprintf(buf, size,
                "the process reached the %s the program set itself, %llu "
                "bytes (heapprof adds its reservations to it; its other "
                "memory counts)",
                reserving_limits[k].limit, (unsigned long long)cur);
  else if (k >= 0)
    hp_snprintf(buf, size,
                "the %s is %llu bytes, below the address space the process "
                "has mapped, heapprof's reservations among it",
                reserving_limits[k].limit, (unsigned long long)cur);
  else
    hp_snprintf(buf, size,
                "the process may have as many as vm.max_map_count allows");
}

void hp_report_cannot_map_once(bool *said, const char *what,
                               const char *then) {
  if (__atomic_exchange_n(said, true, __ATOMIC_RELAXED))
    return;
  char why[320];
  hp_report_mapping_refused_why(why, sizeof(why), false);
  hp_printf("HeapProf: WARNING: cannot map %s (%s): %s\n", what, why, then);
}

void hp_report_mmap_failure(uptr size, const char *what) {
  rlim_t cur;
  int k = reserving_limit(&cur);
  if (k >= 0 && hp_rlimit_program_set(reserving_limits[k].resource)) {
    /* The program's own budget reached: ulimit cannot help. */
    char why[320];
    hp_report_mapping_refused_why(why, sizeof(why), false);
    hp_printf("HeapProf: ERROR: out-of-memory: cannot map 0x%zx bytes for "
              "%s: %s\n",
              (size_t)size, what, why);
  } else if (k >= 0) {
    hp_printf("HeapProf: ERROR: out-of-memory: cannot map 0x%zx bytes for "
              "%s: the %s is %llu bytes, and heapprof reserves about %llu "
              "TiB of %saddress space for its shadow memory and allocator "
              "regions (address space, not memory)%s; run with ulimit -%s "
              "unlimited\n",
              (size_t)size, what, reserving_limits[k].limit,
              (unsigned long long)cur,
              (unsigned long long)(HP_RESERVED_BYTES >> 40),
              reserving_limits[k].space, reserving_limits[k].counts,
              reserving_limits[k].flag);
  } else if (strict_overcommit()) {
    hp_printf("HeapProf: ERROR: out-of-memory: cannot map 0x%zx bytes for "
              "%s: the kernel's overcommit policy is strict "
              "(vm.overcommit_memory=2), which counts heapprof's reserved "
              "address space (about %llu TiB for its shadow memory and "
              "allocator regions, not memory) as memory; heapprof needs "
              "vm.overcommit_memory=0 or 1\n",
              (size_t)size, what,
              (unsigned long long)(HP_RESERVED_BYTES >> 40));
  } else {
    hp_printf("HeapProf: ERROR: out-of-memory: cannot map 0x%zx bytes for %s\n",
              (size_t)size, what);
  }
  signal(SIGABRT, SIG_DFL);
  abort();
}

/* The options were refused at start (below): the program never ran, and
 * there is no profile to write.  hp_exit_group, not the _exit heapprof
 * interposes, which writes the exit profile once the runtime is up: the
 * checks made late in its start (dump_signal, allocator=PATH, sampled
 * mode's glibc) left a profile of 0 allocations in the profile directory,
 * and the other option errors none. */
void hp_report_bad_option(const char *message) {
  hp_printf("HeapProf: ERROR: %s\n", message);
  hp_exit_group(1);
}

void hp_report_foreign_missing(const char *allocator, const char *why) {
  hp_printf("HeapProf: ERROR: allocator=%s: cannot profile this allocator: "
            "%s\n",
            allocator, why);
  hp_exit_group(1);
}

void hp_report_allocator_options_ignored(const char *where,
                                         const char *names) {
  hp_printf("HeapProf: WARNING: %s: %s %s no effect: %s of heapprof's own "
            "allocator, which does not serve the program here (docs/flags.md)"
            "\n",
            where, names, hp_strchr(names, ',') ? "have" : "has",
            hp_strchr(names, ',') ? "options" : "an option");
}

/* A report's stacks are taken and symbolized on a stack of the runtime's
 * own (heapprof_ownstack.h): 2 KiB of PCs and the symbolizer's buffers
 * overflowed a thread on a small stack, which died of SIGSEGV inside
 * heapprof with half a report.  Under report_lock. */
static hp_own_stack_t report_stack;
typedef struct stack_job {
  int fd;
  const uptr *pcs; /* NULL: walk from fp */
  u32 n;
  uptr fp;
} stack_job_t;

static void print_stack_job(void *arg) {
  stack_job_t *j = arg;
  uptr walked[HP_MAX_STACK_DEPTH];
  if (!j->pcs) {
    hp_thread_t *t = hp_thread_acquire();
    uptr lo = t->stack_lo, top = t->stack_top;
    hp_thread_release(t);
    j->n = hp_unwind(walked, HP_MAX_STACK_DEPTH, j->fp, lo, top, false);
    j->pcs = walked;
  }
  hp_buf_t b = {0};
  hp_symbolize_stack_text(&b, j->pcs, j->n);
  hp_write_all(j->fd, b.data, b.len);
  hp_buf_free(&b);
}

void hp_print_stack(int fd, const uptr *pcs, u32 n) {
  stack_job_t j = {fd, pcs, n, 0};
  hp_own_stack_run(&report_stack, print_stack_job, &j);
}

static void print_current_stack(uptr fp) {
  stack_job_t j = {2, NULL, 0, fp};
  hp_own_stack_run(&report_stack, print_stack_job, &j);
}

static uptr caller_pc(uptr fp) {
  return fp ? ((const uptr *)fp)[1] - 1 : 0;
}

static const char halt_hint[] =
    "HEAPPROF_OPTIONS=halt_on_error=0 reports and continues, leaving the "
    "pointer alone";

static void finish(bool fatal, const char *hint) {
  hp_printf("HINT: %s\n", hint);
  if (fatal) {
    hp_printf("HeapProf: ABORTING\n");
    die();
  }
  int cancel = report_cancel;
  hp_spin_unlock(&report_lock);
  pthread_setcancelstate(cancel, NULL);
}

void hp_report_out_of_memory(uptr size, uptr fp, const char *why) {
  begin();
  hp_printf("HeapProf: ERROR: %s: cannot allocate 0x%zx (%zu) bytes (pc %p)\n",
            why, (size_t)size, (size_t)size, (void *)caller_pc(fp));
  print_current_stack(fp);
  hp_printf("HINT: HEAPPROF_OPTIONS=allocator_may_return_null=1 returns NULL "
            "with errno=ENOMEM instead\nHeapProf: ABORTING\n");
  die();
}

void hp_report_overflow(uptr n, uptr size, uptr fp, const char *why) {
  begin();
  hp_printf("HeapProf: ERROR: %s: %zu objects of %zu bytes: the total does "
            "not fit in size_t (pc %p)\n",
            why, (size_t)n, (size_t)size, (void *)caller_pc(fp));
  print_current_stack(fp);
  hp_printf("HINT: HEAPPROF_OPTIONS=allocator_may_return_null=1 returns NULL "
            "with errno=ENOMEM instead\nHeapProf: ABORTING\n");
  die();
}

void hp_report_new_failed(uptr size, uptr fp) {
  begin();
  hp_printf("HeapProf: ERROR: out-of-memory: operator new cannot allocate "
            "0x%zx (%zu) bytes and no new_handler is installed (pc %p)\n",
            (size_t)size, (size_t)size, (void *)caller_pc(fp));
  print_current_stack(fp);
  hp_printf("HINT: HEAPPROF_OPTIONS=allocator_may_return_null=1 throws "
            "std::bad_alloc instead (the nothrow forms return NULL)\n"
            "HeapProf: ABORTING\n");
  die();
}

void hp_report_invalid_free(uptr p, uptr fp, const char *op, uptr chunk_beg) {
  begin();
  if (chunk_beg && p < chunk_beg)
    hp_printf("HeapProf: ERROR: invalid-free on address %p (pc %p, %s): "
              "%zu bytes before the chunk at %p, in its header or alignment "
              "padding\n",
              (void *)p, (void *)caller_pc(fp), op, (size_t)(chunk_beg - p),
              (void *)chunk_beg);
  else if (chunk_beg)
    hp_printf("HeapProf: ERROR: invalid-free on address %p (pc %p, %s): "
              "interior pointer %zu bytes inside the chunk at %p\n",
              (void *)p, (void *)caller_pc(fp), op, (size_t)(p - chunk_beg),
              (void *)chunk_beg);
  else
    hp_printf("HeapProf: ERROR: invalid-free on address %p (pc %p, %s): "
              "not allocated by heapprof\n",
              (void *)p, (void *)caller_pc(fp), op);
  print_current_stack(fp);
  finish(hp_flags.halt_on_error, halt_hint);
}

void hp_report_double_free(uptr p, uptr fp, const char *op,
                           const hp_chunk_header_t *h, uptr chunk_beg) {
  begin();
  if (chunk_beg && p != chunk_beg)
    hp_printf("HeapProf: ERROR: double-free on address %p (pc %p, %s): "
              "%zu bytes %s the chunk at %p, which is already freed\n",
              (void *)p, (void *)caller_pc(fp), op,
              (size_t)(p < chunk_beg ? chunk_beg - p : p - chunk_beg),
              p < chunk_beg ? "before" : "inside", (void *)chunk_beg);
  else
    hp_printf("HeapProf: ERROR: double-free on address %p (pc %p, %s)\n",
              (void *)p, (void *)caller_pc(fp), op);
  print_current_stack(fp);
  if (h) {
    u32 n;
    uptr pcs[HP_MAX_STACK_DEPTH];
    if (hp_stackdepot_get((u32)h->alloc_context_id, pcs, &n)) {
      hp_printf("The chunk (%u bytes) was allocated at:\n", h->requested_size);
      hp_print_stack(2, pcs, n);
    }
  }
  finish(hp_flags.halt_on_error, halt_hint);
}

void hp_report_corrupt_header(uptr p, uptr fp, const char *op, u8 state,
                              uptr below_beg,
                              const hp_chunk_header_t *below) {
  begin();
  hp_printf("HeapProf: ERROR: corrupt-chunk-header on address %p (pc %p, %s): "
            "the 32 bytes before it, the chunk's header, were overwritten "
            "(state byte 0x%02x, neither allocated nor freed); the chunk is "
            "left alone\n",
            (void *)p, (void *)caller_pc(fp), op, state);
  print_current_stack(fp);
  if (below) {
    size_t gap = p - HP_CHUNK_HEADER_SIZE - (below_beg + below->requested_size);
    char where[64] = "at the header";
    if (gap)
      hp_snprintf(where, sizeof(where), "%zu bytes before the header", gap);
    hp_printf("The chunk below it, %u bytes at %p, ends %s: a write past its "
              "end is the likely cause. It was allocated at:\n",
              below->requested_size, (void *)below_beg, where);
    u32 n;
    uptr pcs[HP_MAX_STACK_DEPTH];
    if (hp_stackdepot_get((u32)below->alloc_context_id, pcs, &n))
      hp_print_stack(2, pcs, n);
  }
  finish(hp_flags.halt_on_error, halt_hint);
}

void hp_report_dealloc_mismatch(uptr p, uptr fp, const char *alloc_op,
                                const char *free_op) {
  begin();
  hp_printf("HeapProf: ERROR: alloc-dealloc-mismatch on address %p (pc %p): "
            "allocated by %s, released by %s\n",
            (void *)p, (void *)caller_pc(fp), alloc_op, free_op);
  print_current_stack(fp);
  finish(hp_flags.halt_on_error,
         "HEAPPROF_OPTIONS=check_dealloc_mismatch=0 disables this check; "
         "halt_on_error=0 reports and continues");
}
