/*===- heapprof_leaks.c - the leak check at exit ------------------------===
 *
 * Part of heapprof.  See heapprof_leaks.h.
 *
 * The live objects are collected into an array sorted by address
 * (heapprof_liveset.h) whose aux word is each object's mark; a word of
 * memory is looked up there by binary search, after a test against the
 * lowest and highest address that discards most words.  Large chunks (and
 * another allocator's objects) are held while the check reads them: their
 * free waits, so nothing it reads is unmapped under it; a primary block
 * freed meanwhile stays mapped and only reads as an object still live.
 *===----------------------------------------------------------------------===*/
#include "heapprof_internal.h"
#include "heapprof_ext_sections.h"
#include "heapprof_leaks.h"
#include "heapprof_liveset.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

enum { UNREACHED = 0, REACHABLE = 1, INDIRECT = 2 };

#define ROW_WORDS 5
#define HEAD_WORDS 10

typedef struct leak_row {
  u64 stack_id, direct_objects, direct_bytes, indirect_objects,
      indirect_bytes;
} leak_row_t;

/* The result, from the check to the section's writer (the dump lock is
 * held from one to the other). */
static struct {
  bool done;
  u64 objects, root_bytes, direct_objects, direct_bytes, indirect_objects,
      indirect_bytes, threads_running;
  leak_row_t *rows;
  u64 nrows, cap;
} result;

/* ---------------------------------------------------------------- maps */

typedef struct mapping {
  uptr beg, end;
} mapping_t;

/* The readable mappings of /proc/self/maps, in address order. */
typedef struct maps {
  mapping_t *v;
  u64 n, cap;
} maps_t;

static u64 hex(const char **p) {
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

/* false with *why when the file cannot be read. */
static bool maps_read(maps_t *m, const char **why) {
  hp_buf_t b = {0};
  int fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
  if (fd < 0 && errno == EMFILE) {
    /* A program may hold every descriptor its soft limit allows. */
    struct rlimit saved;
    if (hp_fd_limit_raise(HP_FD_HEADROOM, &saved)) {
      fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
      hp_fd_limit_restore(&saved);
    }
  }
  if (fd < 0) {
    static char text[160];
    hp_snprintf(text, sizeof(text), "cannot read /proc/self/maps: %s",
                hp_file_errno_text(errno));
    *why = text;
    return false;
  }
  char chunk[4096];
  for (;;) {
    ssize_t k = read(fd, chunk, sizeof(chunk));
    if (k <= 0)
      break;
    hp_buf_append(&b, chunk, (size_t)k);
  }
  close(fd);
  char nul = 0;
  hp_buf_append(&b, &nul, 1);
  bool ok = !b.failed;
  for (const char *p = b.data; ok && p && *p;) {
    uptr beg = hex(&p);
    p++; /* '-' */
    uptr end = hex(&p);
    bool readable = p[0] == ' ' && p[1] == 'r';
    if (readable && end > beg) {
      if (m->n == m->cap) {
        u64 cap = m->cap ? m->cap * 2 : 512;
        mapping_t *v = hp_mmap(cap * sizeof(*v));
        if (!v) {
          ok = false;
          break;
        }
        if (m->v) {
          hp_memcpy(v, m->v, m->n * sizeof(*v));
          hp_munmap(m->v, m->cap * sizeof(*v));
        }
        m->v = v;
        m->cap = cap;
      }
      m->v[m->n++] = (mapping_t){beg, end};
    }
    p = hp_strchr(p, '\n');
    if (p)
      p++;
  }
  hp_buf_free(&b);
  if (!ok)
    *why = "out of memory";
  return ok;
}

/* The first mapping that ends above a (m->n if none). */
static u64 maps_from(const maps_t *m, uptr a) {
  u64 lo = 0, hi = m->n;
  while (lo < hi) {
    u64 mid = lo + (hi - lo) / 2;
    if (m->v[mid].end <= a)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

/* The readable mapping holding a, or NULL. */
static const mapping_t *maps_find(const maps_t *m, uptr a) {
  u64 i = maps_from(m, a);
  return i < m->n && m->v[i].beg <= a ? &m->v[i] : NULL;
}

/* ---------------------------------------------------------------- marks */

typedef struct check {
  hp_live_set_t objs;
  uptr lo, hi; /* the lowest object's beg, the highest object's end */
  maps_t maps;
  hp_buf_t globals; /* uptr pairs: the modules' writable segments */
  hp_buf_t tls;     /* uptr pairs: the modules' static TLS blocks, as
                     * offsets from the thread pointer (every thread's) */
  uptr linker_beg, linker_end; /* the dynamic linker's executable code */
  hp_buf_t work; /* u64 indices of objects to scan */
  u64 root_bytes;
} check_t;

static void reach(check_t *c, uptr w, u64 mark) {
  if (w < c->lo || w >= c->hi)
    return;
  s64 i = hp_liveset_find(&c->objs, w);
  if (i < 0 || c->objs.v[i].aux != UNREACHED)
    return;
  c->objs.v[i].aux = mark;
  u64 k = (u64)i;
  hp_buf_append(&c->work, &k, sizeof(k));
}

/* Every aligned word of [beg, end), which must be readable. */
static void scan_words(check_t *c, uptr beg, uptr end, u64 mark) {
  for (uptr p = HP_ROUND_UP(beg, 8); p + 8 <= end; p += 8)
    reach(c, *(const uptr *)p, mark);
}

/* Scans the objects on the work list, and what they reach, marking what
 * they reach with mark. */
static void drain(check_t *c, u64 mark) {
  while (c->work.len >= 8) {
    u64 i;
    c->work.len -= 8;
    hp_memcpy(&i, c->work.data + c->work.len, 8);
    const hp_live_obj_t *o = &c->objs.v[i];
    scan_words(c, o->beg, o->end, mark);
  }
}

/* A root: the readable parts of [beg, end) (none if end <= beg). */
static void scan_root(check_t *c, uptr beg, uptr end) {
  if (end <= beg)
    return;
  for (u64 i = maps_from(&c->maps, beg); i < c->maps.n; i++) {
    const mapping_t *m = &c->maps.v[i];
    if (m->beg >= end)
      break;
    uptr b = HP_MAX(beg, m->beg), e = HP_MIN(end, m->end);
    c->root_bytes += e - b;
    scan_words(c, b, e, REACHABLE);
    drain(c, REACHABLE);
  }
}

/* ---------------------------------------------------------------- main */

/* When main returns, glibc calls exit from its own frame below main's old
 * place: the frames of main and of what it called are dead, but their
 * words stay in every slot that exit's frames do not write, and a pointer
 * main dropped would read as reachable.  So main runs under a wrapper that
 * notes where the live part of the main thread's stack begins once main
 * returned (a program that calls exit itself still has main's frame live,
 * and its stack is read from the exit's destructor up). */
typedef int (*main_fn)(int, char **, char **);
typedef int (*start_main_fn)(main_fn, int, char **, void (*)(void),
                             void (*)(void), void (*)(void), void *);
static main_fn program_main;
static uptr main_returned_at;

static __attribute__((noinline)) int main_wrapper(int argc, char **argv,
                                                  char **envp) {
  hp_thread_main_frame((uptr)__builtin_frame_address(0));
  int r = program_main(argc, argv, envp);
  /* The caller's stack pointer after this frame's return. */
  main_returned_at = (uptr)__builtin_frame_address(0) + 2 * sizeof(uptr);
  return r;
}

HP_INTERFACE int __libc_start_main(main_fn main, int argc, char **argv,
                                   void (*init)(void), void (*fini)(void),
                                   void (*rtld_fini)(void), void *stack_end) {
  start_main_fn real =
      (start_main_fn)dlsym(RTLD_NEXT, "__libc_start_main");
  HP_CHECK(real && "cannot find the real __libc_start_main");
  program_main = main;
  /* A tail call: no frame of this one stays between _start and libc's,
   * so walks before main (constructors) end in libc as before and drop
   * its frames. */
  __attribute__((musttail)) return real(main_wrapper, argc, argv, init, fini,
                                        rtld_fini, stack_end);
}

/* ---------------------------------------------------------------- roots */

/* Noted before the allocator is held: dl_iterate_phdr takes the loader's
 * lock, which a thread in dlopen holds while it allocates. */
static int note_globals(struct dl_phdr_info *info, size_t size, void *arg) {
  check_t *c = arg;
  const char *base = info->dlpi_name ? info->dlpi_name : "";
  for (const char *p = base; *p; p++)
    if (*p == '/')
      base = p + 1;
  bool linker = !hp_strncmp(base, "ld-linux", 8) || !hp_strncmp(base, "ld.so", 5);
  uptr tp;
  __asm__("mov %%fs:0, %0" : "=r"(tp));
  for (u32 i = 0; i < info->dlpi_phnum; i++) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    /* A block below the thread pointer is static TLS, at the same offset
     * in every thread (a dlopen'd module's dynamic TLS is a heap block,
     * which the thread's dtv reaches). */
    if (ph->p_type == PT_TLS && info->dlpi_tls_data &&
        (uptr)info->dlpi_tls_data < tp && ph->p_memsz) {
      uptr r[2] = {(uptr)info->dlpi_tls_data - tp,
                   (uptr)info->dlpi_tls_data - tp + ph->p_memsz};
      hp_buf_append(&c->tls, r, sizeof(r));
    }
    if (linker && ph->p_type == PT_LOAD && (ph->p_flags & PF_X)) {
      c->linker_beg = info->dlpi_addr + ph->p_vaddr;
      c->linker_end = c->linker_beg + ph->p_memsz;
    }
    if (ph->p_type == PT_LOAD && (ph->p_flags & PF_W) && ph->p_memsz) {
      uptr r[2] = {info->dlpi_addr + ph->p_vaddr,
                   info->dlpi_addr + ph->p_vaddr + ph->p_memsz};
      hp_buf_append(&c->globals, r, sizeof(r));
    }
  }
  return 0;
}

static void scan_globals(check_t *c) {
  for (size_t k = 0; k + 2 * sizeof(uptr) <= c->globals.len;
       k += 2 * sizeof(uptr)) {
    uptr r[2];
    hp_memcpy(r, c->globals.data + k, sizeof(r));
    scan_root(c, r[0], r[1]);
  }
}

typedef struct thread_root {
  uptr stack_top, tp;
  u32 tid;
} thread_root_t;

typedef struct threads {
  thread_root_t v[4096];
  u32 n;
  u64 running;
} threads_t;

static void note_thread(hp_thread_t *t, void *arg) {
  threads_t *ts = arg;
  if (t == &hp_fallback_thread)
    return;
  if (ts->n < sizeof(ts->v) / sizeof(ts->v[0]))
    ts->v[ts->n++] = (thread_root_t){t->stack_top, t->tls_tp, t->tid};
}

/* glibc's thread control block (struct pthread) above the thread pointer:
 * 2304 bytes on x86-64, as LeakSanitizer takes it.  It holds the thread's
 * first pthread_setspecific values. */
#define TCB_BYTES 2304

/* [beg, end) but the runtime's own caches in the TLS of the thread whose
 * thread pointer is tp (at the same offsets as in the calling thread's,
 * whose thread pointer is self_tp). */
static void scan_tls_range(check_t *c, uptr beg, uptr end, uptr tp,
                           uptr self_tp) {
  uptr r[HP_STACK_TLS_RANGES][2];
  hp_stack_tls_ranges(r);
  uptr at = beg;
  for (;;) {
    /* The nearest cache at or above at. */
    uptr xb = end, xe = end;
    for (u32 k = 0; k < HP_STACK_TLS_RANGES; k++) {
      uptr b = tp + (r[k][0] - self_tp), e = tp + (r[k][1] - self_tp);
      if (e > at && b < xb) {
        xb = HP_MAX(b, at);
        xe = e;
      }
    }
    scan_root(c, at, HP_MIN(xb, end));
    if (xe >= end)
      return;
    at = xe;
  }
}

/* A thread's static TLS blocks, each module's (not the space glibc keeps
 * spare after them, which holds old words), and its control block; then
 * the vector of its modules' TLS blocks (glibc's dtv, pointed to by the
 * control block's second word; its length is in the entry before it). */
static void scan_tls(check_t *c, uptr tp, uptr self_tp) {
  const mapping_t *m = maps_find(&c->maps, tp);
  if (!m)
    return;
  for (size_t k = 0; k + 2 * sizeof(uptr) <= c->tls.len;
       k += 2 * sizeof(uptr)) {
    uptr r[2];
    hp_memcpy(r, c->tls.data + k, sizeof(r));
    uptr beg = tp + r[0], end = tp + r[1];
    scan_tls_range(c, HP_MAX(beg, m->beg), HP_MIN(end, tp), tp, self_tp);
  }
  scan_root(c, tp, HP_MIN(m->end, tp + TCB_BYTES));
  if (tp + 16 > m->end)
    return;
  uptr dtv = ((const uptr *)tp)[1];
  const mapping_t *d = dtv >= 16 ? maps_find(&c->maps, dtv - 16) : NULL;
  if (!d || dtv + 16 > d->end)
    return;
  u64 len = HP_MIN(((const u64 *)dtv)[-2], 1u << 16);
  scan_root(c, dtv - 16, HP_MIN(d->end, dtv + 16 * (len + 1)));
}

/* The stacks and TLS of every thread with heapprof state; the calling
 * thread's stack from its own frame up (its callee-saved registers spilled
 * there first). */
static void __attribute__((noinline)) thread_roots(check_t *c,
                                                   threads_t *ts) {
  __builtin_unwind_init();
  uptr sp = hp_leaks_stack_from ? hp_leaks_stack_from
                                : (uptr)__builtin_frame_address(0);
  u32 self = (u32)syscall(SYS_gettid);
  if (main_returned_at && self == (u32)getpid())
    sp = HP_MAX(sp, main_returned_at);
  uptr self_tp;
  __asm__("mov %%fs:0, %0" : "=r"(self_tp));
  for (u32 i = 0; i < ts->n; i++) {
    const thread_root_t *t = &ts->v[i];
    const mapping_t *m = t->stack_top ? maps_find(&c->maps, t->stack_top - 1)
                                      : NULL;
    /* Up to the thread's top (the mapping may go on: the kernel merges
     * neighbours alike, and heapprof's own tables hold addresses). */
    if (m)
      scan_root(c, t->tid == self ? HP_MAX(sp, m->beg) : m->beg,
                t->stack_top);
    if (t->tp)
      scan_tls(c, t->tp, self_tp);
    if (t->tid != self)
      ts->running++;
  }
}

/* What the dynamic linker allocated counts as reachable, as under
 * LeakSanitizer: a thread's dtv is pointed to only from its control
 * block, and glibc keeps both, with the stack, in its cache of stacks for
 * the next thread after the thread exited, where no root reaches them. */
static void linker_roots(check_t *c) {
  if (!c->linker_end)
    return;
  for (u64 i = 0; i < c->objs.n; i++) {
    u32 size;
    const uptr *pcs = hp_stackdepot_get(c->objs.v[i].stack_id, &size);
    if (pcs && size && pcs[0] >= c->linker_beg && pcs[0] < c->linker_end &&
        c->objs.v[i].aux == UNREACHED) {
      c->objs.v[i].aux = REACHABLE;
      hp_buf_append(&c->work, &i, sizeof(i));
      drain(c, REACHABLE);
    }
  }
}

typedef struct pending {
  check_t *c;
  u64 n;
} pending_t;

static void pending_arg(uptr arg, void *ctx) {
  pending_t *p = ctx;
  p->n++;
  reach(p->c, arg, REACHABLE);
  drain(p->c, REACHABLE);
}

/* ---------------------------------------------------------------- check */

uptr hp_leaks_stack_from;

static void collect(hp_chunk_header_t *h, uptr user_beg, uptr size,
                    void *arg) {
  hp_liveset_add(arg, user_beg, size, h->alloc_context_id, UNREACHED);
}

static int by_stack(const leak_row_t *a, const leak_row_t *b) {
  return a->stack_id < b->stack_id ? -1 : a->stack_id > b->stack_id;
}

/* One row per context with an unreached object: the objects are sorted by
 * address, so rows are found through a small open-addressed table, then
 * sorted by stack id. */
static bool tally(check_t *c) {
  u64 leaked = 0;
  for (u64 i = 0; i < c->objs.n; i++)
    leaked += c->objs.v[i].aux != REACHABLE;
  u64 cap = 16;
  while (cap < 2 * leaked)
    cap *= 2;
  leak_row_t *rows = leaked ? hp_mmap(cap * sizeof(*rows)) : NULL;
  if (leaked && !rows)
    return false;
  u64 n = 0;
  for (u64 i = 0; i < c->objs.n; i++) {
    const hp_live_obj_t *o = &c->objs.v[i];
    if (o->aux == REACHABLE)
      continue;
    u64 bytes = o->end - o->beg == 1 ? 0 : o->end - o->beg;
    u64 id = o->stack_id + 1; /* 0 marks a free slot */
    u64 s = (id * 0x9E3779B97F4A7C15ull) & (cap - 1);
    while (rows[s].stack_id && rows[s].stack_id != id)
      s = (s + 1) & (cap - 1);
    if (!rows[s].stack_id) {
      rows[s].stack_id = id;
      n++;
    }
    if (o->aux == INDIRECT) {
      rows[s].indirect_objects++;
      rows[s].indirect_bytes += bytes;
      result.indirect_objects++;
      result.indirect_bytes += bytes;
    } else {
      rows[s].direct_objects++;
      rows[s].direct_bytes += bytes;
      result.direct_objects++;
      result.direct_bytes += bytes;
    }
  }
  u64 k = 0;
  for (u64 s = 0; s < (rows ? cap : 0); s++)
    if (rows[s].stack_id) {
      rows[k] = rows[s];
      rows[k++].stack_id--;
    }
  /* Insertion sort: the rows are the contexts that leaked, few. */
  for (u64 i = 1; i < k; i++) {
    leak_row_t r = rows[i];
    u64 j = i;
    for (; j > 0 && by_stack(&rows[j - 1], &r) > 0; j--)
      rows[j] = rows[j - 1];
    rows[j] = r;
  }
  result.rows = rows;
  result.cap = cap;
  result.nrows = n;
  return true;
}

void hp_leaks_forget(void) {
  if (result.rows)
    hp_munmap(result.rows, result.cap * sizeof(leak_row_t));
  hp_memset(&result, 0, sizeof(result));
}

void hp_leaks_check(void) {
  hp_leaks_forget();
  if (!hp_flags.detect_leaks || HP_SAMPLED_MODE())
    return;
  check_t c;
  hp_memset(&c, 0, sizeof(c));
  static threads_t ts; /* under the dump lock */
  ts.n = 0;
  ts.running = 0;
  hp_thread_for_each(note_thread, &ts);
  dl_iterate_phdr(note_globals, &c);
  const char *why = "out of memory";
  bool ok = maps_read(&c.maps, &why) && !c.globals.failed && !c.tls.failed;

  hp_secondary_lock();
  hp_foreign_hold(true);
  hp_for_each_live_chunk_held(collect, &c.objs);
  ok = ok && !c.objs.failed && hp_liveset_sort(&c.objs);
  if (ok && c.objs.n) {
    c.lo = c.objs.v[0].beg;
    for (u64 i = 0; i < c.objs.n; i++)
      c.hi = HP_MAX(c.hi, c.objs.v[i].end);
    scan_globals(&c);
    thread_roots(&c, &ts);
    pending_t pend = {&c, 0};
    hp_thread_pending_args(pending_arg, &pend);
    ts.running += pend.n; /* created, not started: running soon */
    linker_roots(&c);
    /* What no root reaches: each unreached object's pointees are
     * indirect leaks (and theirs). */
    for (u64 i = 0; i < c.objs.n; i++)
      if (c.objs.v[i].aux == UNREACHED) {
        scan_words(&c, c.objs.v[i].beg, c.objs.v[i].end, INDIRECT);
        drain(&c, INDIRECT);
      }
    ok = !c.work.failed;
  }
  hp_foreign_hold(false);
  hp_secondary_unlock();

  if (ok && tally(&c)) {
    result.done = true;
    result.objects = c.objs.n;
    result.root_bytes = c.root_bytes;
    result.threads_running = ts.running;
  } else {
    hp_printf("HeapProf: WARNING: no leak check at exit (%s): the profile's "
              "leak table will list everything live\n",
              why);
  }
  hp_liveset_free(&c.objs);
  hp_buf_free(&c.work);
  hp_buf_free(&c.globals);
  hp_buf_free(&c.tls);
  if (c.maps.v)
    hp_munmap(c.maps.v, c.maps.cap * sizeof(mapping_t));
}

void hp_leaks_write_section(hp_buf_t *b, const hp_profile_info_t *info) {
  if (!result.done)
    return;
  u64 head[HEAD_WORDS] = {HEAD_WORDS,
                          result.objects,
                          result.root_bytes,
                          result.direct_objects,
                          result.direct_bytes,
                          result.indirect_objects,
                          result.indirect_bytes,
                          result.threads_running,
                          ROW_WORDS,
                          result.nrows};
  hp_buf_append(b, head, sizeof(head));
  if (result.nrows)
    hp_buf_append(b, result.rows, result.nrows * sizeof(leak_row_t));
}
