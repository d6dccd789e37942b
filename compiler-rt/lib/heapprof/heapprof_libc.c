/*===- heapprof_libc.c - allocation-free helpers ------------------------===
 *
 * Part of heapprof.  See heapprof_libc.h.  Everything here may run inside
 * malloc, free, a signal handler or before libc is fully initialised, so
 * nothing here calls stdio, malloc or getenv.
 *===----------------------------------------------------------------------===*/
#include "heapprof_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <gnu/libc-version.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

void hp_memmove(void *d, const void *s, size_t n) {
  u8 *dp = d;
  const u8 *sp = s;
  if (dp == sp || n == 0)
    return;
  if (dp < sp || dp >= sp + n) {
    hp_memcpy(d, s, n);
    return;
  }
  /* Overlapping with dst above src: copy backwards. */
  while (n) {
    n--;
    dp[n] = sp[n];
  }
}

int hp_memcmp(const void *a, const void *b, size_t n) {
  const u8 *x = a, *y = b;
  for (size_t i = 0; i < n; i++)
    if (x[i] != y[i])
      return x[i] < y[i] ? -1 : 1;
  return 0;
}

size_t hp_strlen(const char *s) {
  size_t n = 0;
  while (s[n])
    n++;
  return n;
}

size_t hp_strnlen(const char *s, size_t max) {
  size_t n = 0;
  while (n < max && s[n])
    n++;
  return n;
}

int hp_strcmp(const char *a, const char *b) {
  while (*a && *a == *b)
    a++, b++;
  return (u8)*a - (u8)*b;
}

int hp_strncmp(const char *a, const char *b, size_t n) {
  for (; n; n--, a++, b++) {
    if (*a != *b)
      return (u8)*a - (u8)*b;
    if (!*a)
      return 0;
  }
  return 0;
}

char *hp_strchr(const char *s, int c) {
  for (;; s++) {
    if (*s == (char)c)
      return (char *)s;
    if (!*s)
      return NULL;
  }
}

size_t hp_strlcpy(char *dst, const char *src, size_t size) {
  size_t n = hp_strlen(src);
  if (size) {
    size_t c = n < size - 1 ? n : size - 1;
    hp_memcpy(dst, src, c);
    dst[c] = 0;
  }
  return n;
}

extern char **environ;

/* The process's initial environment as /proc/self/environ gives it
 * (NAME=VALUE\0...), read once, into memory of its own that is never
 * freed; NULL if it cannot be read. */
static const char *proc_env;
static size_t proc_env_len;

static void proc_env_read(void) {
  static bool tried;
  if (tried)
    return;
  tried = true;
  int saved = errno;
  int fd = open("/proc/self/environ", O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    errno = saved;
    return;
  }
  hp_buf_t b = {0};
  bool ok = hp_buf_read_fd(&b, fd);
  close(fd);
  errno = saved;
  if (ok) {
    proc_env = b.data;
    proc_env_len = b.len;
  } else {
    hp_buf_free(&b);
  }
}

/* environ is NULL until the C library's own initialisation has run: a
 * program whose first allocation comes from a .preinit_array function
 * (UBSan's standalone runtime initialises there, and its dlsym allocates)
 * starts heapprof before that, and HEAPPROF_OPTIONS was silently ignored.
 * Then the initial environment is read from /proc, as the sanitizers'
 * GetEnv does. */
static const char *env_lookup(const char *name) {
  size_t n = hp_strlen(name);
  if (environ) {
    for (char **e = environ; *e; e++)
      if (!hp_strncmp(*e, name, n) && (*e)[n] == '=')
        return *e + n + 1;
    return NULL;
  }
  proc_env_read();
  for (size_t i = 0; proc_env && i < proc_env_len;) {
    const char *e = proc_env + i;
    size_t l = hp_strlen(e);
    if (l > n && !hp_strncmp(e, name, n) && e[n] == '=')
      return e + n + 1;
    i += l + 1;
  }
  return NULL;
}

const char *hp_getenv(const char *name) {
  /* A privileged process does not take orders from its caller's
   * environment (heapprof_secure.c). */
  return hp_secure_mode() ? NULL : env_lookup(name);
}

bool hp_env_is_set(const char *name) { return env_lookup(name) != NULL; }

/* ---------------------------------------------------------------- format */

typedef struct {
  char *buf;
  size_t size, pos;
} out_t;

static void out_c(out_t *o, char c) {
  if (o->pos + 1 < o->size)
    o->buf[o->pos] = c;
  o->pos++;
}

static void out_pad(out_t *o, char c, int n) {
  while (n-- > 0)
    out_c(o, c);
}

static void out_num(out_t *o, u64 v, bool neg, unsigned base, bool upper,
                    int width, bool zero, bool left, int prec, bool prefix0x) {
  char tmp[24];
  int n = 0;
  const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
  do {
    tmp[n++] = digits[v % base];
    v /= base;
  } while (v);
  while (n < prec)
    tmp[n++] = '0';
  int len = n + (neg ? 1 : 0) + (prefix0x ? 2 : 0);
  if (!left && !zero)
    out_pad(o, ' ', width - len);
  if (neg)
    out_c(o, '-');
  if (prefix0x)
    out_c(o, '0'), out_c(o, 'x');
  if (!left && zero)
    out_pad(o, '0', width - len);
  while (n)
    out_c(o, tmp[--n]);
  if (left)
    out_pad(o, ' ', width - len);
}

int hp_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap) {
  out_t o = {buf, size, 0};
  for (const char *f = fmt; *f; f++) {
    if (*f != '%') {
      out_c(&o, *f);
      continue;
    }
    f++;
    bool left = false, zero = false;
    for (;; f++) {
      if (*f == '-')
        left = true;
      else if (*f == '0')
        zero = true;
      else
        break;
    }
    int width = 0, prec = -1;
    if (*f == '*') {
      width = va_arg(ap, int);
      f++;
    } else {
      while (*f >= '0' && *f <= '9')
        width = width * 10 + (*f++ - '0');
    }
    if (*f == '.') {
      f++;
      prec = 0;
      if (*f == '*') {
        prec = va_arg(ap, int);
        f++;
      } else {
        while (*f >= '0' && *f <= '9')
          prec = prec * 10 + (*f++ - '0');
      }
    }
    int lng = 0; /* 0 int, 1 long, 2 long long, 3 size_t */
    while (*f == 'l' || *f == 'z' || *f == 'h') {
      if (*f == 'l')
        lng++;
      else if (*f == 'z')
        lng = 3;
      f++;
    }
    switch (*f) {
    case 'd':
    case 'i': {
      s64 v = lng == 0 ? va_arg(ap, int)
              : lng == 3 ? (s64)va_arg(ap, size_t)
                         : (lng == 1 ? va_arg(ap, long) : va_arg(ap, long long));
      out_num(&o, v < 0 ? (u64)0 - (u64)v : (u64)v, v < 0, 10, false, width,
              zero, left, prec, false);
      break;
    }
    case 'u':
    case 'x':
    case 'X':
    case 'o': {
      u64 v = lng == 0 ? va_arg(ap, unsigned)
              : lng == 3 ? va_arg(ap, size_t)
                         : (lng == 1 ? va_arg(ap, unsigned long)
                                     : va_arg(ap, unsigned long long));
      unsigned base = *f == 'u' ? 10 : *f == 'o' ? 8 : 16;
      out_num(&o, v, false, base, *f == 'X', width, zero, left, prec, false);
      break;
    }
    case 'p':
      out_num(&o, (u64)(uptr)va_arg(ap, void *), false, 16, false, width, zero,
              left, prec, true);
      break;
    case 'c':
      out_c(&o, (char)va_arg(ap, int));
      break;
    case 's': {
      const char *s = va_arg(ap, const char *);
      if (!s)
        s = "(null)";
      int n = (int)(prec >= 0 ? hp_strnlen(s, (size_t)prec) : hp_strlen(s));
      if (!left)
        out_pad(&o, ' ', width - n);
      for (int i = 0; i < n; i++)
        out_c(&o, s[i]);
      if (left)
        out_pad(&o, ' ', width - n);
      break;
    }
    case '%':
      out_c(&o, '%');
      break;
    case 0:
      f--;
      break;
    default:
      out_c(&o, '%');
      out_c(&o, *f);
    }
  }
  if (size)
    buf[o.pos < size ? o.pos : size - 1] = 0;
  return (int)o.pos;
}

int hp_snprintf(char *buf, size_t size, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = hp_vsnprintf(buf, size, fmt, ap);
  va_end(ap);
  return n;
}

bool hp_write_all(int fd, const void *buf, size_t n) {
  const char *p = buf;
  while (n) {
    ssize_t w = write(fd, p, n);
    if (w < 0) {
      if (errno == EINTR)
        continue;
      return false;
    }
    p += w;
    n -= (size_t)w;
  }
  return true;
}

/* A message longer than the stack buffer (a long path in it) is formatted
 * again into a mapping of its size: cut, it would lose its end, the reason
 * and the newline. Without the mapping it ends "...". */
static void vfdprintf(int fd, const char *fmt, va_list ap) {
  char buf[1024];
  int saved = errno;
  va_list ap2;
  va_copy(ap2, ap);
  int n = hp_vsnprintf(buf, sizeof(buf), fmt, ap);
  if (n < (int)sizeof(buf)) {
    hp_write_all(fd, buf, (size_t)n);
  } else {
    size_t size = (size_t)n + 1;
    char *big = hp_mmap(size);
    if (big) {
      hp_vsnprintf(big, (size_t)n + 1, fmt, ap2);
      hp_write_all(fd, big, (size_t)n);
      hp_munmap(big, size);
    } else {
      hp_memcpy(buf + sizeof(buf) - 5, "...\n", 4);
      hp_write_all(fd, buf, sizeof(buf) - 1);
    }
  }
  va_end(ap2);
  errno = saved;
}

void hp_printf(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vfdprintf(2, fmt, ap);
  va_end(ap);
}

/* ---------------------------------------------------------------- memory */

void *hp_mmap(size_t size) {
  int saved = errno;
  void *p = mmap(NULL, size, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  errno = saved;
  return p == MAP_FAILED ? NULL : p;
}

void *hp_mmap_or_die(size_t size, const char *what) {
  void *p = hp_mmap(size);
  if (!p)
    hp_report_mmap_failure(size, what);
  return p;
}

/* The reservations, in the order made (init, and a table's first use),
 * one next to another joined (the kernel places them so: the allocator's
 * regions make two each).  Added under reserved_lock; an entry grows or is
 * counted only once written, so a reader without the lock sees each range
 * whole or a smaller one.  Reservations are never unmapped. */
static uptr reserved[256][2];
static u32 nreserved;
static hp_spinlock_t reserved_lock;

static void note_reserved(uptr beg, uptr end) {
  hp_spin_lock(&reserved_lock);
  u32 n = nreserved;
  bool joined = false;
  for (u32 k = 0; k < n && !joined; k++) {
    if (reserved[k][0] == end) {
      __atomic_store_n(&reserved[k][0], beg, __ATOMIC_RELEASE);
      joined = true;
    } else if (reserved[k][1] == beg) {
      __atomic_store_n(&reserved[k][1], end, __ATOMIC_RELEASE);
      joined = true;
    }
  }
  if (!joined && n < HP_ARRAY_SIZE(reserved)) {
    reserved[n][0] = beg;
    reserved[n][1] = end;
    __atomic_store_n(&nreserved, n + 1, __ATOMIC_RELEASE);
  }
  hp_spin_unlock(&reserved_lock);
}

void *hp_mmap_noreserve(size_t size, const char *what) {
  void *p = hp_mmap_noreserve_try(size);
  if (!p)
    hp_report_mmap_failure(size, what);
  return p;
}

void *hp_mmap_noreserve_try(size_t size) {
  int saved = errno;
  void *p = mmap(NULL, size, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  errno = saved;
  if (p == MAP_FAILED)
    return NULL;
  /* Not in a core dump: a crash with core dumps on wrote every page of the
   * 19 TiB (a sparse file of 20 TB, six minutes of the kernel's time); the
   * allocator's regions put back the spans they use (new_span,
   * heapprof_allocator_primary.c). */
  madvise(p, size, MADV_DONTDUMP);
  errno = saved;
  note_reserved((uptr)p, (uptr)p + size);
  return p;
}

u32 hp_reserved_ranges(const uptr (**out)[2]) {
  *out = reserved;
  return __atomic_load_n(&nreserved, __ATOMIC_ACQUIRE);
}

void hp_munmap(void *p, size_t size) {
  int saved = errno;
  munmap(p, size);
  errno = saved;
}

void *hp_mremap(void *p, size_t old_size, size_t new_size) {
  int saved = errno;
  void *n = mremap(p, old_size, new_size, MREMAP_MAYMOVE);
  errno = saved;
  return n == MAP_FAILED ? NULL : n;
}

void hp_exit_group(int status) {
  for (;;)
    syscall(SYS_exit_group, status);
}

bool hp_fd_id_take(int fd, hp_fd_id_t *id) {
  struct stat st;
  int e = errno;
  bool ok = fstat(fd, &st) == 0;
  errno = e;
  id->dev = ok ? (u64)st.st_dev : 0;
  id->ino = ok ? (u64)st.st_ino : 0;
  return ok;
}

bool hp_fd_id_is(int fd, const hp_fd_id_t *id) {
  hp_fd_id_t now;
  return hp_fd_id_take(fd, &now) && now.dev == id->dev && now.ino == id->ino;
}

int hp_fd_above_stdio(int fd) {
  if (fd < 0 || fd > 2)
    return fd;
  int moved = fcntl(fd, F_DUPFD_CLOEXEC, 3);
  close(fd);
  return moved;
}

bool hp_fd_limit_raise(u32 extra, struct rlimit *saved) {
  int e = errno;
  bool ok = getrlimit(RLIMIT_NOFILE, saved) == 0 &&
            saved->rlim_cur != RLIM_INFINITY &&
            saved->rlim_cur < saved->rlim_max;
  if (ok) {
    struct rlimit more = *saved;
    more.rlim_cur = HP_MIN(saved->rlim_cur + extra, saved->rlim_max);
    ok = setrlimit(RLIMIT_NOFILE, &more) == 0;
  }
  errno = e;
  return ok;
}

void hp_fd_limit_restore(const struct rlimit *saved) {
  int e = errno;
  setrlimit(RLIMIT_NOFILE, saved);
  errno = e;
}

bool hp_grow_by_copy;

/* The mapping p (old_size bytes, the first used of them in use) grown to
 * new_size: moved by mremap, which moves the pages, not their bytes (a
 * copy held the old mapping and the new one's written half at once: a
 * spill log of 64 MiB doubled, 64 MiB more at the peak, libc_test), or
 * copied where the kernel refuses and in the program's sandbox, whose
 * filter may kill for mremap (hp_grow_by_copy).  NULL, p untouched, when
 * no memory is left. */
static void *grow_mapping(void *p, size_t old_size, size_t used,
                          size_t new_size) {
  if (!__atomic_load_n(&hp_grow_by_copy, __ATOMIC_RELAXED)) {
    void *d = hp_mremap(p, old_size, new_size);
    if (d)
      return d;
  }
  void *d = hp_mmap(new_size);
  if (d) {
    hp_memcpy(d, p, used);
    hp_munmap(p, old_size);
  }
  return d;
}

bool hp_array_try_grow(void **data, u64 *cap, u64 len, size_t elem,
                       u64 initial) {
  u64 n = *cap ? *cap * 2 : initial;
  void *d = *data ? grow_mapping(*data, *cap * elem, len * elem, n * elem)
                  : hp_mmap(n * elem);
  if (!d)
    return false;
  *data = d;
  *cap = n;
  return true;
}

static bool buf_reserve(hp_buf_t *b, size_t extra) {
  if (b->failed)
    return false;
  if (b->len + extra <= b->cap)
    return true;
  size_t cap = b->cap ? b->cap : 1 << 16;
  while (cap < b->len + extra)
    cap *= 2;
  /* Moved, not copied (a 10 MB profile used to touch 20 MB through its
   * doublings). */
  char *d = b->data ? grow_mapping(b->data, b->cap, b->len, cap)
                    : hp_mmap(cap);
  if (!d) {
    b->failed = true; /* the old buffer is still there: hp_buf_free */
    return false;
  }
  b->data = d;
  b->cap = cap;
  return true;
}

void hp_buf_append(hp_buf_t *b, const void *p, size_t n) {
  if (!buf_reserve(b, n))
    return;
  hp_memcpy(b->data + b->len, p, n);
  b->len += n;
}

void hp_buf_stream_to(hp_buf_t *b, int fd, u64 base) {
  b->sink = fd + 1;
  b->sink_base = base;
}

bool hp_buf_drain(hp_buf_t *b) {
  if (!b->sink)
    return true;
  if (b->len && !b->write_errno &&
      !hp_write_all(b->sink - 1, b->data, b->len))
    b->write_errno = errno ? errno : EIO;
  /* Past a failed write the bytes go nowhere: kept, the rest of a large
   * profile piled up in memory, the very memory streaming saves, and its
   * running out lost the fallback's profile too. */
  b->flushed += b->len;
  b->len = 0;
  return !b->write_errno;
}

void hp_buf_patch(hp_buf_t *b, u64 pos, const void *p, size_t n) {
  const char *src = p;
  if (pos < b->flushed) {
    /* Drained already: into the file (a patch is a field or two). */
    size_t k = (size_t)HP_MIN((u64)n, b->flushed - pos);
    for (size_t done = 0; done < k && !b->write_errno;) {
      ssize_t w = pwrite(b->sink - 1, src + done, k - done,
                         (off_t)(b->sink_base + pos + done));
      if (w < 0 && errno == EINTR)
        continue;
      if (w <= 0)
        b->write_errno = w < 0 ? errno : EIO;
      else
        done += (size_t)w;
    }
    pos += k;
    src += k;
    n -= k;
  }
  if (n && !b->failed && pos - b->flushed + n <= b->len)
    hp_memcpy(b->data + (pos - b->flushed), src, n);
}

void hp_buf_printf(hp_buf_t *b, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char small[512];
  va_list ap2;
  va_copy(ap2, ap);
  int n = hp_vsnprintf(small, sizeof(small), fmt, ap);
  if (n < (int)sizeof(small)) {
    hp_buf_append(b, small, (size_t)n);
  } else if (buf_reserve(b, (size_t)n + 1)) {
    hp_vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap2);
    b->len += (size_t)n;
  }
  va_end(ap2);
  va_end(ap);
}

bool hp_buf_read_fd(hp_buf_t *b, int fd) {
  for (;;) {
    if (!buf_reserve(b, 4096))
      return false;
    ssize_t r = read(fd, b->data + b->len, b->cap - b->len - 1);
    if (r < 0 && errno == EINTR)
      continue;
    if (r <= 0)
      break;
    b->len += (size_t)r;
  }
  b->data[b->len] = 0; /* room kept by every read */
  return true;
}

void hp_buf_free(hp_buf_t *b) {
  if (b->data)
    hp_munmap(b->data, b->cap);
  b->data = NULL;
  b->len = b->cap = 0;
  b->failed = false;
}

/* Per thread, written only by the thread itself and its signal handlers
 * (the deferred signal: heapprof_signals.c); zero at thread start. */
HP_TLS int hp_locks_held;
HP_TLS int hp_deferred_signal;

void hp_spin_run_deferred(void) { hp_signals_run_deferred(); }

void hp_spin_lock_slow(hp_spinlock_t *l) {
  for (unsigned i = 0;; i++) {
    if (!__atomic_load_n(&l->state, __ATOMIC_RELAXED) &&
        !__atomic_exchange_n(&l->state, 1, __ATOMIC_ACQUIRE))
      return;
    if (i < 64)
      __builtin_ia32_pause();
    else
      sched_yield();
  }
}

bool hp_spin_lock_bounded(hp_spinlock_t *l) {
  for (u32 i = 0; i < (1u << 20); i++) {
    if (hp_spin_trylock(l))
      return true;
    __builtin_ia32_pause();
  }
  return false;
}

static u64 monotonic_coarse_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
  return (u64)ts.tv_sec * 1000000000ull + (u64)ts.tv_nsec;
}

bool hp_spin_lock_patient(hp_spinlock_t *l) {
  if (hp_spin_lock_bounded(l))
    return true;
  for (u64 until = monotonic_coarse_ns() + 1000000000ull;
       monotonic_coarse_ns() < until;) {
    sched_yield();
    if (hp_spin_trylock(l))
      return true;
  }
  return false;
}

bool hp_spin_lock_unless_nested(hp_spinlock_t *l) {
  if (hp_locks_held > 0)
    return hp_spin_lock_bounded(l);
  hp_spin_lock(l);
  return true;
}

bool hp_parse_u64(const char *s, size_t len, u64 *out) {
  if (!len)
    return false;
  u64 v = 0;
  for (size_t i = 0; i < len; i++) {
    if (s[i] < '0' || s[i] > '9')
      return false;
    u64 d = (u64)(s[i] - '0');
    if (v > (UINT64_MAX - d) / 10)
      return false;
    v = v * 10 + d;
  }
  *out = v;
  return true;
}

bool hp_parse_s64(const char *s, size_t len, s64 *out) {
  bool neg = len && s[0] == '-';
  u64 v;
  if (!hp_parse_u64(s + neg, len - neg, &v) || v > (u64)INT64_MAX + neg)
    return false;
  *out = neg ? (s64)(0 - v) : (s64)v;
  return true;
}

static char exe_path[4096];
static const char *exe_name;

int hp_open_proc_self(const char *leaf, int flags) {
  char path[64];
  hp_snprintf(path, sizeof(path), "/proc/thread-self/%s", leaf);
  int fd = open(path, flags);
  if (fd < 0 && errno == ENOENT) {
    hp_snprintf(path, sizeof(path), "/proc/self/%s", leaf);
    fd = open(path, flags);
  }
  return fd;
}

/* Without /proc (a chroot or container that does not mount it): the name
 * execve was given (AT_EXECFN), made absolute with the working directory,
 * which at start (hp_exe_note_path) is still the one it was relative to.
 * A name found through PATH is absolute already.  0 when there is none. */
static ssize_t exe_from_auxv(char *out, size_t size) {
  const char *fn = (const char *)getauxval(AT_EXECFN);
  if (!fn || !*fn)
    return 0;
  while (fn[0] == '.' && fn[1] == '/') /* "./prog": the directory's own */
    fn += 2;
  size_t n = 0;
  if (fn[0] != '/') {
    if (!getcwd(out, size))
      return 0;
    n = hp_strlen(out);
    if (n && out[n - 1] != '/' && n + 1 < size)
      out[n++] = '/';
  }
  size_t len = hp_strlen(fn);
  if (n + len >= size)
    return 0;
  hp_memcpy(out + n, fn, len);
  return (ssize_t)(n + len);
}

static void read_exe(void) {
  if (exe_name)
    return;
  ssize_t n = readlink("/proc/thread-self/exe", exe_path,
                      sizeof(exe_path) - 1);
  if (n <= 0)
    n = readlink("/proc/self/exe", exe_path, sizeof(exe_path) - 1);
  if (n <= 0)
    n = exe_from_auxv(exe_path, sizeof(exe_path));
  if (n <= 0)
    n = (ssize_t)hp_strlcpy(exe_path, "unknown", sizeof(exe_path));
  exe_path[n] = 0;
  const char *base = exe_path;
  for (const char *p = exe_path; *p; p++)
    if (*p == '/')
      base = p + 1;
  exe_name = base;
}

static char run_name[128];

void hp_exe_note_run_name(void) {
  const char *a = program_invocation_name;
  if (!a)
    return;
  const char *base = a;
  for (const char *p = a; *p; p++)
    if (*p == '/')
      base = p + 1;
  while (*base == '-') /* a login shell's "-bash" */
    base++;
  if (!hp_strcmp(base, ".") || !hp_strcmp(base, ".."))
    return;
  /* A program that re-executes itself as /proc/self/exe (Chromium's
   * zygote, runc) or through a descriptor (/proc/self/fd/N, /dev/fd/N,
   * fexecve's) names no program: "exe" or a number.  The file's name. */
  if (!hp_strncmp(a, "/proc/", 6) || !hp_strncmp(a, "/dev/fd/", 8))
    return;
  size_t n = 0;
  for (; base[n] && n < sizeof(run_name) - 1; n++)
    run_name[n] = base[n] > ' ' && base[n] < 127 ? base[n] : '_';
  run_name[n] = 0;
}

/* The command line, as /proc/self/cmdline gave it at start: the arguments,
 * each followed by a NUL. */
static char command[4096];
static u64 command_len, command_argc;
static bool command_truncated;

/* Without /proc: the arguments on the initial stack, where the kernel put
 * them: argc at __libc_stack_end, then argv, NULL-terminated.  Read at
 * start, before a program can rewrite them. */
extern void *__libc_stack_end;

static void command_from_stack(void) {
  const uptr *sp = (const uptr *)__libc_stack_end;
  if (!sp)
    return;
  uptr argc = sp[0];
  char *const *argv = (char *const *)(sp + 1);
  if (argc > (1u << 20) || argv[argc])
    return; /* not what the kernel lays out: leave the command unknown */
  u64 n = 0;
  for (uptr i = 0; i < argc && argv[i]; i++) {
    size_t len = hp_strlen(argv[i]) + 1;
    if (n + len > sizeof(command)) {
      command_truncated = true;
      break;
    }
    hp_memcpy(command + n, argv[i], len);
    n += len;
    command_argc++;
  }
  command_len = n;
}

void hp_exe_note_command(void) {
  int saved = errno;
  int fd = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    command_from_stack();
    errno = saved;
    return;
  }
  u64 n = 0;
  for (;;) {
    ssize_t r = read(fd, command + n, sizeof(command) - n);
    if (r <= 0)
      break;
    n += (u64)r;
    if (n == sizeof(command)) {
      char c;
      command_truncated = read(fd, &c, 1) > 0;
      break;
    }
  }
  close(fd);
  errno = saved;
  /* Whole arguments only: a cut one goes, and an unterminated end (then
   * the command line is not whole either). */
  while (n && command[n - 1]) {
    n--;
    command_truncated = true;
  }
  command_len = n;
  for (u64 i = 0; i < n; i++)
    command_argc += !command[i];
}

const char *hp_exe_command(u64 *len, u64 *argc, bool *truncated) {
  *len = command_len;
  *argc = command_argc;
  *truncated = command_truncated;
  return command;
}

const char *hp_exe_name(void) {
  if (run_name[0])
    return run_name;
  read_exe();
  return exe_name;
}

const char *hp_exe_path(void) {
  read_exe();
  return exe_path;
}

/* The path the program was run by, "" when it is exe_path itself or
 * names another file (a script's, whose interpreter is the executable).
 * Written once by hp_exe_note_path at init, read-only after. */
static char run_path[4096];

/* Drops "." components and doubled slashes from the n bytes of p in place
 * ("/bin/./x", as a shell or lit joins "./x" to its directory); returns
 * the new length.  ".." is kept: through a link it is not the parent. */
static ssize_t drop_dot_components(char *p, ssize_t n) {
  ssize_t w = 0;
  for (ssize_t r = 0; r < n;) {
    if (p[r] == '/' && r + 1 < n &&
        (p[r + 1] == '/' ||
         (p[r + 1] == '.' && (r + 2 >= n || p[r + 2] == '/')))) {
      r += p[r + 1] == '/' ? 1 : 2;
      continue;
    }
    p[w++] = p[r++];
  }
  return w;
}

const char *hp_exe_run_path(void) {
  read_exe();
  return run_path[0] ? run_path : exe_path;
}

bool hp_exe_run_path_differs(void) { return run_path[0] != 0; }

void hp_exe_note_path(void) {
  int saved = errno;
  read_exe();
  /* A link's name (Debian's redis-server, a link to redis-check-rdb;
   * busybox's applets) is what the user ran: kept when it leads to the
   * executable's own file, which /proc/self/exe resolved it to. */
  ssize_t n = exe_from_auxv(run_path, sizeof(run_path) - 1);
  if (n > 0)
    n = drop_dot_components(run_path, n);
  run_path[n > 0 ? n : 0] = 0;
  struct stat run, exe;
  if (n <= 0 || hp_strcmp(run_path, exe_path) == 0 ||
      stat(run_path, &run) != 0 || stat("/proc/self/exe", &exe) != 0 ||
      run.st_dev != exe.st_dev || run.st_ino != exe.st_ino)
    run_path[0] = 0;
  errno = saved;
}

u64 hp_parse_hex_prefix(const char **p) {
  u64 v = 0;
  for (;; (*p)++) {
    char c = **p;
    u32 d = c >= '0' && c <= '9'   ? (u32)(c - '0')
            : c >= 'a' && c <= 'f' ? (u32)(c - 'a' + 10)
                                   : 16;
    if (d == 16)
      return v;
    v = v * 16 + d;
  }
}

bool hp_libc_aligned_alloc_strict(void) {
  /* 0 unknown, 1 rounds up, 2 strict. Racing first calls agree. */
  static int state;
  int s = __atomic_load_n(&state, __ATOMIC_RELAXED);
  if (HP_LIKELY(s))
    return s == 2;
  const char *v = gnu_get_libc_version(); /* "2.36" */
  u64 major = 0, minor = 0;
  const char *dot = v ? hp_strchr(v, '.') : NULL;
  size_t digits = 0;
  while (dot && dot[1 + digits] >= '0' && dot[1 + digits] <= '9')
    digits++;
  bool old = dot && hp_parse_u64(v, (size_t)(dot - v), &major) &&
             hp_parse_u64(dot + 1, digits, &minor) &&
             (major < 2 || (major == 2 && minor < 38));
  __atomic_store_n(&state, old ? 1 : 2, __ATOMIC_RELAXED);
  return !old;
}
