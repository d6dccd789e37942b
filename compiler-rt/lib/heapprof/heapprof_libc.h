/*===- heapprof_libc.h - allocation-free helpers ------------------------===
 *
 * Part of heapprof.  What the runtime needs from "libc" without calling
 * anything that can allocate, take a libc lock, or recurse into heapprof's
 * own interceptors: memory/string primitives, a printf-style formatter that
 * writes into a caller buffer, raw write(2), getenv on the environment
 * array, a spin lock, and page mappings.
 *===----------------------------------------------------------------------===*/
#ifndef HEAPPROF_LIBC_H
#define HEAPPROF_LIBC_H

#include <stdarg.h>

/* rep stos / rep movs: never become calls to memset/memcpy (which heapprof
 * intercepts). */
static HP_ALWAYS_INLINE void hp_memset(void *d, int c, size_t n) {
  __asm__ volatile("rep stosb" : "+D"(d), "+c"(n) : "a"(c) : "memory");
}
static HP_ALWAYS_INLINE void hp_memcpy(void *d, const void *s, size_t n) {
  __asm__ volatile("rep movsb" : "+D"(d), "+S"(s), "+c"(n) : : "memory");
}
void hp_memmove(void *d, const void *s, size_t n);
int hp_memcmp(const void *a, const void *b, size_t n);
size_t hp_strlen(const char *s);
size_t hp_strnlen(const char *s, size_t max);
int hp_strcmp(const char *a, const char *b);
int hp_strncmp(const char *a, const char *b, size_t n);
char *hp_strchr(const char *s, int c);
/* Copies at most size-1 bytes and NUL-terminates; returns strlen(src). */
size_t hp_strlcpy(char *dst, const char *src, size_t size);
/* NULL in secure mode (hp_secure_mode): the environment is the caller's. */
const char *hp_getenv(const char *name);
/* Whether the variable is set, trusted or not (to say it was ignored). */
bool hp_env_is_set(const char *name);

/* printf subset: %d %i %u %x %X %o %c %s %p %% with l/ll/z/h length,
 * '-', '0', width, .precision (also '*').  Always NUL-terminates; returns the
 * length it would have written. */
int hp_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap);
int hp_snprintf(char *buf, size_t size, const char *fmt, ...) HP_FORMAT(3, 4);

/* write(2) until done or a real error; returns false on error. */
bool hp_write_all(int fd, const void *buf, size_t n);
/* Formats into a stack buffer and writes to stderr. */
void hp_printf(const char *fmt, ...) HP_FORMAT(1, 2);

/* Anonymous private mappings.  hp_mmap_or_die reports and aborts on
 * failure; hp_mmap_noreserve reserves address space lazily backed. */
void *hp_mmap(size_t size);          /* NULL on failure */
void *hp_mmap_or_die(size_t size, const char *what);
void *hp_mmap_noreserve(size_t size, const char *what);
void *hp_mmap_noreserve_try(size_t size); /* NULL on failure */
/* The ranges hp_mmap_noreserve reserved, [beg, end) each, neighbours
 * joined (256 ranges at most: more are not listed): address space never
 * meant to be resident, which mlockall leaves unlocked
 * (heapprof_mlock.c). */
u32 hp_reserved_ranges(const uptr (**out)[2]);
void hp_munmap(void *p, size_t size);
/* Resizes mapping [p, p + old_size) to new_size bytes, moving it if the
 * kernel must; its bytes go along.  NULL on failure (p unchanged). */
void *hp_mremap(void *p, size_t old_size, size_t new_size);
/* Ends the process with the exit_group system call: heapprof's own exits
 * (a refused start, a helper's vfork child, a deadly signal whose default
 * is to be ignored), never through the _exit heapprof interposes, which
 * writes the exit profile and then calls the next definition, a wrapper
 * preloaded after the runtime among them. */
HP_NORETURN void hp_exit_group(int status);

/* What a descriptor heapprof keeps open refers to (device and inode), so
 * that it can tell its own from one the program opened under the same
 * number after closing heapprof's (programs that close every descriptor
 * they did not open: daemons).  hp_fd_id_take: false if fstat fails. */
typedef struct hp_fd_id {
  u64 dev, ino;
} hp_fd_id_t;
bool hp_fd_id_take(int fd, hp_fd_id_t *id);
bool hp_fd_id_is(int fd, const hp_fd_id_t *id);

/* A descriptor heapprof keeps is never 0, 1 or 2: in a program run with
 * one of them closed (>&-, a daemon that closes them and opens /dev/null
 * after) it took the number, and the program's writes there and its next
 * open went astray (the symbolizer's socket, pmu_events' counters).  fd
 * itself when it is above 2 (or negative); else a close-on-exec duplicate
 * at 3 or above, fd closed; -1 when no duplicate could be made. */
int hp_fd_above_stdio(int fd);

/* A program may hold every descriptor its soft limit allows (EMFILE), and
 * a profile or the symbolizer needs a few for a moment: the soft limit
 * raised by up to extra within the hard limit (false if it cannot be), and
 * put back.  extra leaves room for the descriptors heapprof itself may
 * hold above the limit (the symbolizer's socket, pmu_events' counters).
 * errno is kept. */
#define HP_FD_HEADROOM 16
struct rlimit;
bool hp_fd_limit_raise(u32 extra, struct rlimit *saved);
void hp_fd_limit_restore(const struct rlimit *saved);

/* Set while the program's seccomp sandbox is on (heapprof_sandbox.c):
 * arrays and buffers grow by mmap, a copy and munmap alone, the calls a
 * malloc or free makes, never by mremap, which a filter may kill for
 * (Security/seccomp_spill_growth.c). */
extern bool hp_grow_by_copy;
/* Makes room for one more element in an mmap'd array: doubles *cap (from
 * initial), moving the array's pages (mremap; where the kernel refuses, or
 * under hp_grow_by_copy, copying the len elements in use and unmapping the
 * old array).  The array's address may change.  False, the array
 * unchanged, when no memory is left (the leak check does without; the HIB
 * spill log merges what it has no room for). */
bool hp_array_try_grow(void **data, u64 *cap, u64 len, size_t elem,
                       u64 initial);

/* A growable byte buffer backed by mmap (never malloc), for building a
 * profile or report before one write. */
typedef struct hp_buf {
  char *data;
  size_t len, cap;
  bool failed; /* a mapping failed: contents truncated */
  /* Streamed (hp_buf_stream_to): the first `flushed` bytes went to the
   * file sink - 1 (0: none), from its offset sink_base on; write_errno:
   * a write there failed (what follows is not written). */
  int sink, write_errno;
  u64 flushed, sink_base;
} hp_buf_t;
void hp_buf_append(hp_buf_t *b, const void *p, size_t n);
/* From here b's bytes go to fd, whose offset base is b's position 0, as
 * they are drained: a writer that drains between records holds a few MiB
 * of a profile that may be hundreds (clang's: 138 MiB of its peak under
 * heapprof run, docs/performance.md). */
void hp_buf_stream_to(hp_buf_t *b, int fd, u64 base);
/* Writes what b holds to its sink, if it has one; false on a failed write
 * (b->write_errno), after which what is drained is dropped. */
bool hp_buf_drain(hp_buf_t *b);
/* hp_buf_drain once b holds HP_BUF_DRAIN_BYTES or more. */
#define HP_BUF_DRAIN_BYTES ((size_t)4 << 20)
static inline void hp_buf_drain_if_full(hp_buf_t *b) {
  if (b->sink && b->len >= HP_BUF_DRAIN_BYTES)
    hp_buf_drain(b);
}
/* The position of b's next byte: the bytes drained and those held. */
static inline u64 hp_buf_pos(const hp_buf_t *b) { return b->flushed + b->len; }
/* Overwrites n bytes at position pos (written before): in memory, or in
 * the sink's file if drained already. */
void hp_buf_patch(hp_buf_t *b, u64 pos, const void *p, size_t n);
void hp_buf_printf(hp_buf_t *b, const char *fmt, ...) HP_FORMAT(2, 3);
void hp_buf_free(hp_buf_t *b);
/* Reads fd to its end into b, straight into its mapping, with a NUL after
 * what was read (not counted in b->len); a read interrupted by a signal
 * is made again.  False when a mapping failed (b->failed: what was read
 * is there, cut short). */
bool hp_buf_read_fd(hp_buf_t *b, int fd);

/* Test-and-test-and-set spin lock; valid zero-initialised.  Held only for
 * short, bounded work.
 *
 * Each thread counts the locks it holds (counted before taking, uncounted
 * after releasing, so a signal handler never sees a held lock uncounted).
 * A deadly signal that arrives while the count is not zero cannot write the
 * profile there -- the dump would wait for a lock of its own interrupted
 * frame -- so heapprof_signals.c defers it to the release of the last lock
 * (hp_spin_run_deferred). */
typedef struct hp_spinlock {
  volatile u32 state;
} hp_spinlock_t;
extern HP_TLS int hp_locks_held;
extern HP_TLS int hp_deferred_signal; /* its number; 0: none */
void hp_spin_run_deferred(void);
void hp_spin_lock_slow(hp_spinlock_t *l);
/* The count alone, for a lock-like section that is not a spin lock (the
 * HIB cache's owner section): raised before it begins, lowered after it
 * ends, running a deferred signal when it was the last. */
static HP_ALWAYS_INLINE void hp_locks_count_up(void) {
  hp_locks_held++;
  __atomic_signal_fence(__ATOMIC_SEQ_CST);
}
static HP_ALWAYS_INLINE void hp_locks_count_down(void) {
  __atomic_signal_fence(__ATOMIC_SEQ_CST);
  int held = --hp_locks_held;
  if (HP_UNLIKELY(hp_deferred_signal) && held <= 0)
    hp_spin_run_deferred();
}
/* The lock alone, uncounted: for a section already counted. */
static HP_ALWAYS_INLINE void hp_spin_acquire(hp_spinlock_t *l) {
  if (HP_LIKELY(!__atomic_exchange_n(&l->state, 1, __ATOMIC_ACQUIRE)))
    return;
  hp_spin_lock_slow(l);
}
static HP_ALWAYS_INLINE void hp_spin_release(hp_spinlock_t *l) {
  __atomic_store_n(&l->state, 0, __ATOMIC_RELEASE);
}
static HP_ALWAYS_INLINE void hp_spin_lock(hp_spinlock_t *l) {
  hp_locks_count_up();
  hp_spin_acquire(l);
}
static HP_ALWAYS_INLINE bool hp_spin_trylock(hp_spinlock_t *l) {
  hp_locks_count_up();
  if (!__atomic_exchange_n(&l->state, 1, __ATOMIC_ACQUIRE))
    return true;
  hp_locks_held--;
  return false;
}
static HP_ALWAYS_INLINE void hp_spin_unlock(hp_spinlock_t *l) {
  hp_spin_release(l);
  hp_locks_count_down();
}
/* The try lock, tried for a bounded time (about 2^20 pauses): for a
 * lock whose holder keeps it for a few stores, taken where a signal
 * handler may have interrupted the holder on this very thread, which then
 * gives up rather than wait for ever (false: not taken). */
bool hp_spin_lock_bounded(hp_spinlock_t *l);
/* The lock for a call the program makes (makecontext, the root-region
 * calls): waits as long as another thread holds it, unless this thread
 * holds a lock of the runtime's already (a signal handler that interrupted
 * the runtime, maybe inside this very lock; the check at exit, under the
 * allocator's locks): then the bounded spin.  False: not taken. */
bool hp_spin_lock_unless_nested(hp_spinlock_t *l);
/* The try lock, tried for up to a second (pauses, then yields): for the
 * check at exit, which holds the allocator's locks, reading a list whose
 * holder keeps it for a few stores -- another thread, maybe descheduled
 * on a loaded machine for longer than the bounded spin (about 30 ms), or
 * this one (a signal handler that interrupted it).  False: not taken, and
 * the caller says what it did not read. */
bool hp_spin_lock_patient(hp_spinlock_t *l);

/* Decimal parsing for flags: returns false on junk or overflow. */
bool hp_parse_u64(const char *s, size_t len, u64 *out);
bool hp_parse_s64(const char *s, size_t len, s64 *out);
/* The lowercase hex digits at *p (as /proc/self/maps writes addresses),
 * *p moved past them. */
u64 hp_parse_hex_prefix(const char **p);

/* The name profile files carry: the program's name as it was run (the
 * last component of argv[0], noted by hp_exe_note_run_name at start, before
 * the program can rewrite its argv as nginx and Redis do), else the
 * executable's base name.  A multi-call binary (redis-server, a link to
 * redis-check-rdb; busybox) is named as it was called. */
const char *hp_exe_name(void);
/* The executable's path, from /proc/self/exe, read at start by
 * hp_exe_note_path (a later read may find no main thread to ask). */
const char *hp_exe_path(void);
/* The path execve was given (AT_EXECFN, made absolute with the directory
 * of the start), noted by hp_exe_note_path, when it leads to the
 * executable's file under another path (a symbolic or hard link): the
 * name the user ran, which profiles show; else hp_exe_path().  Files are
 * read (symbolized) by hp_exe_path(), the real file. */
const char *hp_exe_run_path(void);
bool hp_exe_run_path_differs(void);
void hp_exe_note_path(void);
void hp_exe_note_run_name(void);
/* open(2) of /proc/thread-self/LEAF, or of /proc/self/LEAF where the
 * kernel has no thread-self (before 3.17).  Not /proc/self first: once the
 * main thread has ended (pthread_exit from main, the other threads running
 * on), /proc/self/maps and cmdline read empty, pagemap and environ fail
 * with ESRCH, statm reads zeros and exe leads nowhere. */
int hp_open_proc_self(const char *leaf, int flags);
/* The command line the process started with, read from /proc/self/cmdline
 * by hp_exe_note_command at start (before main, before a program rewrites
 * its argv): len bytes of argc arguments, each ending in a NUL; at most
 * 4096 bytes, whole arguments only, *truncated when there was more. */
void hp_exe_note_command(void);
const char *hp_exe_command(u64 *len, u64 *argc, bool *truncated);

/* glibc's alignment rules, which heapprof's memalign family and sampled
 * mode's both follow. */
static HP_ALWAYS_INLINE bool hp_is_pow2(uptr a) { return a && !(a & (a - 1)); }
/* memalign's: an alignment rounded up to a power of two; false (EINVAL)
 * above 2^63, where none is left to round up to. */
static HP_ALWAYS_INLINE bool hp_libc_memalign_round(uptr *align) {
  if (*align > ((uptr)-1) / 2 + 1)
    return false;
  if (!hp_is_pow2(*align)) {
    uptr a = 1;
    while (a < *align)
      a <<= 1;
    *align = a;
  }
  return true;
}

/* Whether the running glibc's aligned_alloc fails a non-power-of-two
 * alignment with EINVAL (glibc 2.38 and later; earlier ones round it up as
 * memalign does). Read once; a version it cannot read counts as strict. */
bool hp_libc_aligned_alloc_strict(void);

/* System call nr with six arguments, made with the instruction itself:
 * no errno written by glibc's wrappers, and nothing a vfork child (which
 * shares the parent's thread pointer) or a signal handler may not do.
 * Returns the kernel's value: -4095..-1 is -errno. */
static HP_ALWAYS_INLINE long hp_raw_syscall6(long nr, long a, long b, long c,
                                             long d, long e, long f) {
  register long r10 __asm__("r10") = d;
  register long r8 __asm__("r8") = e;
  register long r9 __asm__("r9") = f;
  long ret;
  __asm__ volatile("syscall"
                   : "=a"(ret)
                   : "a"(nr), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8),
                     "r"(r9)
                   : "rcx", "r11", "memory");
  return ret;
}

#endif
