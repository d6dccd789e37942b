/*===- heapprof_rtl.c - init, dumps, exit -------------------------------===
 *
 * Part of heapprof.
 *
 * Init runs once, from the compiler's module constructor or the first
 * allocation, whichever is first.  A profile is written at exit (by the
 * exit handler registered first, so after every other exit handler and
 * every object's destructors: register_exit_profile), at each
 * __heapprof_dump() and before an error abort.
 *
 * Writing a profile: drain the HIB table and spill log into a dump map,
 * fold in the live chunks (each counted once across dumps), read the
 * module map, symbolize all PCs in one batch, format, then write to a
 * temporary name and rename, so a profile file is complete or absent.
 *===----------------------------------------------------------------------===*/
#include "heapprof_internal.h"
#include "heapprof_coroutine.h"
#include "heapprof_leaks.h"
#include "heapprof_roots.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

hp_rtl_t hp_rtl;

/* Serialises profile writing; never taken on the allocation path. */
static hp_spinlock_t dump_lock;

HP_INTERFACE void __heapprof_version_mismatch_check_v1(void) {
  hp_shadow_mark_in_use();
}

static void init_once(void);

/* The runtime's own calls to __heapprof_init under way on this thread. */
static HP_TLS u32 own_init_calls;

HP_INTERFACE void __heapprof_init(void) {
  if (!own_init_calls)
    hp_shadow_mark_in_use(); /* an instrumented module's constructor */
  init_once();
}

void hp_rtl_init(void) {
  if (HP_LIKELY(__atomic_load_n(&hp_rtl.inited, __ATOMIC_ACQUIRE)))
    return;
  /* Through __heapprof_init, not init_once: in libheapprof_rt.so the call
   * binds to the executable's definition when the program has a runtime of
   * its own (built with -fheapprof), and then this copy never initialises
   * (heapprof_preload.c). */
  own_init_calls++;
  __heapprof_init();
  own_init_calls--;
}

/* The working directory the image started in: a relative profile
 * directory or log_path means one there, even if the program moves
 * (chdir) before it writes a profile.  Empty when it could not be read (a
 * deleted directory, a path over 4095 bytes): then relative paths stay
 * relative to the directory of the moment, as before. */
static char start_dir[4096];

/* The root directory the image started under: a program that chroots
 * later has its profile's path taken in the new root, which the profile's
 * reader would not look in (root_moved).  Its identity only: holding a
 * descriptor of the old root would let the program out of its jail. */
static dev_t start_root_dev;
static ino_t start_root_ino;

/* $TMPDIR as the image started with it (an absolute path; empty when
 * unset, relative or too long), where a profile goes that cannot be
 * written where asked.  The program's environment of the moment comes
 * first; this one when it has no TMPDIR: a server's workers (nginx's)
 * get an environment of the server's making, without it, and their
 * profiles went to /tmp although the caller had named another directory
 * (test/heapprof/Run/privilege-drop-own-environ.c).  Written at init only
 * (secure mode: empty, as hp_getenv gives nothing). */
static char start_tmpdir[4096];

static void start_dir_note(void) {
  int saved = errno;
  if (!getcwd(start_dir, sizeof(start_dir)) || start_dir[0] != '/')
    start_dir[0] = 0;
  const char *tmp = hp_getenv("TMPDIR");
  if (!tmp || tmp[0] != '/' ||
      hp_strlcpy(start_tmpdir, tmp, sizeof(start_tmpdir)) >=
          sizeof(start_tmpdir))
    start_tmpdir[0] = 0;
  struct stat st;
  if (stat("/", &st) == 0) {
    start_root_dev = st.st_dev;
    start_root_ino = st.st_ino;
  }
  errno = saved;
}

/* stderr as the image started with it, when it is a terminal: its path
 * and identity.  A program that closes its stderr before heapprof's last
 * dump (every gnulib program does at exit: close_stdout, so all of
 * coreutils under heapprof run) had every warning of that dump lost,
 * "wrote it to '/tmp/...' instead" included; the dump opens the terminal
 * again (stderr_reopen).  Not a regular file: a file opened again writes
 * at its end, and the next write through the program's shared offset (the
 * shell's next command, 2>log) overwrote that line and left a piece of
 * it.  Not a pipe or socket, which cannot be opened again once closed.
 * Kept only as a name: a descriptor of our own would keep a pipe open
 * after the program closed it, and a reader waiting for its end of file
 * would wait for ever.  Not in secure mode.  Written at init only. */
static char start_stderr_path[4096];
static struct stat start_stderr_st;

static void start_stderr_note(void) {
  int saved = errno;
  struct stat st;
  ssize_t n;
  start_stderr_path[0] = 0;
  if (!hp_secure_mode() && fstat(2, &st) == 0 && S_ISCHR(st.st_mode) &&
      isatty(2) &&
      (n = readlink("/proc/self/fd/2", start_stderr_path,
                    sizeof(start_stderr_path) - 1)) > 0 &&
      start_stderr_path[0] == '/') {
    start_stderr_path[n] = 0;
    start_stderr_st = st;
  } else {
    start_stderr_path[0] = 0;
  }
  errno = saved;
}

/* Opens stderr's terminal again on descriptor 2 when the program has
 * closed it, if it is still the same one (device number, inode, owner);
 * true if it did: stderr_drop closes it after the dump, so the program
 * never sees it.  O_NONBLOCK for the open only: a FIFO put at the name
 * meanwhile must not hang the dump. */
static bool stderr_reopen(void) {
  if (!start_stderr_path[0] || fcntl(2, F_GETFD) >= 0 || errno != EBADF)
    return false;
  int saved = errno;
  int fd = open(start_stderr_path, O_WRONLY | O_NOCTTY | O_NOFOLLOW |
                                       O_NONBLOCK | O_CLOEXEC);
  struct stat st;
  const struct stat *o = &start_stderr_st;
  bool ok = fd >= 0 && fstat(fd, &st) == 0 && S_ISCHR(st.st_mode) &&
            st.st_rdev == o->st_rdev && st.st_dev == o->st_dev &&
            st.st_ino == o->st_ino && st.st_uid == o->st_uid &&
            fcntl(fd, F_SETFL, 0) == 0 &&
            (fd == 2 || dup3(fd, 2, O_CLOEXEC) == 2);
  if (fd >= 0 && (fd != 2 || !ok))
    close(fd);
  errno = saved;
  return ok;
}

static void stderr_drop(void) {
  int saved = errno;
  struct stat st;
  if (fstat(2, &st) == 0 && S_ISCHR(st.st_mode) &&
      st.st_rdev == start_stderr_st.st_rdev &&
      st.st_ino == start_stderr_st.st_ino)
    close(2); /* not one the program put there meanwhile */
  errno = saved;
}

/* Says once that the program changed its root directory since it
 * started, so the profile's directory dir is the one inside the new root. */
static void root_moved(const char *dir) {
  static bool said;
  struct stat st;
  if (said || !start_root_ino || stat("/", &st) != 0 ||
      (st.st_dev == start_root_dev && st.st_ino == start_root_ino))
    return;
  said = true;
  hp_printf("HeapProf: WARNING: the program changed its root directory "
            "(chroot) since it started: the profile goes to '%s' inside "
            "its new root\n",
            dir);
}

/* This thread runs init_once: init entered again from inside (the
 * program's __heapprof_default_options() calling malloc) would wait for
 * the lock it holds, for ever. */
static HP_TLS bool init_here;

static void init_entered_again(void) {
  if (hp_flags_in_default_options())
    hp_report_bad_option(
        "__heapprof_default_options() allocated memory or called heapprof: "
        "it runs while heapprof starts, before its allocator exists; have "
        "it return a string constant");
  hp_check_failed(__FILE__, __LINE__, "heapprof init calls itself");
}

static void init_once(void) {
  if (HP_LIKELY(__atomic_load_n(&hp_rtl.inited, __ATOMIC_ACQUIRE)))
    return;
  if (HP_UNLIKELY(init_here))
    init_entered_again();
  static hp_spinlock_t init_lock;
  hp_spin_lock(&init_lock);
  if (hp_rtl.inited) {
    hp_spin_unlock(&init_lock);
    return;
  }
  init_here = true;
  /* What this thread allocates until init is done is the runtime's own
   * (heapprof_ownalloc.h): init's libc calls (getcwd, stat, open, ...) reach
   * a library preloaded before the runtime that wraps them, and such a
   * wrapper may allocate -- fakeroot's stat looks its next definitions up
   * with dlsym, whose failed lookups malloc their dlerror message.  That
   * malloc entered init again and failed its check ("heapprof init calls
   * itself"): every program under fakeroot died of SIGABRT
   * (test/heapprof/Run/preload-before-wraps-libc.c).  The blocks are
   * glibc's, freed to glibc whichever allocator serves the program. */
  hp_own_begin();
  hp_flags_init();
  start_dir_note();
  start_stderr_note();
  hp_exe_note_run_name();
  hp_exe_note_command();
  hp_exe_note_path();
  hp_symbolize_note_path();
  hp_foreign_init();
  hp_clock_init();
  hp_shadow_init();
  hp_stackdepot_init();
  hp_primary_init();
  hp_hib_table_init(&hp_hib_table, (u32)hp_flags.hib_table_sets,
                    (u32)hp_flags.hib_table_ways);
  hp_thread_init();
  hp_pmu_init();
  hp_faults_init();
  /* The reservations of heapprof's allocator: its system calls, unless
   * another allocator serves the program (then they are heapprof's own,
   * not that allocator's). */
  if (hp_foreign_state == HP_FOREIGN_OFF)
    hp_syscalls_charge_outside();
  else
    hp_syscalls_drop();
  hp_peak_init();
  __atomic_store_n(&hp_rtl.inited, true, __ATOMIC_RELEASE);
  hp_own_end(); /* and the plain path decided (hp_allocator_init_plain) */
  init_here = false;
  hp_spin_unlock(&init_lock);
  /* dlsym may allocate: only now that malloc works. */
  hp_interceptors_resolve();
  hp_exec_init();
  /* Before hp_signals_init: a fork runs the prepare handlers last
   * registered first, and must take the dump lock before these sets'
   * locks, in the order the leak check at exit takes them (with the sets'
   * first, a thread forking while main exited held the coroutine set's
   * lock waiting for the dump's, and the check gave up on the set after
   * its bounded spin: a switched-out coroutine's objects read as leaks). */
  hp_coroutine_init();
  hp_roots_init();
  hp_signals_init();
  if (hp_flags.verbosity)
    hp_printf("HeapProf: initialized: shadow at %p, %lld-way HIB table of "
              "%lld sets\n",
              (void *)__heapprof_shadow_memory_dynamic_address,
              (long long)hp_flags.hib_table_ways,
              (long long)hp_flags.hib_table_sets);
}

/* ------------------------------------------------------------ dump map */

/* The dump's contexts, one 16-byte reference each, dense in `refs` (in the
 * order they came, until map_sorted), found through `index`, an
 * open-addressing table of positions (1 + i; 0 = empty) on stack_id.  A
 * reference names the context's record where it is: in a spill log the
 * dump took whole (hp_hib_table_drain_taking_log), or in `own`, where the
 * dump copies the records it must (the table's, whose ways keep them and
 * are filled again meanwhile, and the live chunks' of contexts it has no
 * record of).  A context met again merges into its record there, so a
 * record is never copied out of a log: the map holds 16 bytes a context
 * and the table's records, not a 392-byte copy of every context (clang's
 * 224,518 contexts: 84 MiB, and as much again to sort them).  Sized at
 * first for every context the depot holds (address space, touched as
 * used), so that the usual dump never grows. */
typedef struct dump_ref {
  u64 stack_id;
  u32 src; /* 0: own; k: logs[k - 1] */
  u32 i;   /* the record's index there */
} dump_ref_t;
_Static_assert(sizeof(dump_ref_t) == 16, "a reference is 16 bytes");

/* A dump drains the table once, the exit dump twice. */
#define DUMP_LOGS 2

typedef struct dump_map {
  dump_ref_t *refs;
  u64 refs_cap;
  u32 *index;
  u32 index_cap; /* a power of two, at least 2 * refs_cap */
  u32 n;
  hp_hib_t *own;
  u64 own_cap, own_n;
  hp_hib_log_t logs[DUMP_LOGS];
  u32 nlogs;
  /* A mapping it needed was refused (the process at vm.max_map_count, or
   * out of memory): records are missing, and the dump writes nothing
   * rather than a profile that lacks them, nor aborts the program (an
   * exit that ended in SIGABRT). */
  bool failed;
} dump_map_t;

static hp_hib_t *map_rec(dump_map_t *m, const dump_ref_t *r) {
  return r->src ? &m->logs[r->src - 1].recs[r->i] : &m->own[r->i];
}

static u32 map_hash(u64 stack_id, u32 cap) {
  return (u32)((stack_id * 0x9E3779B97F4A7C15ull) >> 32) & (cap - 1);
}

/* The index's slot for stack_id: its reference's, or the empty one where
 * it would go. */
static u32 map_find(const dump_map_t *m, u64 stack_id) {
  u32 i = map_hash(stack_id, m->index_cap);
  while (m->index[i] && m->refs[m->index[i] - 1].stack_id != stack_id)
    i = (i + 1) & (m->index_cap - 1);
  return i;
}

static void map_index_build(dump_map_t *m, u32 index_cap) {
  u32 *index = hp_mmap((uptr)index_cap * sizeof(u32));
  if (!index) {
    m->failed = true;
    return;
  }
  if (m->index)
    hp_munmap(m->index, (uptr)m->index_cap * sizeof(u32));
  m->index_cap = index_cap;
  m->index = index;
  for (u32 k = 0; k < m->n; k++)
    m->index[map_find(m, m->refs[k].stack_id)] = k + 1;
}

/* Address space for want elements of size elem, else a small start that
 * grows (a machine that will not lend that much: strict overcommit). */
static bool map_array(void **data, u64 *cap, u64 want, size_t elem) {
  *data = hp_mmap((uptr)want * elem);
  if (!*data) {
    want = 1024;
    *data = hp_mmap((uptr)want * elem);
  }
  *cap = *data ? want : 0;
  return *data != NULL;
}

static void map_init(dump_map_t *m) {
  hp_memset(m, 0, sizeof(*m));
  u64 want = (u64)hp_stackdepot_count() + 64;
  if (!map_array((void **)&m->refs, &m->refs_cap, want, sizeof(dump_ref_t)) ||
      !map_array((void **)&m->own, &m->own_cap, want, sizeof(hp_hib_t))) {
    m->failed = true;
    return;
  }
  u32 icap = 1024;
  while (icap < 2 * m->refs_cap)
    icap *= 2;
  map_index_build(m, icap);
}

/* The index's slot for a context not in the map yet, with room made for
 * its reference; or the slot of its reference (*found).  UINT32_MAX when
 * a mapping was refused. */
static u32 map_slot(dump_map_t *m, u64 stack_id, bool *found) {
  if (m->failed)
    return UINT32_MAX;
  if (m->n == m->refs_cap && /* contexts made while the dump runs */
      !hp_array_try_grow((void **)&m->refs, &m->refs_cap, m->n,
                         sizeof(dump_ref_t), 0)) {
    m->failed = true;
    return UINT32_MAX;
  }
  if (2 * (u64)(m->n + 1) > m->index_cap)
    map_index_build(m, m->index_cap * 2);
  if (m->failed)
    return UINT32_MAX;
  u32 i = map_find(m, stack_id);
  *found = m->index[i] != 0;
  return i;
}

static void map_add(dump_map_t *m, u32 slot, u64 stack_id, u32 src, u32 i) {
  m->refs[m->n] = (dump_ref_t){stack_id, src, i};
  m->index[slot] = ++m->n;
}

/* A record that is not the dump's to keep: merged into the context's, or
 * copied into own. */
static void map_put(dump_map_t *m, const hp_hib_t *h) {
  bool found;
  u32 slot = map_slot(m, h->stack_id, &found);
  if (slot == UINT32_MAX)
    return;
  if (found) {
    hp_hib_merge(map_rec(m, &m->refs[m->index[slot] - 1]), h);
    return;
  }
  if (m->own_n == m->own_cap &&
      !hp_array_try_grow((void **)&m->own, &m->own_cap, m->own_n,
                         sizeof(hp_hib_t), 0)) {
    m->failed = true;
    return;
  }
  hp_memcpy(&m->own[m->own_n], h, sizeof(*h));
  map_add(m, slot, h->stack_id, 0, (u32)m->own_n++);
}

/* A spill log taken whole: its records stay where they are, each the
 * record of its context or merged into it, in the log's order (as
 * map_put would take them one by one: the same merges, in the same
 * order). */
static void map_take_log(dump_map_t *m, hp_hib_log_t *log) {
  if (!log->len) {
    hp_hib_log_free(&hp_hib_table, log);
    return;
  }
  if (m->nlogs == DUMP_LOGS) { /* never: copied instead */
    for (u64 k = 0; k < log->len; k++)
      map_put(m, &log->recs[k]);
    hp_hib_log_free(&hp_hib_table, log);
    return;
  }
  m->logs[m->nlogs++] = *log;
  hp_memset(log, 0, sizeof(*log));
  hp_hib_log_t *l = &m->logs[m->nlogs - 1];
  for (u64 k = 0; k < l->len; k++) {
    const hp_hib_t *h = &l->recs[k];
    bool found;
    u32 slot = map_slot(m, h->stack_id, &found);
    if (slot == UINT32_MAX)
      return;
    if (found)
      hp_hib_merge(map_rec(m, &m->refs[m->index[slot] - 1]), h);
    else
      map_add(m, slot, h->stack_id, m->nlogs, (u32)k);
  }
}

static void map_free(dump_map_t *m) {
  if (m->index)
    hp_munmap(m->index, (uptr)m->index_cap * sizeof(u32));
  if (m->refs)
    hp_munmap(m->refs, (uptr)m->refs_cap * sizeof(dump_ref_t));
  if (m->own)
    hp_munmap(m->own, (uptr)m->own_cap * sizeof(hp_hib_t));
  for (u32 k = 0; k < m->nlogs; k++)
    hp_hib_log_free(&hp_hib_table, &m->logs[k]);
  hp_memset(m, 0, sizeof(*m));
}

static void put_cb(const hp_hib_t *h, void *arg) { map_put(arg, h); }

/* Drains the table into the map: its records copied, its spill log taken
 * whole. */
static void map_drain(dump_map_t *m) {
  hp_hib_log_t log;
  hp_hib_table_drain_taking_log(&hp_hib_table, put_cb, m, &log);
  map_take_log(m, &log);
}

/* A context's objects and bytes at the peak go into its record in this
 * dump, if it has one.  One without (all its chunks were freed before an
 * earlier checkpoint, which recorded them with the same peak) gets none:
 * the readers take its values from that earlier dump (docs/formats.md). */
static void peak_cb(u64 stack_id, u64 objects, u64 bytes, void *arg) {
  dump_map_t *m = arg;
  if (m->failed)
    return; /* not written: no index to find records by */
  u32 i = map_find(m, stack_id);
  if (m->index[i]) {
    hp_hib_t *h = map_rec(m, &m->refs[m->index[i] - 1]);
    h->ext.peak_objects = objects;
    h->ext.peak_bytes = bytes;
  }
}

typedef struct fold_ctx {
  dump_map_t *map;
  hp_size_bins_t *bins;
  u32 now_ms, cpu;
  u64 live; /* chunks folded: the profile's live objects */
} fold_ctx_t;

static void fold_cb(hp_chunk_header_t *h, uptr user_beg, uptr size, void *arg) {
  fold_ctx_t *f = arg;
  hp_chunk_event_t e;
  /* Before the fold moves the chunk's baselines (another allocator's:
   * measured before every fold, handed over after this one). */
  bool after = hp_util_after_fold();
  if (!after && !hp_util_live_chunk(h->alloc_context_id, user_beg, size, &e))
    f->map->failed = true;
  if (!hp_fold_live_chunk(h, user_beg, size, f->now_ms, f->cpu, &e))
    return;
  f->live++;
  if (after && !hp_util_live_chunk(h->alloc_context_id, user_beg, size, &e))
    f->map->failed = true;
  hp_hib_t hib;
  hp_hib_from_event(&hib, &e);
  if (HP_UNLIKELY(hp_sample_bytes))
    hp_sample_weigh(&hib, e.size, h->flags); /* a sampled object */
  map_put(f->map, &hib);
  hp_size_bins_add_event(f->bins, &e);
}

/* The size bins of the dump being written; under dump_lock (too big for
 * the stack of a signal-time dump). */
static hp_size_bins_t dump_bins;

static void refs_sift_down(dump_ref_t *a, u32 root, u32 n) {
  for (;;) {
    u32 child = 2 * root + 1;
    if (child >= n)
      return;
    if (child + 1 < n && a[child + 1].stack_id > a[child].stack_id)
      child++;
    if (a[root].stack_id >= a[child].stack_id)
      return;
    dump_ref_t t = a[root];
    a[root] = a[child];
    a[child] = t;
    root = child;
  }
}

/* The map's records in stack id order, as an array of n pointers made in
 * place of the references (the index is dropped: no lookups after this).
 * Heap sort: no recursion, no allocation; the records do not move. */
static const hp_hib_t *const *map_sorted(dump_map_t *m, u32 *n_out) {
  u32 n = m->n;
  *n_out = n;
  hp_munmap(m->index, (uptr)m->index_cap * sizeof(u32));
  m->index = NULL;
  dump_ref_t *a = m->refs;
  for (u32 start = n / 2; start-- > 0;)
    refs_sift_down(a, start, n);
  for (u32 end = n; end-- > 1;) {
    dump_ref_t t = a[0];
    a[0] = a[end];
    a[end] = t;
    refs_sift_down(a, 0, end);
  }
  /* Pointer k goes over bytes 8k..8k+7, in reference k/2, read already
   * (k/2 <= k); byte copies, so that no load of a reference can be
   * reordered after the store of a pointer over it. */
  _Static_assert(sizeof(hp_hib_t *) * 2 == sizeof(dump_ref_t),
                 "two pointers fill one reference");
  char *out = (char *)m->refs;
  for (u32 k = 0; k < n; k++) {
    dump_ref_t r;
    hp_memcpy(&r, &a[k], sizeof(r));
    const hp_hib_t *h = map_rec(m, &r);
    hp_memcpy(out + (uptr)k * sizeof(h), &h, sizeof(h));
  }
  return (const hp_hib_t *const *)(void *)m->refs;
}

/* ------------------------------------------------------------- output */

/* mkdir -p for the profile directory.  The directories it creates are
 * private (0700, whatever the umask: one that took the owner's bits away
 * would leave a directory nobody but root can write the profile into): a
 * profile holds the memory map and the ASLR bases.  On a failure other
 * than EEXIST, *why says which directory could not be made and why: the
 * reason to give when the profile then cannot be written. */
static void make_dirs(const char *dir, char *why, size_t why_size) {
  char path[4096];
  size_t len = hp_strlcpy(path, dir, sizeof(path));
  if (len >= sizeof(path))
    return;
  for (size_t i = 1; i <= len; i++) {
    if (path[i] == '/' || path[i] == 0) {
      char c = path[i];
      path[i] = 0;
      if (mkdir(path, 0700) == 0)
        fchmodat(AT_FDCWD, path, 0700, AT_SYMLINK_NOFOLLOW);
      else if (errno != EEXIST && !why[0])
        hp_snprintf(why, why_size, "cannot create directory '%s': %s", path,
                    hp_file_errno_text(errno));
      path[i] = c;
    }
  }
}

/* Where one profile file goes: the directory that is checked and written
 * in, the file's name inside it, and the whole path for messages. */
typedef struct profile_dest {
  char dir[4096];
  char name[512];
  char path[4608];
  bool too_long; /* dir or name did not fit: cut, it would be another */
} profile_dest_t;

static void profile_path(profile_dest_t *d, u32 seq, const char *ext) {
  u32 pid = (u32)getpid();
  char seqs[16] = "";
  if (seq)
    hp_snprintf(seqs, sizeof(seqs), ".%u", seq);
  const char *lp = hp_flags.log_path;
  d->too_long = false;
  if (lp[0]) {
    /* log_path=PREFIX: the directory of the prefix. */
    const char *slash = NULL;
    for (const char *p = lp; *p; p++)
      if (*p == '/')
        slash = p;
    const char *base = slash ? slash + 1 : lp;
    int n = 0;
    if (!slash)
      hp_strlcpy(d->dir, ".", sizeof(d->dir));
    else if (slash == lp)
      hp_strlcpy(d->dir, "/", sizeof(d->dir));
    else
      n = hp_snprintf(d->dir, sizeof(d->dir), "%.*s", (int)(slash - lp), lp);
    int m = hp_snprintf(d->name, sizeof(d->name), "%s.%u%s.%s", base, pid,
                        seqs, ext);
    hp_snprintf(d->path, sizeof(d->path), "%s.%u%s.%s", lp, pid, seqs, ext);
    d->too_long = n >= (int)sizeof(d->dir) || m >= (int)sizeof(d->name);
    return;
  }
  const char *dir = hp_flags.profile_dir[0] ? hp_flags.profile_dir : ".";
  size_t n = hp_strlcpy(d->dir, dir, sizeof(d->dir));
  int m = hp_snprintf(d->name, sizeof(d->name), "heapprof.%s.%u%s.%s",
                      hp_exe_name(), pid, seqs, ext);
  hp_snprintf(d->path, sizeof(d->path), "%s/%s", dir, d->name);
  d->too_long = n >= sizeof(d->dir) || m >= (int)sizeof(d->name);
}

/* profile_path, with a relative directory taken in the directory the image
 * started in (start_dir).  Not in secure mode, which refuses a relative
 * directory: it is the caller's. */
static void profile_dest(profile_dest_t *d, u32 seq, const char *ext) {
  profile_path(d, seq, ext);
  if (d->dir[0] == '/' || !start_dir[0] || hp_secure_mode())
    return;
  char dir[sizeof(d->dir)], path[sizeof(d->path)];
  hp_strlcpy(dir, d->dir, sizeof(dir));
  hp_strlcpy(path, d->path, sizeof(path));
  bool here = !hp_strcmp(dir, ".");
  int n = here ? hp_snprintf(d->dir, sizeof(d->dir), "%s", start_dir)
               : hp_snprintf(d->dir, sizeof(d->dir), "%s/%s", start_dir, dir);
  int m = hp_snprintf(d->path, sizeof(d->path), "%s/%s", start_dir,
                      here && !hp_strncmp(path, "./", 2) ? path + 2 : path);
  if (n >= (int)sizeof(d->dir) || m >= (int)sizeof(d->path))
    profile_path(d, seq, ext); /* too long: as given */
}

/* Gives the finished temporary file tmp its final name without replacing
 * a profile already there: one of an earlier image of this process (an
 * exec: the pid and often the program name stay the same,
 * heapprof_exec.c), or of an earlier run whose pid was the same.  Such a
 * name gets -2, -3, ... before its extension, and d says which name it
 * got.  A hard link fails when the name exists, where rename would replace
 * it.  What is there and is not a profile this user could have written (a
 * symbolic link, a hard link, a FIFO, another user's file: planted, see
 * heapprof_secure.c) is replaced by the rename, as before; so is anything
 * on a file system without hard links.  append_dumps means to extend the
 * file that is there: the rename. */
static int publish(int dirfd, const char *tmp, profile_dest_t *d) {
  if (hp_flags.append_dumps)
    return renameat(dirfd, tmp, dirfd, d->name);
  char base[512], name[512];
  hp_strlcpy(base, d->name, sizeof(base));
  const char *ext = NULL;
  for (const char *p = base; *p; p++)
    if (*p == '.')
      ext = p;
  size_t stem = ext ? (size_t)(ext - base) : hp_strlen(base);
  for (u32 k = 1; k <= 1000; k++) {
    if (k == 1)
      hp_strlcpy(name, base, sizeof(name));
    else
      hp_snprintf(name, sizeof(name), "%.*s-%u%s", (int)stem, base, k,
                  ext ? ext : "");
    int r;
    struct stat st;
    if (linkat(dirfd, tmp, dirfd, name, 0) == 0) {
      unlinkat(dirfd, tmp, 0);
      r = 0;
    } else if (errno != EEXIST) {
      bool no_links = errno == EPERM || errno == EOPNOTSUPP ||
                      errno == EMLINK || errno == EXDEV;
      return no_links ? renameat(dirfd, tmp, dirfd, d->name) : -1;
    } else if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
               S_ISREG(st.st_mode) && st.st_nlink == 1 &&
               st.st_uid == geteuid()) {
      continue; /* a profile: the next name */
    } else {
      r = renameat(dirfd, tmp, dirfd, name); /* planted: replaced */
    }
    if (r == 0 && k > 1) {
      size_t dl = hp_strlen(d->path) - hp_strlen(d->name);
      hp_snprintf(d->path + dl, sizeof(d->path) - dl, "%s", name);
      hp_strlcpy(d->name, name, sizeof(d->name));
    }
    return r;
  }
  errno = EEXIST;
  return -1;
}

/* A profile's bytes: made already (the text form), or made by make into
 * each file they are written to, streamed there as they are made (the
 * raw form: made whole in memory first, it was the largest part of
 * clang's peak under heapprof run, 138 of 641 MiB, docs/performance.md). */
typedef struct content {
  const hp_buf_t *made;
  void (*make)(hp_buf_t *b, void *arg);
  void *arg;
  bool oom; /* make ran out of memory: nothing more is tried */
} content_t;

/* Writes c to fd, whose offset is base; false with errno. */
static bool put_content(int fd, u64 base, content_t *c) {
  if (c->made)
    return hp_write_all(fd, c->made->data, c->made->len);
  hp_buf_t b = {0};
  hp_buf_stream_to(&b, fd, base);
  c->make(&b, c->arg);
  bool ok = !b.failed && hp_buf_drain(&b);
  int err = b.failed ? ENOMEM : b.write_errno;
  c->oom = b.failed;
  hp_buf_free(&b);
  errno = err;
  return ok;
}

/* c's bytes in memory, for a stream (stderr, stdout): made into own if
 * not made already; NULL when out of memory (c->oom). */
static const hp_buf_t *content_bytes(content_t *c, hp_buf_t *own) {
  if (c->made)
    return c->made;
  c->make(own, c->arg);
  c->oom = own->failed;
  return c->oom ? NULL : own;
}

/* The raw form's parts (hp_profile_raw_write's), made into each file it
 * is written to by make_raw. */
typedef struct raw_parts {
  const hp_hib_t *const *hibs;
  u32 n;
  const hp_procmap_t *map;
  const hp_size_bins_t *bins;
  const hp_profile_info_t *info;
} raw_parts_t;

static void make_raw(hp_buf_t *b, void *arg) {
  const raw_parts_t *r = arg;
  hp_profile_raw_write(b, r->hibs, r->n, r->map, r->bins, r->info,
                       hp_flags.raw_extension);
}

/* Writes the profile into the checked directory dirfd: a new temporary
 * file (after the old contents with append_dumps), then published under
 * the final name.  false with *why on failure, leaving nothing behind.
 * Which directories, names and modes are safe: heapprof_secure.c. */
static bool write_in_dir(int dirfd, profile_dest_t *d, content_t *c,
                         char *why, size_t why_size) {
  int old = -1;
  if (hp_flags.append_dumps) {
    old = hp_profile_open_old(dirfd, d->name, why, why_size);
    if (old == -2)
      return false;
  }
  char tmp[640];
  hp_signals_guard_begin(dirfd);
  int fd = hp_profile_temp_create(dirfd, d->name,
                                  hp_profile_mode_bits(hp_flags.profile_mode),
                                  tmp, sizeof(tmp));
  if (fd < 0) {
    hp_signals_guard_end();
    hp_strlcpy(why, hp_file_errno_text(errno), why_size);
    if (old >= 0)
      close(old);
    return false;
  }
  hp_signals_guard_file(tmp);
  bool ok = true;
  int err = 0;
  if (old >= 0) {
    /* append_dumps: the old contents first, so even then the file is
     * always complete (raw dumps concatenated are one valid raw file).
     * copy_file_range copies them inside the kernel (a reflink where the
     * file system shares blocks); the read and write loop takes over from
     * where it stopped, if the kernel or the file system cannot. */
    for (;;) {
      ssize_t r = copy_file_range(old, NULL, fd, NULL, (size_t)1 << 30, 0);
      if (r < 0 && errno == EINTR)
        continue;
      if (r <= 0)
        break;
    }
    char chunk[8192];
    for (;;) {
      ssize_t r = read(old, chunk, sizeof(chunk));
      if (r < 0 && errno == EINTR)
        continue;
      if (r <= 0) {
        ok = r == 0;
        err = errno;
        break;
      }
      if (!hp_write_all(fd, chunk, (size_t)r)) {
        ok = false;
        err = errno;
        break;
      }
    }
    close(old);
  }
  if (ok) {
    off_t base = lseek(fd, 0, SEEK_CUR);
    if (base < 0 || !put_content(fd, (u64)base, c)) {
      ok = false;
      err = errno;
    }
  }
  if (close(fd) != 0 && ok) {
    ok = false;
    err = errno;
  }
  bool taken = false;
  if (ok && publish(dirfd, tmp, d) == 0) {
    hp_signals_guard_end();
    return true;
  }
  if (ok) {
    err = errno;
    taken = err == EEXIST && !hp_flags.append_dumps;
  }
  unlinkat(dirfd, tmp, 0);
  hp_signals_guard_end();
  /* publish's EEXIST: every name it may give is a profile already. */
  hp_strlcpy(why,
             taken ? "the name and its -2 to -1000 are taken by earlier "
                     "profiles"
                   : hp_file_errno_text(err),
             why_size);
  return false;
}

/* Writes b into d's directory, opened for it (its checks in
 * hp_profile_dir_open); false with why. */
static bool write_to_dir(profile_dest_t *d, content_t *c, char *why,
                         size_t why_size) {
  int dirfd = hp_profile_dir_open(d->dir, why, why_size);
  if (dirfd < 0)
    return false;
  bool ok = write_in_dir(dirfd, d, c, why, why_size);
  close(dirfd);
  return ok;
}

/* write_profile: own holds c's bytes if they are needed in memory. */
static bool write_profile_to(content_t *c, hp_buf_t *own, u32 seq,
                             const char *ext) {
  const hp_buf_t *b;
  /* A stream that fails (a full disk, /dev/full, closed, a pipe whose
   * reader has gone: EPIPE, heapprof_signals.c) is said on stderr: the
   * profile, or its end, is lost (for stderr itself the line mostly is
   * too).  Nothing else is tried: the user chose the stream. */
  bool out = !hp_strcmp(hp_flags.log_path, "stdout");
  if (out || !hp_strcmp(hp_flags.log_path, "stderr")) {
    if (!(b = content_bytes(c, own)))
      return false;
    if (hp_write_all(out ? 1 : 2, b->data, b->len))
      return true;
    int e = errno;
    hp_printf("HeapProf: WARNING: cannot write profile to %s: %s; it is "
              "lost\n",
              hp_flags.log_path, hp_file_errno_text(e));
    return false;
  }
  /* append_dumps: every dump of the process goes to the one file. */
  profile_dest_t d;
  profile_dest(&d, hp_flags.append_dumps ? 0 : seq, ext);
  char why[4800] = "";
  bool secure = hp_secure_mode();
  if (secure && d.dir[0] != '/') {
    /* A relative directory would be the caller's current directory. */
    hp_strlcpy(why, "the program runs with elevated privileges and was not "
                    "built with an absolute profile directory",
               sizeof(why));
  } else if (d.too_long) {
    hp_strlcpy(why, hp_file_errno_text(ENAMETOOLONG), sizeof(why));
  } else {
    root_moved(d.dir);
    char why_mkdir[4800] = "";
    if (!hp_flags.log_path[0] && hp_flags.profile_dir[0])
      make_dirs(d.dir, why_mkdir, sizeof(why_mkdir));
    /* A program may hold every descriptor its soft limit allows; the
     * profile needs two for a moment (the directory and the file):
     * hp_fd_limit_raise, for one more try. */
    struct rlimit saved;
    bool raised = false;
    for (int attempt = 0; attempt < 2; attempt++) {
      if (write_to_dir(&d, c, why, sizeof(why))) {
        if (raised)
          hp_fd_limit_restore(&saved);
        if (hp_flags.verbosity)
          hp_printf("HeapProf: wrote profile %s\n", d.path);
        return true;
      }
      if (c->oom || raised || hp_strcmp(why, hp_file_errno_text(EMFILE)) ||
          !(raised = hp_fd_limit_raise(HP_FD_HEADROOM, &saved)))
        break;
    }
    /* The directory is missing because it could not be made: say why. */
    if (why_mkdir[0] && !hp_strcmp(why, hp_file_errno_text(ENOENT)))
      hp_strlcpy(why, why_mkdir, sizeof(why));
    if (raised)
      hp_fd_limit_restore(&saved);
  }
  if (c->oom)
    return false;
  if (secure) {
    /* stderr is the caller's: the memory map and ASLR bases of a
     * privileged process are not theirs to read. */
    hp_printf("HeapProf: WARNING: cannot write profile '%s': %s; not "
              "writing it (elevated privileges: no stderr fallback)\n",
              d.path, why);
    return false;
  }
  /* Under heapprof run the program is not the user's build, and its
   * stderr is its own output (a preloaded runtime must not change what
   * the program does: docs/run.md): no form of the profile goes there,
   * the text one to the temporary directory too.  Chromium's sandboxed
   * processes, chroot'ed away from -o DIR and /tmp, wrote their raw
   * profiles on its stderr, seven blobs a run. */
  bool run = hp_preload_active();
  if (run || !hp_strcmp(ext, "profraw")) {
    /* The raw form is bytes: on a terminal they would be lost and garble
     * it, and in a program's own log (a server's stderr, often a file it
     * opened) they would corrupt it. So it goes to the temporary
     * directory first; the typical failure is a process that dropped
     * privileges (a server's workers) and may not write into the 0700
     * directory its parent made. */
    profile_dest_t t = d;
    const char *tmp = hp_getenv("TMPDIR");
    if (!tmp)
      tmp = start_tmpdir;
    hp_strlcpy(t.dir, tmp[0] == '/' ? tmp : "/tmp", sizeof(t.dir));
    hp_snprintf(t.path, sizeof(t.path), "%s/%s", t.dir, t.name);
    char why_tmp[4800] = "";
    if (write_to_dir(&t, c, why_tmp, sizeof(why_tmp))) {
      hp_printf("HeapProf: WARNING: cannot write profile '%s': %s; wrote it "
                "to '%s' instead\n",
                d.path, why, t.path);
      return false;
    }
    if (c->oom)
      return false;
    if (run) {
      hp_printf("HeapProf: WARNING: cannot write profile '%s': %s, nor "
                "'%s': %s; not writing it (heapprof run: the program's "
                "stderr is its own)\n",
                d.path, why, t.path, why_tmp);
      return false;
    }
    if (isatty(2)) {
      hp_printf("HeapProf: WARNING: cannot write profile '%s': %s, nor "
                "'%s': %s; not writing it (stderr is a terminal: redirect "
                "it to a file to get the raw profile there)\n",
                d.path, why, t.path, why_tmp);
      return false;
    }
    if (!(b = content_bytes(c, own)))
      return false;
    hp_printf("HeapProf: WARNING: cannot write profile '%s': %s, nor '%s': "
              "%s; writing it to stderr instead\n",
              d.path, why, t.path, why_tmp);
    hp_write_all(2, b->data, b->len);
    return false;
  }
  if (!(b = content_bytes(c, own)))
    return false;
  hp_printf("HeapProf: WARNING: cannot write profile '%s': %s; writing it to "
            "stderr instead\n",
            d.path, why);
  hp_write_all(2, b->data, b->len);
  return false;
}

/* Writes c to the configured destination; false if it could not be
 * written there (then it went to the temporary directory or stderr, or
 * nowhere in secure mode, under heapprof run when the temporary directory
 * failed too, or when making it ran out of memory). */
static bool write_profile(content_t *c, u32 seq, const char *ext) {
  hp_buf_t own = {0};
  bool ok = write_profile_to(c, &own, seq, ext);
  hp_buf_free(&own);
  if (c->oom)
    hp_printf("HeapProf: WARNING: out of memory while building the raw "
              "profile; not written\n");
  return ok;
}

void hp_rtl_print_stats(void) {
  hp_stats_t s;
  hp_thread_sum_stats(&s);
  hp_printf("HeapProf statistics:\n");
#define X(name, desc)                                                        \
  hp_printf("  %-16s %20llu  %s\n", #name, (unsigned long long)s.name, desc);
  HP_STATS(X)
#undef X
  hp_printf("  %-16s %20llu  %s\n", "stack_ids",
            (unsigned long long)hp_stackdepot_count(), "allocation contexts");
  hp_printf("  %-16s %20llu  %s\n", "depot_bytes",
            (unsigned long long)hp_stackdepot_bytes(), "stack depot memory");
  hp_printf("  %-16s %20llu  %s\n", "hib_evictions",
            (unsigned long long)hp_hib_table_evictions(&hp_hib_table),
            "HIB table entries evicted to the spill log");
  hp_printf("  %-16s %20llu  %s\n", "primary_bytes",
            (unsigned long long)hp_primary_mapped_bytes(),
            "primary allocator bytes carved");
  hp_printf("  %-16s %20llu  %s\n", "secondary_bytes",
            (unsigned long long)hp_secondary_mapped_bytes(),
            "large chunk bytes mapped now");
  hp_printf("  %-16s %20u  %s\n", "threads", hp_thread_count(),
            "threads with heapprof state now");
  hp_foreign_print_stats();
  hp_faults_print_stats();
}

/* A dump's work, under dump_lock, on dump_stack. */
typedef struct dump_args {
  const char *reason;
  u32 seq;
  int result;
} dump_args_t;
static hp_own_stack_t dump_stack; /* under dump_lock */

static void dump_locked(void *arg) {
  dump_args_t *a = arg;
  const char *reason = a->reason;
  u32 seq = a->seq;
  /* A checkpoint's folds need the baseline shadow (16 TiB reserved at the
   * first); refused, it is not written, and the program goes on: it had
   * died of SIGABRT at its first checkpoint, an exec of itself included,
   * once it lowered its address-space or data-size limit. */
  if (seq && !hp_shadow_baseline_try_init()) {
    char why[320];
    hp_report_mapping_refused_why(why, sizeof(why), true);
    hp_printf("HeapProf: WARNING: checkpoint %u (%s) not written: a "
              "mapping was refused: %s\n",
              seq, reason, why);
    a->result = -1;
    return;
  }
  /* This thread's page faults so far are the program's; the dump's own are
   * not the allocator's (heapprof_faults.h). */
  hp_faults_flush();
  u32 now_ms = hp_now_ms();
  u32 cpu = hp_cpu_id();
  dump_map_t map;
  map_init(&map);
  hp_thread_flush_hibs();
  map_drain(&map);
  hp_memset(&dump_bins, 0, sizeof(dump_bins));
  hp_hib_table_take_bins(&hp_hib_table, &dump_bins);
  fold_ctx_t f = {&map, &dump_bins, now_ms, cpu, 0};
  /* Both before the fold moves live chunks' baselines. */
  hp_peak_dump_take(now_ms);
  hp_util_dump_begin();
  hp_fold_begin(seq == 0); /* hp_rtl_dump_final's */
  hp_for_each_live_chunk(fold_cb, &f);
  if (seq == 0) {
    /* Other threads go on while the profile is written.  A chunk one of
     * them freed after the flush above and before the walk reached it is
     * neither live nor in the records drained: a checkpoint leaves its
     * event to the next dump, but none follows this one.  So the events
     * are written back once more; the chunks the walk folded record none
     * when freed (HP_CHUNK_LAST), which would count them twice, and a
     * free still on its way to its cache is waited for.  Before, a thread
     * freeing 200,000 objects while the program exited left 100,000 or
     * more of them out of the exit profile (Raw/exit_while_freeing.c). */
    hp_thread_flush_hibs_settled();
    map_drain(&map);
    hp_hib_table_take_bins(&hp_hib_table, &dump_bins);
  }
  hp_util_dump_end();
  hp_peak_dump(peak_cb, &map);
  u32 n;
  const hp_hib_t *const *recs = map_sorted(&map, &n);

  hp_procmap_t pm;
  hp_procmap_read(&pm);
  /* The text profile needs every PC of every stack symbolized: one batch. */
  u32 npcs = 0;
  uptr *pcs = NULL;
  hp_symbols_t syms;
  hp_memset(&syms, 0, sizeof(syms));
  /* A stream (stdout/stderr) is for reading: it gets the text profile,
   * unless print_text=0 asks for the raw one there. */
  bool stream = !hp_strcmp(hp_flags.log_path, "stdout") ||
                !hp_strcmp(hp_flags.log_path, "stderr");
  bool want_text = stream ? !hp_flag_explicit(&hp_flags, print_text) ||
                                hp_flags.print_text
                          : hp_flags.print_text;
  bool want_raw = stream ? !want_text : hp_flags.print_raw;
  bool lost = map.failed || pm.failed;
  if (lost) {
    char why[256];
    hp_report_mapping_refused_why(why, sizeof(why), false);
    hp_printf("HeapProf: WARNING: out of memory while gathering the "
              "profile's records and modules (a mapping was refused: %s); "
              "not written\n",
              why);
    want_text = want_raw = false;
  }
  if (want_text) {
    uptr frames[HP_MAX_STACK_DEPTH];
    for (u32 i = 0; i < n; i++) {
      u32 sz;
      if (hp_stackdepot_get((u32)recs[i]->stack_id, frames, &sz))
        npcs += sz;
    }
    pcs = npcs ? hp_mmap(npcs * sizeof(uptr)) : NULL;
    if (npcs && !pcs) {
      hp_printf("HeapProf: WARNING: out of memory while symbolizing the "
                "profile; its text form is not written\n");
      want_text = false;
      npcs = 0;
    }
    u32 k = 0;
    for (u32 i = 0; pcs && i < n; i++) {
      u32 sz;
      if (hp_stackdepot_get((u32)recs[i]->stack_id, frames, &sz)) {
        hp_memcpy(pcs + k, frames, sz * sizeof(uptr));
        k += sz;
      }
    }
    if (want_text)
      hp_symbolize(pcs, npcs, &pm, &syms);
  }

  int result = lost ? -1 : 0;
  static u64 dumps; /* under dump_lock; a fork child goes on counting */
  hp_profile_info_t info = {reason, seq, f.now_ms, (u32)getpid(),
                            hp_hib_table_evictions(&hp_hib_table), ++dumps};
  if (want_text) {
    hp_buf_t b = {0};
    hp_profile_text_write(&b, &info, recs, n, &pm, &syms);
    if (b.failed) {
      hp_printf("HeapProf: WARNING: out of memory while formatting the "
                "profile; it is incomplete\n");
      result = -1;
    }
    content_t c = {&b, NULL, NULL, false};
    if (!write_profile(&c, seq, "txt"))
      result = -1;
    hp_buf_free(&b);
  }
  if (want_raw) {
    /* Leaks are what is unreachable at the end of the image: the dump of
     * exit, _exit or quick_exit, the one before an exec replaces the
     * image, or daemon's parent's before glibc ends it (not a crash's, nor
     * another checkpoint's). */
    if ((!seq && (!hp_strcmp(reason, "exit") || !hp_strcmp(reason, "_exit") ||
                  !hp_strcmp(reason, "quick_exit"))) ||
        !hp_strcmp(reason, "exec") || !hp_strcmp(reason, "daemon"))
      hp_leaks_check(&dump_stack, f.live);
    else
      hp_leaks_forget();
    raw_parts_t parts = {recs, n, &pm, &dump_bins, &info};
    content_t c = {NULL, make_raw, &parts, false};
    if (!write_profile(&c, seq, "profraw"))
      result = -1;
  }
  if (hp_flags.print_stats)
    hp_rtl_print_stats();

  hp_symbols_free(&syms);
  if (pcs)
    hp_munmap(pcs, npcs * sizeof(uptr));
  hp_procmap_free(&pm);
  map_free(&map);
  hp_faults_skip();
  a->result = result;
}

int hp_rtl_dump(const char *reason, u32 seq) {
  if (hp_in_sandbox())
    return -1; /* heapprof_sandbox.c: the filter may kill for its calls */
  if ((hp_signals_vfork_child() && (seq || hp_strcmp(reason, "exit"))) ||
      hp_signals_unhandled_fork_child(NULL))
    return -1; /* its parent's memory, or records: see hp_rtl_dump_final */
  hp_rtl_init();
  if (!hp_flags.profiling)
    return 0; /* allocator-only mode: nothing was recorded */
  /* Cancellation is off for the dump: its opens, writes and the
   * symbolizer's reads are cancellation points, and a thread cancelled in
   * one (a worker writing a checkpoint, cancelled at shutdown) left the
   * dump lock held and the process hanging at exit.  A cancel that comes
   * meanwhile is acted on at the thread's next cancellation point. */
  int cancel;
  pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &cancel);
  sigset_t held;
  hp_signals_hold(&held);
  hp_spin_lock(&dump_lock);
  /* Once the last profile is wanted (its writer waits for this lock),
   * checkpoints stand aside: back-to-back ones would starve it.  The last
   * profile is claimed here, under the lock, not before it: a deadly
   * signal that finds it claimed waits for the lock (the handler in
   * heapprof_signals.c), which then must be the writer's.  Claimed before
   * the lock, a SIGTERM landing between the claim and the lock (on the
   * exiting thread, or on another) found the lock free and killed the
   * process with no profile. */
  if (seq ? __atomic_load_n(&hp_rtl.final_wanted, __ATOMIC_ACQUIRE)
          : __atomic_exchange_n(&hp_rtl.final_done, true, __ATOMIC_ACQ_REL)) {
    hp_spin_unlock(&dump_lock);
    hp_signals_unhold(&held);
    pthread_setcancelstate(cancel, NULL);
    return -1;
  }
  int saved_errno = errno;
  /* The leak check's roots on this thread's stack: from here up, with the
   * caller's callee-saved registers spilled in this frame's prologue (the
   * work itself runs on dump_stack), unless an exit path said where its
   * own frame is (one that says so meanwhile, on another thread waiting
   * for the lock, keeps its word). */
  uptr none = 0, mine;
  HP_LEAKS_FRAME_WITH_REGS(mine);
  bool roots_here = __atomic_compare_exchange_n(
      &hp_leaks_stack_from, &none, mine, false, __ATOMIC_RELAXED,
      __ATOMIC_RELAXED);
  dump_args_t args = {reason, seq, 0};
  hp_signals_own_writes_begin();
  /* A checkpoint at a limit the program set itself gets the heap's share
   * of it for its buffers (the exit profile drops the ballast instead). */
  if (seq)
    hp_rlimit_lend();
  bool reopened = stderr_reopen();
  hp_own_stack_run(&dump_stack, dump_locked, &args);
  if (reopened)
    stderr_drop();
  if (seq)
    hp_rlimit_repay();
  hp_signals_own_writes_end();
  if (roots_here)
    __atomic_compare_exchange_n(&hp_leaks_stack_from, &mine, 0, false,
                                __ATOMIC_RELAXED, __ATOMIC_RELAXED);
  hp_spin_unlock(&dump_lock);
  hp_signals_unhold(&held);
  pthread_setcancelstate(cancel, NULL);
  errno = saved_errno;
  return args.result;
}

void hp_rtl_lock(void) { hp_spin_lock(&dump_lock); }
void hp_rtl_unlock(void) { hp_spin_unlock(&dump_lock); }

/* A vfork child runs in its parent's memory.  A crash or an error report
 * there wrote a profile as the parent's last, which marked the parent's
 * own exit profile as done: its profile ended at the vfork, the rest of
 * its run lost; such a child writes none (nor a checkpoint).  Except at
 * exit(): a child that calls it (not _exit, a common slip after a failed
 * exec) runs the exit handlers, which glibc keeps in the shared memory,
 * so none of them runs again at the parent's exit, heapprof's neither;
 * the profile written then, of the parent's heap as it is at the vfork,
 * is the parent's last. */
void hp_rtl_dump_final(const char *reason) {
  u32 parent;
  if (hp_rtl.inited && hp_flags.profiling &&
      hp_signals_unhandled_fork_child(&parent)) {
    /* Its records are its parent's up to the copy: a profile would count
     * them again.  Said once (a deadly signal after exit began). */
    static bool said;
    if (!__atomic_exchange_n(&said, true, __ATOMIC_RELAXED))
      hp_printf("HeapProf: WARNING: process %d is a copy of process %u made "
                "without fork's handlers (the clone instruction without "
                "CLONE_VM, or a fork from a signal handler that interrupted "
                "heapprof): its profile is not written, since it would "
                "count its parent's allocations again\n",
                (int)getpid(), parent);
    return;
  }
  if (!hp_rtl.inited ||
      (hp_signals_vfork_child() && hp_strcmp(reason, "exit")))
    return;
  __atomic_store_n(&hp_rtl.final_wanted, true, __ATOMIC_RELEASE);
  /* A program at the memory limit it set itself leaves the profile room:
   * its budget ends with it (a vfork child shares its parent's). */
  if (!hp_signals_vfork_child())
    hp_rlimit_drop_ballast();
  hp_rtl_dump(reason, 0); /* at most once: final_done, under the lock */
}

int hp_rtl_checkpoint(const char *reason) {
  if (hp_locks_held > 0) {
    /* A signal handler that interrupted heapprof on this thread (inside an
     * allocator call or a dump): the dump would wait for its locks. */
    static bool said;
    if (!__atomic_exchange_n(&said, true, __ATOMIC_RELAXED))
      hp_printf("HeapProf: WARNING: __heapprof_dump() was called by a "
                "signal handler that interrupted heapprof on the same "
                "thread (an allocator call); no checkpoint, as for any "
                "such call\n");
    return -1;
  }
  u32 seq = __atomic_add_fetch(&hp_rtl.checkpoints, 1, __ATOMIC_RELAXED);
  return hp_rtl_dump(reason, seq);
}

/* Programs linked with the runtime but not compiled with -fheapprof have no
 * module constructor calling __heapprof_init: start before their own
 * constructors, so options are checked and a profile is written even if
 * the program never allocates. */
static void register_exit_profile(void);

__attribute__((constructor(101))) static void heapprof_ctor(void) {
#ifdef HEAPPROF_SHARED_RUNTIME
  register_exit_profile();
#endif
  hp_rtl_init();
}

/* The exit profile.  Noinline: its frame is the one the leak check's roots
 * on this stack start at (with the callee-saved registers, pushed below
 * the frame pointer, included). */
static HP_NOINLINE void write_exit_profile(void) {
  HP_LEAKS_ROOTS_FROM_HERE();
  if (hp_flags.dump_at_exit)
    hp_rtl_dump_final("exit");
}

/* exit() runs its handlers last registered first, and glibc's
 * __libc_start_main registers the loader's finalizer (every object's
 * destructors, the executable's .fini_array first, its libraries' after)
 * after the libraries' constructors ran, before the executable's.  A
 * handler registered before all of them runs after all of them: the exit
 * profile then has what libraries' destructors, C++ static objects and
 * the atexit handlers of their constructors allocate and free.  It is
 * registered from the executable's .preinit_array (the static runtime:
 * before any library's constructor) or, in the preloaded runtime, at the
 * first __cxa_atexit or on_exit of anyone (below), else from its
 * constructor (before __libc_start_main); failing that, heapprof's own
 * destructor writes the profile, as before. */
static bool exit_profile_registered;

static void exit_profile_handler(int status, void *arg) {
  (void)status;
  (void)arg;
  write_exit_profile();
}

#ifdef HEAPPROF_SHARED_RUNTIME
/* The preloaded runtime's constructor runs after those of the program's
 * libraries (they are not its dependencies, nor it theirs: the loader
 * initialises the executable's needed libraries first), and by then they
 * may have registered exit handlers of their own, which then ran after the
 * exit profile was written: an on_exit handler of a library's constructor
 * (not one of the destructors __cxa_finalize runs from the loader's
 * finalizer), and glibc's own frees of the blocks it calloc'd for every
 * handler past its first 32 (clang-19 -c: 105 blocks of 1,040 bytes, read
 * as live at exit, their frees missing).  So the first registration of
 * anyone's, through these two, registers the profile's handler first:
 * libc's, in its static first block, which exit walks last. */
typedef int (*on_exit_fn)(void (*)(int, void *), void *);
typedef int (*cxa_atexit_fn)(void (*)(void *), void *, void *);
static on_exit_fn real_on_exit;
static cxa_atexit_fn real_cxa_atexit;

static void resolve_exit_fns(void) {
  if (!__atomic_load_n(&real_on_exit, __ATOMIC_ACQUIRE))
    __atomic_store_n(&real_on_exit, (on_exit_fn)dlsym(RTLD_NEXT, "on_exit"),
                     __ATOMIC_RELEASE);
  if (!__atomic_load_n(&real_cxa_atexit, __ATOMIC_ACQUIRE))
    __atomic_store_n(&real_cxa_atexit,
                     (cxa_atexit_fn)dlsym(RTLD_NEXT, "__cxa_atexit"),
                     __ATOMIC_RELEASE);
}
#define HP_ON_EXIT(fn, arg) (resolve_exit_fns(), real_on_exit(fn, arg))
#else
#define HP_ON_EXIT(fn, arg) on_exit(fn, arg)
#endif

/* on_exit, not atexit: atexit registers under the calling module's
 * __dso_handle, and a PIE's crtbegin runs __cxa_finalize on its own
 * handle from the executable's .fini_array, which would run this handler
 * there, before the libraries' destructors.  Once, whichever thread comes
 * first (a C++ function-local static's first use registers too). */
static void register_exit_profile(void) {
  static bool claimed;
  if (__atomic_load_n(&claimed, __ATOMIC_ACQUIRE) ||
      __atomic_exchange_n(&claimed, true, __ATOMIC_ACQ_REL))
    return;
  if (HP_ON_EXIT(exit_profile_handler, NULL) == 0)
    exit_profile_registered = true;
}

#ifdef HEAPPROF_SHARED_RUNTIME
HP_INTERFACE int __cxa_atexit(void (*fn)(void *), void *arg, void *dso) {
  register_exit_profile();
  resolve_exit_fns();
  return real_cxa_atexit(fn, arg, dso);
}

HP_INTERFACE int on_exit(void (*fn)(int, void *), void *arg) {
  register_exit_profile();
  return HP_ON_EXIT(fn, arg);
}
#endif

#ifndef HEAPPROF_SHARED_RUNTIME
__attribute__((section(".preinit_array"), used)) static void (
    *const heapprof_preinit)(void) = register_exit_profile;
#endif

__attribute__((destructor(101))) static void heapprof_fini(void) {
  if (!exit_profile_registered)
    write_exit_profile();
}

/* A cancellation point once the checkpoint is written (the dump itself runs
 * with cancellation off): a thread whose loop only dumps can be cancelled. */
HP_INTERFACE int __heapprof_dump(void) {
  int r = hp_rtl_checkpoint("checkpoint");
  pthread_testcancel();
  return r;
}

HP_INTERFACE void __heapprof_reset(void) {
  hp_rtl_init();
  hp_thread_flush_hibs();
  hp_hib_table_clear(&hp_hib_table);
}

HP_INTERFACE void __heapprof_record_access(const volatile void *p) {
  hp_shadow_mark_in_use();
  uptr a = (uptr)p;
  if (a < HP_USER_SPACE_END && __heapprof_shadow_memory_dynamic_address)
    ++*hp_shadow_counter(a);
}

HP_INTERFACE void __heapprof_record_access_range(const volatile void *p,
                                                 size_t size) {
  hp_shadow_mark_in_use();
  hp_shadow_record_range((uptr)p, size);
}

HP_INTERFACE void __heapprof_load(uintptr_t addr) {
  __heapprof_record_access((const void *)addr);
}

HP_INTERFACE void __heapprof_store(uintptr_t addr) {
  __heapprof_record_access((const void *)addr);
}

/* Finds the live primary chunk of a store and its place in false
 * sharing's model; large chunks and unplaced objects are not modelled. */
HP_INTERFACE void __heapprof_false_sharing_store(uintptr_t addr) {
  if (HP_LIKELY(!hp_flags.false_sharing))
    return;
  if (hp_foreign_state == HP_FOREIGN_ON) { /* real addresses: the index */
    hp_fshare_store_real(addr);
    return;
  }
  u32 c;
  uptr block = hp_primary_block_of(addr, &c);
  if (!block)
    return;
  uptr user_beg = hp_block_user_beg(block, hp_class_size(c));
  const hp_chunk_header_t *h = hp_chunk_header(user_beg);
  if (__atomic_load_n(&h->state, __ATOMIC_ACQUIRE) != HP_CHUNK_ALLOCATED ||
      !h->data_type_id || addr < user_beg ||
      addr - user_beg >= h->requested_size)
    return;
  hp_fshare_store(h->data_type_id, addr - user_beg, h->alloc_context_id,
                  user_beg);
}
