/*===- heapprof_leaks.c - the leak check at exit ------------------------===
 *
 * Part of heapprof.  See heapprof_leaks.h.
 *
 * Marks: two bits per block of heapprof's primary allocator, by the
 * block's index in its region (a word of memory finds its block by
 * arithmetic, then the block's header says whether it is a live chunk and
 * where its bytes are); the large chunks, or another allocator's objects,
 * in an array sorted by address (heapprof_liveset.h) whose aux word is the
 * mark, looked up by search after a test against the lowest and highest
 * address, which discards most words.  Large chunks (and another
 * allocator's objects) are held while the check reads them: their free
 * waits, so nothing it reads is unmapped under it; a primary block freed
 * meanwhile stays mapped and only reads as an object still live.
 *
 * Other threads go on during the dump and the check: the objects judged
 * and counted are the dump's (HP_CHUNK_REPORTED: its walk folded them),
 * so that the check and the records describe the same objects; one
 * allocated since the walk is read if reached, never counted (LATE in a
 * large chunk's or another allocator's entry).
 *===----------------------------------------------------------------------===*/
#include "heapprof_internal.h"
#include "heapprof_coroutine.h"
#include "heapprof_roots.h"
#include "heapprof_ext_sections.h"
#include "heapprof_leaks.h"
#include "heapprof_liveset.h"

#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

/* LEADER: an unreached object whose own scan is marking what it reaches
 * indirect (a lost structure's first object, the leak check's step 5 in
 * design.md); it stays a direct leak unless a later one reaches it. */
enum { UNREACHED = 0, REACHABLE = 1, INDIRECT = 2, LEADER = 3 };
/* In a large chunk's or another allocator's entry (its aux word, beside
 * the mark): allocated after the dump's walk (no HP_CHUNK_REPORTED), so
 * not among the profile's live objects.  See hp_leaks_check. */
#define LATE 4u
#define MARK(aux) ((aux) & 3u)

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

/* The readable mappings of /proc/self/maps, in address order, and the
 * file's text, which is kept mapped until the check ends: the list names
 * the buffer's pages, and a root the program registered and then unmapped
 * (heapprof_roots.h) can hold them, where reading them once the buffer was
 * let go killed the program at exit (a 1 MiB region: SIGSEGV in 3 runs of
 * 6).  What the check maps after the list is not on it, so not read. */
typedef struct maps {
  mapping_t *v;
  u64 n, cap;
  hp_buf_t text;
} maps_t;

/* false with *why when the file cannot be read. */
static bool maps_read(maps_t *m, const char **why) {
  int fd = hp_open_proc_self("maps", O_RDONLY | O_CLOEXEC);
  if (fd < 0 && errno == EMFILE) {
    /* A program may hold every descriptor its soft limit allows. */
    struct rlimit saved;
    if (hp_fd_limit_raise(HP_FD_HEADROOM, &saved)) {
      fd = hp_open_proc_self("maps", O_RDONLY | O_CLOEXEC);
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
  bool ok = hp_buf_read_fd(&m->text, fd);
  close(fd);
  for (const char *p = m->text.data; ok && p && *p;) {
    uptr beg = hp_parse_hex_prefix(&p);
    if (*p != '-')
      break; /* not a mapping's line */
    p++;
    uptr end = hp_parse_hex_prefix(&p);
    bool readable = p[0] == ' ' && p[1] == 'r';
    if (readable && end > beg) {
      if (m->n == m->cap && !hp_array_try_grow((void **)&m->v, &m->cap, m->n,
                                                sizeof(*m->v), 512)) {
        ok = false;
        break;
      }
      m->v[m->n++] = (mapping_t){beg, end};
    }
    p = hp_strchr(p, '\n');
    if (p)
      p++;
  }
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

/* A primary region's marks: 2 bits per block, for the blocks carved when
 * the check began (later ones are not looked at). */
typedef struct region_marks {
  u8 *bits;
  u64 n;
} region_marks_t;

typedef struct check {
  region_marks_t marks[HP_NUM_REGIONS];
  hp_live_set_t objs; /* the rest: large chunks, another allocator's */
  uptr lo, hi; /* objs' lowest beg and highest hp_live_obj_end */
  /* Every word reach can take is in [any_lo, any_lo + any_span): the
   * primary space and [lo, hi).  Most words of data are not (counts,
   * hashes, characters), and scan_run drops those without a call. */
  uptr any_lo, any_span;
  maps_t maps;
  const mapping_t *last_map; /* scan_object's: the last object's mapping */
  hp_buf_t globals; /* uptr pairs: the modules' writable segments */
  hp_buf_t tls;     /* uptr pairs: the modules' static TLS blocks, as
                     * offsets from the thread pointer (every thread's) */
  uptr linker_beg, linker_end; /* the dynamic linker's executable code */
  uptr libc_beg, libc_end; /* the C library's writable segments' span */
  bool in_arena; /* scanning those under allocator=system (reach) */
  uptr stack_lo, stack_hi; /* the runtime's stack the check runs on */
  hp_buf_t work; /* u64 items (below) of objects to scan */
  u64 leader; /* the LEADER whose scan is under way (its item) */
  u64 root_bytes;
  /* The sets of roots the check could not read (their lock stayed busy,
   * hp_spin_lock_patient): said in a warning after the check. */
  bool coroutines_unread, regions_unread;
} check_t;

/* An object on the work list: a primary block, as its region id and
 * index, or objs' entry i with the top bit set. */
#define ITEM_OBJS (1ull << 63)
#define ITEM(region, index) (((u64)(region) << 40) | (index))

static HP_ALWAYS_INLINE u32 mark_of(const check_t *c, u32 r, u64 i) {
  return (c->marks[r].bits[i / 4] >> (2 * (i % 4))) & 3;
}

static HP_ALWAYS_INLINE void mark_set(check_t *c, u32 r, u64 i, u32 m) {
  c->marks[r].bits[i / 4] |= (u8)(m << (2 * (i % 4)));
}

/* A LEADER's mark made INDIRECT: the only mark that is ever lowered. */
static void mark_absorb(check_t *c, u32 r, u64 i) {
  c->marks[r].bits[i / 4] &= (u8)~(1u << (2 * (i % 4)));
}

static void push(check_t *c, u64 item) {
  hp_buf_append(&c->work, &item, sizeof(item));
}

/* A primary block's live chunk: its user bytes, false if it is not one. */
static HP_ALWAYS_INLINE bool block_chunk(u32 r, u64 i, uptr *beg,
                                         uptr *size, u32 *stack_id) {
  uptr block = hp_primary_block_addr(r, i);
  uptr ub = hp_block_user_beg(block, hp_class_size(r));
  const hp_chunk_header_t *h = hp_chunk_header(ub);
  if (h->state != HP_CHUNK_ALLOCATED)
    return false;
  *beg = ub;
  *size = h->requested_size;
  *stack_id = (u32)h->alloc_context_id;
  return true;
}

static void reach(check_t *c, uptr w, u32 mark) {
  u32 r;
  u64 i;
  if (hp_primary_block_index(w, &r, &i)) {
    uptr beg, size;
    u32 id;
    u32 m = i < c->marks[r].n ? mark_of(c, r, i) : REACHABLE;
    if ((m == UNREACHED ||
         (m == LEADER && mark == INDIRECT && c->leader != ITEM(r, i))) &&
        block_chunk(r, i, &beg, &size, &id) && w >= beg &&
        w < beg + (size ? size : 1)) {
      if (m == LEADER) {
        /* An earlier lost structure's first object, reached from this
         * one's: what it reaches is marked already. */
        mark_absorb(c, r, i);
        return;
      }
      mark_set(c, r, i, mark);
      push(c, ITEM(r, i));
    }
    return;
  }
  if (w < c->lo || w >= c->hi)
    return;
  s64 k = hp_liveset_find(&c->objs, w);
  if (k < 0)
    return;
  u32 m = MARK(c->objs.v[k].aux);
  if (m == LEADER && mark == INDIRECT &&
      c->leader != (ITEM_OBJS | (u64)k)) {
    c->objs.v[k].aux = (c->objs.v[k].aux & LATE) | INDIRECT;
    return;
  }
  if (m != UNREACHED)
    return;
  /* glibc's arena, in the C library's data, points at the chunk headers of
   * its top chunk and its bins' free chunks; each lies in the last usable
   * bytes of the live object before it, which such a word kept reachable
   * (4 of 202 leaks were missed). */
  if (HP_UNLIKELY(c->in_arena) &&
      w == hp_foreign_glibc_next_chunk(c->objs.v[k].beg))
    return;
  c->objs.v[k].aux = (c->objs.v[k].aux & LATE) | mark;
  push(c, ITEM_OBJS | (u64)k);
}

static void any_range(check_t *c) {
  uptr beg, end;
  hp_primary_space(&beg, &end);
  if (beg == end) {
    beg = c->lo;
    end = c->hi;
  } else if (c->lo < c->hi) {
    beg = HP_MIN(beg, c->lo);
    end = HP_MAX(end, c->hi);
  }
  c->any_lo = beg;
  c->any_span = end - beg;
}

/* Every aligned word of [beg, end), which must be readable, of the object
 * [obj, obj_end) (for a root, the range itself). An object's pointers into
 * itself do not make it an indirect leak (a std::string's pointer to its
 * own inline buffer, a list head pointing to itself): an indirect leak is
 * one another unreachable object points to. */
static void scan_run(check_t *c, uptr beg, uptr end, uptr obj, uptr obj_end,
                     u32 mark) {
  for (uptr p = HP_ROUND_UP(beg, 8); p + 8 <= end; p += 8) {
    uptr w = *(const uptr *)p;
    if (w - c->any_lo >= c->any_span)
      continue;
    if (mark == INDIRECT && w - obj < obj_end - obj)
      continue;
    reach(c, w, mark);
  }
}

/* Ranges of this many pages or more skip the pages nothing wrote
 * (heapprof_resident.h), which hold no pointer: a 16 GiB buffer of which
 * the program touched two bytes took 16 s to read at exit (and faulted in
 * a page of memory per page read), one that jemalloc reserved for a
 * `new char[1 << 46]` never ended. */
#define SCAN_SKIP_MIN_PAGES 4u

/* scan_run over [beg, end), in a mapping that ends at map_end. */
static void scan_words(check_t *c, uptr beg, uptr end, uptr map_end, uptr obj,
                       uptr obj_end, u32 mark) {
  if (end <= beg || end - beg < SCAN_SKIP_MIN_PAGES * HP_PAGE_SIZE) {
    scan_run(c, beg, end, obj, obj_end, mark);
    return;
  }
  hp_resident_t r;
  hp_resident_init(&r);
  for (uptr p = beg; p < end;) {
    uptr pg = HP_ROUND_DOWN(p, HP_PAGE_SIZE);
    uptr next = HP_MIN(end, pg + HP_PAGE_SIZE);
    if (!hp_page_unwritten(&r, pg, map_end))
      scan_run(c, p, next, obj, obj_end, mark);
    p = next;
  }
}

/* An object's readable parts: a page of it the program protected (a guard
 * page in a posix_memalign'd stack, PROT_NONE) is not read, where reading
 * it killed the program at exit with a SIGSEGV inside heapprof.  The
 * readable mapping of the last object is tried first: objects sit in a few
 * large ones. */
static void scan_object(check_t *c, uptr beg, uptr end, u32 mark) {
  const mapping_t *last = c->last_map;
  if (last && beg >= last->beg && end <= last->end) {
    scan_words(c, beg, end, last->end, beg, end, mark);
    return;
  }
  for (u64 i = maps_from(&c->maps, beg); i < c->maps.n; i++) {
    const mapping_t *m = &c->maps.v[i];
    if (m->beg >= end)
      break;
    c->last_map = m;
    scan_words(c, HP_MAX(beg, m->beg), HP_MIN(end, m->end), m->end, beg, end,
               mark);
  }
}

/* Scans the objects on the work list, and what they reach, marking what
 * they reach with mark. */
static void drain(check_t *c, u32 mark) {
  while (c->work.len >= 8) {
    u64 item;
    c->work.len -= 8;
    hp_memcpy(&item, c->work.data + c->work.len, 8);
    if (item & ITEM_OBJS) {
      const hp_live_obj_t *o = &c->objs.v[item & ~ITEM_OBJS];
      scan_object(c, o->beg, o->end, mark);
    } else {
      uptr beg, size;
      u32 id;
      if (block_chunk((u32)(item >> 40), item & ((1ull << 40) - 1), &beg,
                      &size, &id))
        scan_object(c, beg, beg + size, mark);
    }
  }
}

/* Every live object: fn(c, beg, size, stack id, mark, item, arg), the mark
 * read when the object comes; late: allocated after the dump's walk (no
 * HP_CHUNK_REPORTED), not one of the profile's live objects. */
typedef void object_fn(check_t *c, uptr beg, uptr size, u32 stack_id,
                       u32 mark, bool late, u64 item, void *arg);

typedef struct object_walk {
  check_t *c;
  object_fn *fn;
  void *arg;
} object_walk_t;

static void walk_block(uptr block, u32 size, void *arg) {
  object_walk_t *w = arg;
  u32 r;
  u64 i;
  uptr beg, bytes;
  u32 id;
  if (hp_primary_block_index(block, &r, &i) && i < w->c->marks[r].n &&
      block_chunk(r, i, &beg, &bytes, &id))
    w->fn(w->c, beg, bytes, id, mark_of(w->c, r, i),
          !(hp_chunk_header(beg)->flags & HP_CHUNK_REPORTED), ITEM(r, i),
          w->arg);
}

static void for_each_object(check_t *c, object_fn *fn, void *arg) {
  object_walk_t w = {c, fn, arg};
  hp_primary_for_each_block(walk_block, &w);
  for (u64 k = 0; k < c->objs.n; k++) {
    const hp_live_obj_t *o = &c->objs.v[k];
    fn(c, o->beg, o->end - o->beg, o->stack_id, MARK(o->aux),
       (o->aux & LATE) != 0, ITEM_OBJS | k, arg);
  }
}

static void item_mark(check_t *c, u64 item, u32 mark) {
  if (item & ITEM_OBJS)
    c->objs.v[item & ~ITEM_OBJS].aux =
        (c->objs.v[item & ~ITEM_OBJS].aux & LATE) | mark;
  else
    mark_set(c, (u32)(item >> 40), item & ((1ull << 40) - 1), mark);
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
    scan_words(c, b, e, m->end, b, e, REACHABLE);
    drain(c, REACHABLE);
  }
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
  bool linker =
      !hp_strncmp(base, "ld-linux", 8) || !hp_strncmp(base, "ld.so", 5);
  uptr tp = hp_thread_pointer();
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
      if (!hp_strncmp(base, "libc.so", 7)) {
        c->libc_beg = c->libc_beg ? HP_MIN(c->libc_beg, r[0]) : r[0];
        c->libc_end = HP_MAX(c->libc_end, r[1]);
      }
    }
  }
  return 0;
}

/* The runtime's own globals (heapprof_internal.h): this module's copy of
 * the two sections, whichever module it is linked into. */
extern char __start_heapprof_bss[] __attribute__((weak, visibility("hidden")));
extern char __stop_heapprof_bss[] __attribute__((weak, visibility("hidden")));
extern char __start_heapprof_data[] __attribute__((weak, visibility("hidden")));
extern char __stop_heapprof_data[] __attribute__((weak, visibility("hidden")));

/* [beg, end) as a root, but the runtime's own globals. */
static void scan_root_but_runtime(check_t *c, uptr beg, uptr end) {
  uptr own[2][2] = {{(uptr)__start_heapprof_data, (uptr)__stop_heapprof_data},
                    {(uptr)__start_heapprof_bss, (uptr)__stop_heapprof_bss}};
  if (own[0][0] > own[1][0]) {
    uptr t0 = own[0][0], t1 = own[0][1];
    own[0][0] = own[1][0];
    own[0][1] = own[1][1];
    own[1][0] = t0;
    own[1][1] = t1;
  }
  for (int k = 0; k < 2 && beg < end; k++) {
    if (own[k][0] >= own[k][1] || own[k][1] <= beg || own[k][0] >= end)
      continue;
    scan_root(c, beg, own[k][0]);
    beg = HP_MAX(beg, own[k][1]);
  }
  scan_root(c, beg, end);
}

static void scan_globals(check_t *c) {
  for (size_t k = 0; k + 2 * sizeof(uptr) <= c->globals.len;
       k += 2 * sizeof(uptr)) {
    uptr r[2];
    hp_memcpy(r, c->globals.data + k, sizeof(r));
    c->in_arena = r[0] >= c->libc_beg && r[1] <= c->libc_end;
    scan_root_but_runtime(c, r[0], r[1]);
    c->in_arena = false;
  }
}

typedef struct thread_root {
  uptr stack_top, stack_bottom, tp;
  u32 tid;
} thread_root_t;

/* Every thread's roots, in an mmap'd array that grows (a fixed 4096 left
 * the rest unscanned, the exiting thread among them: with 4200 threads,
 * main's stack and TLS were no roots and their objects leaks). */
typedef struct threads {
  thread_root_t *v;
  u64 n, cap;
  bool failed; /* out of memory: no check rather than a partial one */
  u64 running;
} threads_t;

static void note_thread(hp_thread_t *t, void *arg) {
  threads_t *ts = arg;
  if (t == &hp_fallback_thread || ts->failed)
    return;
  if (ts->n == ts->cap &&
      !hp_array_try_grow((void **)&ts->v, &ts->cap, ts->n, sizeof(*ts->v),
                         256)) {
    ts->failed = true;
    return;
  }
  ts->v[ts->n++] =
      (thread_root_t){t->stack_top, t->stack_bottom, t->tls_tp, t->tid};
}

/* glibc's thread control block (struct pthread) above the thread pointer:
 * 2304 bytes on x86-64, as LeakSanitizer takes it.  It holds the thread's
 * first pthread_setspecific values. */
#define TCB_BYTES 2304

/* A thread's static TLS blocks, each module's (not the space glibc keeps
 * spare after them, which holds old words), and its control block; then
 * the vector of its modules' TLS blocks (glibc's dtv, pointed to by the
 * control block's second word; its length is in the entry before it). */
static void scan_tls(check_t *c, uptr tp) {
  const mapping_t *m = maps_find(&c->maps, tp);
  if (!m)
    return;
  for (size_t k = 0; k + 2 * sizeof(uptr) <= c->tls.len;
       k += 2 * sizeof(uptr)) {
    uptr r[2];
    hp_memcpy(r, c->tls.data + k, sizeof(r));
    uptr beg = tp + r[0], end = tp + r[1];
    scan_root(c, HP_MAX(beg, m->beg), HP_MIN(end, tp));
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

/* The block the kernel put above the main thread's first frame: argc,
 * the argv and envp arrays, the auxiliary vector and their strings, from
 * __libc_stack_end to the end of the stack's mapping (the stack is a
 * mapping of its own: the kernel does not merge it with a neighbour). A
 * program that rewrites its argv in place, as setproctitle does (Redis,
 * PostgreSQL, nginx), keeps heap copies of the strings only there. */
extern void *__libc_stack_end;

static void scan_startup_block(check_t *c) {
  uptr beg = (uptr)__libc_stack_end;
  const mapping_t *m = beg ? maps_find(&c->maps, beg) : NULL;
  if (m)
    scan_root(c, beg, m->end);
}

/* The live object holding a, [*beg, *end), and its mark's place (*r, *i
 * of a primary block; else *k, its index in the sorted objects); false if
 * there is none. */
static bool object_holding(check_t *c, uptr a, uptr *beg, uptr *end, u32 *r,
                           u64 *i, s64 *k) {
  *k = -1;
  if (hp_primary_block_index(a, r, i)) {
    uptr b, size;
    u32 id;
    if (*i >= c->marks[*r].n || !block_chunk(*r, *i, &b, &size, &id) ||
        a < b || a >= b + size)
      return false;
    *beg = b;
    *end = b + size;
    return true;
  }
  if (a < c->lo || a >= c->hi)
    return false;
  *k = hp_liveset_find(&c->objs, a);
  if (*k < 0)
    return false;
  *beg = c->objs.v[*k].beg;
  *end = c->objs.v[*k].end;
  return true;
}

/* The live object holding a, [*beg, *end): marked reachable, not put on
 * the work list (its words are not read whole); false if there is none. */
static bool object_in_use(check_t *c, uptr a, uptr *beg, uptr *end) {
  u32 r;
  u64 i;
  s64 k;
  if (!object_holding(c, a, beg, end, &r, &i, &k))
    return false;
  if (k >= 0)
    c->objs.v[k].aux = (c->objs.v[k].aux & LATE) | REACHABLE;
  else if (mark_of(c, r, i) == UNREACHED)
    mark_set(c, r, i, REACHABLE);
  return true;
}

/* How far below a coroutine stack's end makecontext may put
 * __start_context's address: the arguments past the sixth go above it. */
enum { TOP_WORDS = 256 };

/* The end of the noted stack holding sp whose top holds the return
 * address found at top (heapprof_coroutine.h), or 0. */
typedef struct noted_end {
  uptr sp, top, end;
} noted_end_t;

static void noted_end_of(uptr beg, uptr end, void *arg) {
  noted_end_t *n = arg;
  if (n->sp >= beg && n->top < end && end - n->top <= TOP_WORDS * 8)
    n->end = end;
}

/* The exiting thread runs at sp on a stack that is not its own: a
 * coroutine's (makecontext'd, or switched to by hand), mmap'd, malloc'd
 * or a global array, or a sigaltstack.  Its live frames are [sp, the
 * stack's end), and that end is the first of: the end of the live object
 * holding sp (a malloc'd stack: the object is in use, so reachable, but
 * its words below sp are dead frames', not read: read whole, they kept 10
 * objects the coroutine had dropped reachable); the end of the
 * sigaltstack sp is on; when the return address makecontext put near the
 * top (__start_context's) is there, the end of the stack makecontext was
 * given, noted (else the two words above that address: uc_link, with 6
 * arguments or fewer); the end of the readable mapping (the kernel merges a mapping with a neighbour alike, mapped before it:
 * 256 KiB of another mapping went on above an mmap'd coroutine stack
 * here, under heapprof's allocator and glibc's).  Found before any root
 * is read, so that a pointer to the object holding the stack, in a root
 * or in the stack's own frames, does not read it whole. */
static void foreign_stack(check_t *c, uptr sp, uptr *beg, uptr *end) {
  *beg = *end = 0;
  const mapping_t *m = maps_find(&c->maps, sp);
  if (!m)
    return;
  uptr e = m->end, ob, oe;
  if (object_in_use(c, sp, &ob, &oe))
    e = HP_MIN(e, oe);
  stack_t ss;
  /* sigaltstack may be a call the program's seccomp filter kills. */
  if (!hp_in_sandbox() && sigaltstack(NULL, &ss) == 0 &&
      !(ss.ss_flags & SS_DISABLE) && sp >= (uptr)ss.ss_sp &&
      sp - (uptr)ss.ss_sp < ss.ss_size)
    e = HP_MIN(e, (uptr)ss.ss_sp + ss.ss_size);
  uptr ret = hp_coroutine_start_return();
  for (uptr p = HP_ROUND_UP(sp, 8); ret && p + 8 <= e; p += 8)
    if (*(const uptr *)p == ret) {
      /* To the end of the stack makecontext was given: above the address
       * are the arguments past the sixth (the running function's own, in
       * its caller's frame), then uc_link.  Read to two words above it, a
       * pointer passed as the eighth argument was a leak. */
      noted_end_t n = {sp, p, 0};
      /* Once the set's lock was given up on, not waited for again. */
      c->coroutines_unread = c->coroutines_unread ||
                             !hp_coroutine_stacks_for_each(noted_end_of, &n);
      e = HP_MIN(e, n.end ? n.end : p + 2 * sizeof(uptr));
      break;
    }
  *beg = sp;
  *end = e;
}

/* The coroutine ran to its end: its function returned to
 * __start_context, which moved the stack pointer to uc_link's word and
 * called setcontext, and that call's return address (inside
 * __start_context, after a 5-byte call) went on the word below uc_link:
 * over __start_context's address itself when makecontext had 6 arguments
 * or fewer (no top is found then), over the last argument otherwise.  Its
 * stack holds only dead frames (read, 10 coroutines made with 8 arguments
 * that returned hid the 1000 objects they had leaked). */
static bool coroutine_returned(check_t *c, uptr ret, uptr top, uptr end) {
  const mapping_t *code = maps_find(&c->maps, ret);
  for (uptr p = top + 8; code && p + 8 <= end; p += 8) {
    uptr w = *(const uptr *)p;
    if (w >= ret + 5 && w < ret + 64 && w <= code->end &&
        *(const u8 *)(w - 5) == 0xe8)
      return true;
  }
  return false;
}

/* The stacks makecontext started coroutines on (heapprof_coroutine.h)
 * but the one the exiting thread runs on (foreign_stack's): a coroutine
 * switched out, or one another thread is parked on, holds objects in its
 * frames.  Its stack pointer is not known (it is in a context somewhere),
 * so the stack is read whole, from its start to its end: dead frames too,
 * which can only keep an object reachable.  Above the return address
 * makecontext put near the top are the arguments past the sixth, then
 * uc_link (and at most a word of alignment): a pointer passed as the
 * eighth argument is only there, in the called function's frame once it
 * runs (read up to two words above the address, 10 such arguments of
 * coroutines not yet run were 10 leaks).  Not one whose top no longer
 * holds that address (the program unmapped or reused the memory: where
 * the address is, found within the words makecontext may put above it
 * for arguments past the sixth), nor one inside a live object (a malloc'd
 * stack is an object of its own, read whole when something holds it) or
 * a block of heapprof's heap at all (a malloc'd stack freed keeps the
 * address, and its stale words would hide leaks), nor one whose
 * coroutine returned (coroutine_returned), nor one in the exiting
 * thread's own stack: above its stack pointer that is read already, and
 * below it dead (a local array of a function that returned, whose lower
 * 64 KiB a coroutine had switched out of holding 100 objects: read, they
 * were no leaks), or the thread is on another stack and all of its own
 * is read. */
typedef struct coroutine_roots {
  check_t *c;
  uptr ret, exit_sp;
  uptr own_beg, own_end; /* the exiting thread's own stack */
} coroutine_roots_t;

static void coroutine_root(uptr beg, uptr end, void *arg) {
  coroutine_roots_t *cr = arg;
  check_t *c = cr->c;
  if (end - beg < 64 || (cr->exit_sp >= beg && cr->exit_sp < end) ||
      (end - 8 >= cr->own_beg && end - 8 < cr->own_end))
    return;
  const mapping_t *m = maps_find(&c->maps, end - 8);
  if (!m)
    return;
  uptr lo = HP_MAX(HP_MAX(m->beg, beg), end - TOP_WORDS * 8);
  uptr top = 0;
  for (uptr p = (end - 8) & ~(uptr)7; p >= lo; p -= 8)
    if (*(const uptr *)p == cr->ret) {
      top = p;
      break;
    }
  uptr ob, oe;
  u64 i;
  u32 r;
  s64 k;
  if (!top || object_holding(c, top, &ob, &oe, &r, &i, &k) ||
      hp_primary_block_index(top, &r, &i) ||
      coroutine_returned(c, cr->ret, top, end))
    return;
  scan_root_but_runtime(c, HP_MAX(beg, m->beg), end);
}

/* The stacks and TLS of every thread with heapprof state; the calling
 * thread's stack from where the exit path said, else from its own frame
 * up (its callee-saved registers spilled there first). Read before any
 * other root (foreign_stack). */
static void __attribute__((noinline)) thread_roots(check_t *c,
                                                   threads_t *ts) {
  uptr sp = hp_leaks_stack_from;
  if (!sp)
    HP_LEAKS_FRAME_WITH_REGS(sp);
  u32 self = (u32)syscall(SYS_gettid);
  uptr exit_sp = sp;
  if (hp_main_returned_at && self == (u32)getpid())
    sp = HP_MAX(sp, hp_main_returned_at);
  bool self_listed = false;
  uptr fbeg = 0, fend = 0; /* the exiting thread's other stack, if on one */
  coroutine_roots_t cr = {c, 0, exit_sp, 0, 0};
  for (u64 i = 0; i < ts->n; i++) {
    const thread_root_t *t = &ts->v[i];
    self_listed |= t->tid == self;
    if (t->tid != self)
      continue;
    const mapping_t *m = t->stack_top ? maps_find(&c->maps, t->stack_top - 1)
                                      : NULL;
    if (!m)
      continue;
    /* On its own stack: its mapping (up to the top: above it the main
     * thread's argv and environment, a thread's control block), or the
     * stack the program gave it. */
    uptr lo = HP_MAX(m->beg, t->stack_bottom);
    bool own = (exit_sp >= lo && exit_sp < t->stack_top) ||
               (!t->stack_bottom && exit_sp >= m->beg && exit_sp < m->end);
    cr.own_beg = lo;
    cr.own_end = t->stack_top;
    if (!own)
      foreign_stack(c, exit_sp, &fbeg, &fend);
  }
  for (u64 i = 0; i < ts->n; i++) {
    const thread_root_t *t = &ts->v[i];
    const mapping_t *m = t->stack_top ? maps_find(&c->maps, t->stack_top - 1)
                                      : NULL;
    /* Up to the thread's top (the mapping may go on: the kernel merges
     * neighbours alike, and heapprof's own tables hold addresses); from
     * the bottom of a stack the program gave, whose mapping is the heap's
     * or the program's own below it (10 leaked 64 KiB blocks below a
     * malloc'd stack were read as its roots, and the objects they alone
     * held as reachable).  The exiting thread's from its stack pointer,
     * unless that is on another stack: then all of it, as another
     * thread's (where its frames stopped when it switched is not known),
     * and the other stack from the stack pointer up (5000 objects a
     * coroutine held in a local array when it called exit were leaks). */
    if (m)
      scan_root(c,
                t->tid == self && (!fend || sp != exit_sp)
                    ? HP_MAX(sp, m->beg)
                    : HP_MAX(m->beg, t->stack_bottom),
                t->stack_top);
    if (t->tp)
      scan_tls(c, t->tp);
    if (t->tid != self)
      ts->running++;
  }
  /* A thread without a state of its own (it shares the fallback: its own
   * could not be mapped) is in no list; when it is the one exiting, its
   * stack, to its mapping's end (above a thread's stack glibc keeps its
   * control block and TLS), and its TLS are roots all the same: an object
   * only its stack held was a leak.  Other such threads stay unscanned. */
  if (!self_listed) {
    const mapping_t *m = maps_find(&c->maps, sp);
    if (m)
      scan_root(c, sp, m->end);
    scan_tls(c, hp_thread_pointer());
  }
  /* Cut out heapprof's own globals: a coroutine stack in the program's
   * .bss has them in its mapping, the runtime linked in. */
  scan_root_but_runtime(c, fbeg, fend);
  cr.ret = hp_coroutine_start_return();
  if (cr.ret)
    c->coroutines_unread = c->coroutines_unread ||
                           !hp_coroutine_stacks_for_each(coroutine_root, &cr);
}

/* What the dynamic linker allocated counts as reachable, as under
 * LeakSanitizer: a thread's dtv is pointed to only from its control
 * block, and glibc keeps both, with the stack, in its cache of stacks for
 * the next thread after the thread exited, where no root reaches them.
 * The contexts whose allocation site is in the linker are found in the
 * stack depot first (ids are 1, 2, ... and few), so a program whose
 * linker allocated nothing costs no walk of its objects. */
typedef struct linker_ids {
  u8 *is; /* a byte per stack id */
  u64 n;
} linker_ids_t;

static void linker_object(check_t *c, uptr beg, uptr size, u32 stack_id,
                          u32 mark, bool late, u64 item, void *arg) {
  const linker_ids_t *l = arg;
  if (mark == UNREACHED && stack_id < l->n && l->is[stack_id]) {
    item_mark(c, item, REACHABLE);
    push(c, item);
    drain(c, REACHABLE);
  }
}

static void linker_roots(check_t *c) {
  if (!c->linker_end)
    return;
  linker_ids_t l = {NULL, (u64)hp_stackdepot_count() + 1};
  bool any = false;
  for (u64 id = 1; id < l.n; id++) {
    u32 n;
    uptr pcs[HP_MAX_STACK_DEPTH];
    if (!hp_stackdepot_get((u32)id, pcs, &n) || !n ||
        pcs[0] < c->linker_beg || pcs[0] >= c->linker_end)
      continue;
    if (!l.is && !(l.is = hp_mmap(l.n)))
      return; /* out of memory: the linker's objects may read as leaked */
    l.is[id] = 1;
    any = true;
  }
  if (any)
    for_each_object(c, linker_object, &l);
  if (l.is)
    hp_munmap(l.is, l.n);
}

/* The regions the program registered (heapprof_roots.h), their readable
 * parts, but the runtime's own globals and the stack the check runs on.
 * That stack is mapped at the first dump, the exit's in most programs,
 * and can land where a region the program unmapped without unregistering
 * it was: its frames hold the addresses the check works on (under
 * allocator=system, 5 of 100 objects whose only pointers were in such a
 * region read as reachable). */
static void registered_root(uptr beg, uptr end, void *arg) {
  check_t *c = arg;
  if (c->stack_lo < c->stack_hi && c->stack_lo < end && c->stack_hi > beg) {
    scan_root_but_runtime(c, beg, HP_MAX(beg, c->stack_lo));
    scan_root_but_runtime(c, HP_MIN(end, c->stack_hi), end);
    return;
  }
  scan_root_but_runtime(c, beg, end);
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
  hp_liveset_add(arg, user_beg, size, (u32)h->alloc_context_id,
                 h->flags & HP_CHUNK_REPORTED ? UNREACHED : LATE);
}

/* What no root reaches: each unreached object's pointees are indirect
 * leaks (and theirs).  As Valgrind's leak check does, an object still
 * unreached when its turn comes leads: what it reaches, transitively,
 * is indirect, itself included when it lies on a cycle, except that the
 * leader stays direct, and a leader a later one reaches becomes indirect.
 * So every lost structure keeps one direct object: its only one that
 * nothing unreached points to, or, when all of its objects are pointed to
 * (a tree whose nodes point to their parent, a doubly linked list), the
 * first in the walk's order.  Marking every object of a cycle indirect,
 * as LeakSanitizer does, left a lost libxml2 document (its nodes point to
 * the document and to their parents) with no direct leak at all. */
static void lead(check_t *c, uptr beg, uptr size, u64 item) {
  item_mark(c, item, LEADER);
  c->leader = item;
  scan_object(c, beg, beg + size, INDIRECT);
  drain(c, INDIRECT);
}

/* An object allocated since the dump's walk (late) leads nothing: it is
 * in no record, and a structure it alone led would have no direct leak
 * the profile counts; it is marked if a leader reaches it. */
static void indirect_from(check_t *c, uptr beg, uptr size, u32 stack_id,
                          u32 mark, bool late, u64 item, void *arg) {
  if (mark == UNREACHED && !late)
    lead(c, beg, size, item);
}

/* The walk's order, for indirect_from: the unreached objects by stack id
 * (a counting sort), which the depot hands out in the order of first
 * appearance, so the first object of a lost structure is, as a rule, of the
 * context that built the structure: a document before its nodes, a list's
 * head before the nodes it links.  Within a context, the walk's order.
 * Ids handed out since the check began share the last bucket; an object
 * another thread allocated between the counting and the placing walks
 * finds its bucket full and is left out, unreached: a direct leak, as an
 * unreached object is without a leader's walk. */
typedef struct by_id {
  u64 *at, *end; /* per bucket: the next free slot, the bucket's end */
  u64 *items;
  u64 nids, n;
} by_id_t;

static HP_ALWAYS_INLINE u64 bucket_of(const by_id_t *b, u32 stack_id) {
  return stack_id < b->nids ? stack_id : b->nids;
}

static void count_unreached(check_t *c, uptr beg, uptr size, u32 stack_id,
                            u32 mark, bool late, u64 item, void *arg) {
  by_id_t *b = arg;
  if (mark == UNREACHED && !late) {
    b->at[bucket_of(b, stack_id)]++;
    b->n++;
  }
}

static void place_unreached(check_t *c, uptr beg, uptr size, u32 stack_id,
                            u32 mark, bool late, u64 item, void *arg) {
  by_id_t *b = arg;
  u64 k = bucket_of(b, stack_id);
  if (mark == UNREACHED && !late && b->at[k] < b->end[k])
    b->items[b->at[k]++] = item;
}

/* The object of an item: false if it is no longer a live chunk. */
static bool item_object(check_t *c, u64 item, uptr *beg, uptr *size,
                        u32 *mark) {
  if (item & ITEM_OBJS) {
    const hp_live_obj_t *o = &c->objs.v[item & ~ITEM_OBJS];
    *beg = o->beg;
    *size = o->end - o->beg;
    *mark = MARK(o->aux);
    return true;
  }
  u32 r = (u32)(item >> 40), id;
  u64 i = item & ((1ull << 40) - 1);
  *mark = mark_of(c, r, i);
  return block_chunk(r, i, beg, size, &id);
}

static void indirect_leaks(check_t *c) {
  by_id_t b = {0};
  b.nids = (u64)hp_stackdepot_count() + 1;
  u64 words = 2 * (b.nids + 1);
  b.at = hp_mmap(words * sizeof(u64));
  if (b.at) {
    b.end = b.at + b.nids + 1;
    for_each_object(c, count_unreached, &b);
  }
  b.items = b.at && b.n ? hp_mmap(b.n * sizeof(u64)) : NULL;
  if (!b.items) {
    if (b.at)
      hp_munmap(b.at, words * sizeof(u64));
    /* Out of memory: the walk's own order (nothing unreached: no walk). */
    if (!b.at || b.n)
      for_each_object(c, indirect_from, NULL);
    return;
  }
  u64 at = 0;
  for (u64 k = 0; k <= b.nids; k++) {
    u64 n = b.at[k];
    b.at[k] = at;
    at += n;
    b.end[k] = at;
  }
  for_each_object(c, place_unreached, &b);
  for (u64 k = 0; k <= b.nids; k++)
    for (u64 j = k ? b.end[k - 1] : 0; j < b.at[k]; j++) {
      uptr beg, size;
      u32 mark;
      if (item_object(c, b.items[j], &beg, &size, &mark) && mark == UNREACHED)
        lead(c, beg, size, b.items[j]);
    }
  hp_munmap(b.items, b.n * sizeof(u64));
  hp_munmap(b.at, words * sizeof(u64));
}

static int by_stack(const leak_row_t *a, const leak_row_t *b) {
  return a->stack_id < b->stack_id ? -1 : a->stack_id > b->stack_id;
}

/* One row per context with an unreached object, through a small
 * open-addressed table (grown by doubling), then sorted by stack id. */
typedef struct tally {
  leak_row_t *rows;
  u64 cap, n;
  bool failed;
} tally_t;

static leak_row_t *row_of(tally_t *t, u32 stack_id) {
  u64 id = (u64)stack_id + 1; /* 0 marks a free slot */
  for (;;) {
    if (2 * (t->n + 1) > t->cap) {
      u64 cap = t->cap ? t->cap * 2 : 64;
      leak_row_t *rows = t->failed ? NULL : hp_mmap(cap * sizeof(*rows));
      if (!rows) {
        t->failed = true;
        return NULL;
      }
      for (u64 s = 0; s < t->cap; s++) {
        if (!t->rows[s].stack_id)
          continue;
        u64 d = (t->rows[s].stack_id * 0x9E3779B97F4A7C15ull) & (cap - 1);
        while (rows[d].stack_id)
          d = (d + 1) & (cap - 1);
        rows[d] = t->rows[s];
      }
      if (t->rows)
        hp_munmap(t->rows, t->cap * sizeof(*rows));
      t->rows = rows;
      t->cap = cap;
    }
    u64 s = (id * 0x9E3779B97F4A7C15ull) & (t->cap - 1);
    while (t->rows[s].stack_id && t->rows[s].stack_id != id)
      s = (s + 1) & (t->cap - 1);
    if (t->rows[s].stack_id)
      return &t->rows[s];
    t->rows[s].stack_id = id;
    t->n++;
    return &t->rows[s];
  }
}

static void tally_object(check_t *c, uptr beg, uptr size, u32 stack_id,
                         u32 mark, bool late, u64 item, void *arg) {
  tally_t *t = arg;
  if (late || mark == REACHABLE)
    return;
  leak_row_t *row = row_of(t, stack_id);
  if (!row)
    return;
  /* A 0-byte object counts 1 byte, as in every other count of the profile
   * (TotalSize, live_bytes) and in LeakSanitizer's report: the report's
   * memory still reachable is the live bytes less these, and 1000 leaked
   * malloc(0)s counted 0 left it 1000 bytes too high. */
  size = size ? size : 1;
  if (mark == INDIRECT) {
    row->indirect_objects++;
    row->indirect_bytes += size;
    result.indirect_objects++;
    result.indirect_bytes += size;
  } else {
    row->direct_objects++;
    row->direct_bytes += size;
    result.direct_objects++;
    result.direct_bytes += size;
  }
}

static bool tally(check_t *c) {
  tally_t t = {0};
  for_each_object(c, tally_object, &t);
  if (t.failed) {
    if (t.rows)
      hp_munmap(t.rows, t.cap * sizeof(leak_row_t));
    return false;
  }
  u64 k = 0;
  for (u64 s = 0; s < t.cap; s++)
    if (t.rows[s].stack_id) {
      t.rows[k] = t.rows[s];
      t.rows[k++].stack_id--;
    }
  /* Insertion sort: the rows are the contexts that leaked, few. */
  for (u64 i = 1; i < k; i++) {
    leak_row_t r = t.rows[i];
    u64 j = i;
    for (; j > 0 && by_stack(&t.rows[j - 1], &r) > 0; j--)
      t.rows[j] = t.rows[j - 1];
    t.rows[j] = r;
  }
  result.rows = t.rows;
  result.cap = t.cap;
  result.nrows = k;
  return true;
}

/* Two bits per block carved so far in each region of heapprof's primary
 * allocator (none with another allocator's). */
static bool marks_map(check_t *c) {
  for (u32 r = 1; r < HP_NUM_REGIONS; r++) {
    if (r == HP_NUM_CLASSES)
      continue;
    u64 n = hp_primary_region_blocks(r);
    if (!n)
      continue;
    c->marks[r].bits = hp_mmap((n + 3) / 4);
    if (!c->marks[r].bits)
      return false;
    c->marks[r].n = n;
  }
  return true;
}

static void marks_unmap(check_t *c) {
  for (u32 r = 1; r < HP_NUM_REGIONS; r++)
    if (c->marks[r].bits)
      hp_munmap(c->marks[r].bits, (c->marks[r].n + 3) / 4);
}

void hp_leaks_forget(void) {
  if (result.rows)
    hp_munmap(result.rows, result.cap * sizeof(leak_row_t));
  hp_memset(&result, 0, sizeof(result));
}

void hp_leaks_check(const hp_own_stack_t *stack, u64 live_objects) {
  hp_leaks_forget();
  if (!hp_flags.detect_leaks || HP_SAMPLED_MODE())
    return;
  check_t c;
  hp_memset(&c, 0, sizeof(c));
  if (stack && hp_own_stack_has(stack, (uptr)__builtin_frame_address(0))) {
    c.stack_lo = (uptr)stack->lo;
    c.stack_hi = (uptr)stack->lo + stack->size;
  }
  threads_t ts;
  hp_memset(&ts, 0, sizeof(ts));
  hp_thread_for_each(note_thread, &ts);
  dl_iterate_phdr(note_globals, &c);
  const char *why = "out of memory";
  bool ok = maps_read(&c.maps, &why) && !c.globals.failed && !c.tls.failed &&
            !ts.failed;

  hp_secondary_lock();
  hp_foreign_hold(true);
  hp_for_each_live_nonprimary_held(collect, &c.objs);
  ok = ok && !c.objs.failed && hp_liveset_sort(&c.objs) && marks_map(&c);
  if (ok) {
    if (c.objs.n)
      c.lo = c.objs.v[0].beg;
    for (u64 i = 0; i < c.objs.n; i++)
      c.hi = HP_MAX(c.hi, hp_live_obj_end(&c.objs.v[i]));
    any_range(&c);
    thread_roots(&c, &ts);
    scan_globals(&c);
    scan_startup_block(&c);
    pending_t pend = {&c, 0};
    hp_thread_pending_args(pending_arg, &pend);
    ts.running += pend.n; /* created, not started: running soon */
    linker_roots(&c);
    c.regions_unread = !hp_roots_for_each(registered_root, &c);
    indirect_leaks(&c);
    ok = !c.work.failed && tally(&c);
  }
  hp_foreign_hold(false);
  hp_secondary_unlock();

  if (ok && (c.coroutines_unread || c.regions_unread))
    hp_printf("HeapProf: WARNING: leak check at exit: %s were not read "
              "(their list stayed locked for 1 s); objects only they point "
              "to are listed as leaked\n",
              !c.regions_unread ? "the noted coroutine stacks"
              : !c.coroutines_unread
                  ? "the registered root regions"
                  : "the noted coroutine stacks and the registered root "
                    "regions");
  if (ok) {
    result.done = true;
    result.objects = live_objects;
    result.root_bytes = c.root_bytes;
    result.threads_running = ts.running;
  } else {
    hp_printf("HeapProf: WARNING: no leak check at exit (%s): the profile's "
              "leak table will list everything live\n",
              why);
  }
  marks_unmap(&c);
  if (ts.v)
    hp_munmap(ts.v, ts.cap * sizeof(*ts.v));
  hp_liveset_free(&c.objs);
  hp_buf_free(&c.work);
  hp_buf_free(&c.globals);
  hp_buf_free(&c.tls);
  if (c.maps.v)
    hp_munmap(c.maps.v, c.maps.cap * sizeof(mapping_t));
  hp_buf_free(&c.maps.text);
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
