/*===- heapprof_merge.c - many raw profiles into one --------------------===
 *
 * Part of heapprof's tools.
 *
 *   heapprof merge -o OUT PROFILE|DIR...
 *
 * Adds up the dumps of many processes (or the checkpoints of one) of the
 * same binary into one raw profile (one dump, MemProf raw version 4 with
 * heapprof's extension version 3) that llvm-profdata 19 reads.  No
 * symbolization: contexts are matched by their PCs made module-relative.
 *
 *   layout   the first process's modules (its first dump's segments) keep
 *            their addresses; a module another process has (same build id,
 *            or same path when there is no build id) takes the layout's
 *            bias; a module only later processes have is added, moved past
 *            the layout's end if its addresses overlap it.  The modules
 *            dlclose unloaded before a dump (section 11) join the layout
 *            after that dump's loaded ones, as modules of the output.  A PC
 *            in no known segment, or in a module with neither build id nor
 *            path, is kept as it is.
 *   contexts one per translated PC sequence, new stack ids 1, 2, ... in
 *            order of first appearance (inputs in the order given, a
 *            directory's .profraw files by name, a process's dumps by
 *            checkpoint number, the exit dump last).
 *   MIBs     merged by the runtime's rule (heapprof_hib.c): totals add,
 *            per-object ranges come from records that count objects.  Since
 *            each dump holds deltas, the sums count every object once.
 *   extension fields add up, except max_size64 (the largest) and the state
 *            at a dump (the fields named live_*: live_at_dump, live_bytes,
 *            live_bytes_<class>, the live_lines ... live_page_bytes of heap
 *            utilization): those
 *            come from each process's last dump, added over the processes;
 *            and continuations, less the objects live at each dump but a
 *            process's last: those of one dump of the whole run (the
 *            objects inherited at fork), so that allocs + continuations -
 *            live_at_dump is the frees, in a merge as in the dumps.
 *   sections the allocator profiler's cost sections (2 op classes, 3 system
 *            calls, 4 PMU events) add up row by row (heapprof_opcost.c).
 *            Heap utilization (tag 7): each process's last dump's words,
 *            added.  False sharing (tag 6): each process's last dump's
 *            totals, added; its pairs' stack ids translated to the merged
 *            contexts (through the process's records in any dump) and
 *            pairs of the same two contexts added; all of one layout
 *            (the word after the rows: simulated or real), else refused.
 *            Sampled mode (tag 8): written when any dump has it, with the
 *            dumps' sample_bytes when they agree, else 0 (several rates);
 *            the records are estimates either way and add up.  Any other
 *            tag is refused.
 *   bins     add up.  Header: checkpoint 0, the latest ms, the first
 *            process's pid, the evictions of each process's last dump added.
 *   the peak (tag 1, tag 5, peak_objects, peak_bytes): a dump holds the
 *            peak of its process so far, so a process's peak is its last
 *            dump's; of the processes, the one with the largest peak bytes
 *            (the first on a tie) gives the sections, and the contexts'
 *            peak fields come from its dumps holding that same peak (a
 *            context freed before a checkpoint has a record only there).
 *            Processes that ran at different times never held their peaks
 *            at once: the largest is a heap that existed, a sum would not
 *            be, and the contexts still add up to it.
 *   the timeline (tag 9): the peak's process's last dump's, as written
 *            (each process's runs on its own clock).
 *   the leak check (tag 10): each process's last dump's (its exit dump's);
 *            the head's counts added over processes, the rows' stack ids
 *            translated to the merged contexts (through the process's
 *            records in any dump; a row no record names is refused) and
 *            rows of one context added.  Written only when every
 *            process's last dump has it: a sum over some processes would
 *            call the others' live memory reachable.
 *   other tagged sections are refused (no merge rule yet).
 *
 * A process is a pid with its main program's load bias (a pid reused by a
 * later process has, under ASLR, another bias); a second dump with the
 * same checkpoint number is the same dump given twice if its bytes are the
 * same (counted once), else another process's.  A dump without heapprof's
 * extension is a process of its own.  Bad input gets one
 * "heapprof: error: FILE: problem" line and no output; OUT is written to a
 * temporary name and renamed.
 *
 * The inputs are read twice, one file at a time (choose_dumps, then
 * reread in merge order): merge holds one input and its output.
 *===----------------------------------------------------------------------===*/
#include "heapprof_merge.h"
#include "dump_hash.h"
#include "heapprof_files.h"
#include "heapprof_leak_section.h"
#include "heapprof_opcost.h"
#include "heapprof_peak_sections.h"
#include "heapprof_rawreader.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define NMIB 27
#define NEXT_OUT HPR_NUM_EXT_NAMES /* the fields a merged profile has */
#define EXT_MAGIC 0x0076005458455048ull
#define RAW_MAGIC 0xff6d70726f667281ull

/* Indices into hpr_mib_t.f (heapprof_mib_fields.inc order). */
enum {
  F_ALLOC_COUNT = 0, F_TOTAL_ACCESS = 1, F_TOTAL_SIZE = 4, F_ALLOC_TS = 7,
  F_DEALLOC_TS = 8, F_TOTAL_LIFETIME = 9, F_ALLOC_CPU = 12, F_DEALLOC_CPU = 13,
  F_MIGRATED = 14, F_OVERLAPS = 15, F_SAME_ALLOC_CPU = 16,
  F_SAME_DEALLOC_CPU = 17, F_TOTAL_DENSITY = 19, F_TOTAL_LT_DENSITY = 22,
  F_HIST_SIZE = 25, F_HIST = 26
};
/* The per-object ranges: (min, max) index pairs. */
static const unsigned ranges[][2] = {{2, 3}, {5, 6}, {10, 11}, {20, 21}, {23, 24}};

static void *xcalloc(size_t n, size_t size) {
  void *p = calloc(n ? n : 1, size);
  if (!p) {
    fprintf(stderr, "heapprof: error: out of memory\n");
    exit(1);
  }
  return p;
}

static void *xrealloc(void *p, size_t size) {
  p = realloc(p, size ? size : 1);
  if (!p) {
    fprintf(stderr, "heapprof: error: out of memory\n");
    exit(1);
  }
  return p;
}

/* ------------------------------------------------------------- inputs */

/* An input file. Files are read twice, one at a time: first to choose the
 * dumps and put them in order (what that needs is kept in dump_ref_t),
 * then to add them up in that order; so merge holds one input at a time
 * besides its output, however many it is given. */
typedef struct input {
  char *path;
  uint64_t up_to;    /* PATH@N: checkpoints 1..N only; else UINT64_MAX */
  const char *given; /* the argument that named it (for PATH@N errors) */
  size_t ndumps;     /* dumps the first read found */
  bool any_checkpoint; /* PATH@N: a dump it selects */
  uint64_t first_checkpoint; /* the lowest checkpoint number in it; 0: none */
} input_t;

/* A dump chosen by the first read: its place, and what choosing and
 * ordering need. */
typedef struct dump_ref {
  size_t input, index;  /* in[input]'s dump number index */
  const char *path;     /* its file, for messages */
  uint64_t offset, total_size, hash; /* in its file; hpr_dump_hash */
  uint64_t pid, main_bias, ext_seq;
  bool has_ext;
  bool has_peak;        /* section 1 with its peak_bytes */
  uint64_t peak_bytes;
  size_t order;     /* position in the inputs */
  size_t proc;
} dump_ref_t;

typedef struct proc {
  uint64_t pid, main_bias;
  bool has_ext;
  size_t last; /* index of its last dump in the sorted dump list */
  /* The stack ids its last dump (so far, in merge order) names in its
   * false sharing (tag 6) and leak check (tag 10) sections: the only
   * stack ids merge needs past a record (named_ids). */
  uint64_t *named;
  size_t nnamed;
  bool has_named;
  uint64_t named_seq; /* that dump's checkpoint number, 0 as UINT64_MAX */
} proc_t;

/* ------------------------------------------------------------- layout */

typedef struct out_module {
  uint64_t bias, build_id_size;
  uint8_t build_id[32];
  const char *path; /* "" if unknown */
  uint64_t nsegs;
  uint64_t (*segs)[2]; /* start, end */
} out_module_t;

typedef struct layout {
  out_module_t *mods;
  size_t n;
} layout_t;

/* A dump's segments: the loaded modules' (the raw segment section), then
 * those of the modules dlclose unloaded before it (section 11), latest
 * first; the first segment holding a PC is its module's. */
typedef struct dump_segs {
  hpr_segment_t *v;
  const char **paths; /* per segment: its module's path, "" if unknown */
  size_t n, nloaded;
} dump_segs_t;

static void dump_segs_read(const hpr_dump_t *d, dump_segs_t *ds) {
  size_t n = d->nsegs;
  for (uint64_t u = 0; u < d->nunloaded; u++)
    n += d->unloaded[u].nsegs;
  ds->v = xcalloc(n ? n : 1, sizeof(hpr_segment_t));
  ds->paths = xcalloc(n ? n : 1, sizeof(char *));
  ds->n = 0;
  for (uint64_t i = 0; i < d->nsegs; i++) {
    const hpr_segment_t *s = &d->segs[i];
    ds->v[ds->n] = *s;
    ds->paths[ds->n] = "";
    for (uint64_t k = 0; k < d->nmodules; k++)
      if (d->modules[k].bias == s->offset &&
          d->modules[k].build_id_size == s->build_id_size &&
          !memcmp(d->modules[k].build_id, s->build_id, s->build_id_size)) {
        ds->paths[ds->n] = d->modules[k].path;
        break;
      }
    ds->n++;
  }
  ds->nloaded = ds->n;
  for (uint64_t u = 0; u < d->nunloaded; u++) {
    const hpr_unloaded_t *m = &d->unloaded[u];
    for (uint64_t k = 0; k < m->nsegs; k++) {
      hpr_segment_t *s = &ds->v[ds->n];
      s->start = m->segs[k][0];
      s->end = m->segs[k][1];
      s->offset = m->bias;
      s->build_id_size = m->build_id_size;
      memcpy(s->build_id, m->build_id, sizeof(s->build_id));
      ds->paths[ds->n++] = m->path;
    }
  }
}

static void dump_segs_free(dump_segs_t *ds) {
  free(ds->v);
  free(ds->paths);
}

/* A module of one dump: its segments share the bias and build id. */
typedef struct dump_module {
  uint64_t bias, build_id_size;
  const uint8_t *build_id;
  const char *path;
  size_t first_seg, nsegs;
} dump_module_t;

static size_t dump_modules(const dump_segs_t *ds, dump_module_t **out) {
  dump_module_t *m = xcalloc(ds->n ? ds->n : 1, sizeof(*m));
  size_t n = 0;
  for (size_t i = 0; i < ds->n; i++) {
    const hpr_segment_t *s = &ds->v[i];
    if (n && i != ds->nloaded && m[n - 1].bias == s->offset &&
        m[n - 1].build_id_size == s->build_id_size &&
        !memcmp(m[n - 1].build_id, s->build_id, s->build_id_size) &&
        !strcmp(m[n - 1].path, ds->paths[i])) {
      m[n - 1].nsegs++;
      continue;
    }
    m[n].bias = s->offset;
    m[n].build_id_size = s->build_id_size;
    m[n].build_id = s->build_id;
    m[n].path = ds->paths[i];
    m[n].first_seg = i;
    m[n].nsegs = 1;
    n++;
  }
  *out = m;
  return n;
}

static bool has_key(const dump_module_t *m) {
  return m->build_id_size || m->path[0];
}

static bool same_module(const out_module_t *o, const dump_module_t *m) {
  if (m->build_id_size)
    return o->build_id_size == m->build_id_size &&
           !memcmp(o->build_id, m->build_id, m->build_id_size);
  return !o->build_id_size && m->path[0] && !strcmp(o->path, m->path);
}

static bool overlaps(const layout_t *l, uint64_t start, uint64_t end) {
  for (size_t i = 0; i < l->n; i++)
    for (uint64_t s = 0; s < l->mods[i].nsegs; s++)
      if (start < l->mods[i].segs[s][1] && l->mods[i].segs[s][0] < end)
        return true;
  return false;
}

/* Adds m (of dump d) to the layout, moved by a multiple of the page size
 * past everything there if its addresses overlap a module already in. */
static out_module_t *layout_add(layout_t *l, const dump_segs_t *ds,
                                const dump_module_t *m) {
  const hpr_segment_t *seg = &ds->v[m->first_seg];
  uint64_t lo = UINT64_MAX, top = 0;
  for (size_t k = 0; k < m->nsegs; k++)
    lo = seg[k].start < lo ? seg[k].start : lo;
  uint64_t delta = 0;
  bool clash = false;
  for (size_t k = 0; k < m->nsegs; k++)
    clash |= overlaps(l, seg[k].start, seg[k].end);
  if (clash) {
    for (size_t i = 0; i < l->n; i++)
      for (uint64_t s = 0; s < l->mods[i].nsegs; s++)
        top = l->mods[i].segs[s][1] > top ? l->mods[i].segs[s][1] : top;
    delta = ((top + 0xfff) & ~0xfffull) - (lo & ~0xfffull);
  }
  l->mods = xrealloc(l->mods, (l->n + 1) * sizeof(out_module_t));
  out_module_t *o = &l->mods[l->n++];
  memset(o, 0, sizeof(*o));
  o->bias = m->bias + delta;
  o->build_id_size = m->build_id_size;
  memcpy(o->build_id, m->build_id, m->build_id_size);
  o->path = strdup(m->path); /* the dump's file is read one at a time */
  o->nsegs = m->nsegs;
  o->segs = xcalloc(m->nsegs, sizeof(*o->segs));
  for (size_t k = 0; k < m->nsegs; k++) {
    o->segs[k][0] = seg[k].start + delta;
    o->segs[k][1] = seg[k].end + delta;
  }
  return o;
}

/* A dump's PC translation: per segment, the bias to add after taking the
 * dump's own off (keep = no translation). */
typedef struct xlate {
  uint64_t start, end, from, to;
  bool keep;
} xlate_t;

static xlate_t *make_xlate(layout_t *l, const dump_segs_t *ds, bool first) {
  xlate_t *x = xcalloc(ds->n ? ds->n : 1, sizeof(*x));
  dump_module_t *mods;
  size_t n = dump_modules(ds, &mods);
  for (size_t i = 0; i < n; i++) {
    const dump_module_t *m = &mods[i];
    out_module_t *o = NULL;
    for (size_t k = 0; k < l->n && !o && has_key(m); k++)
      if (same_module(&l->mods[k], m))
        o = &l->mods[k];
    if (o && !o->path[0] && m->path[0]) {
      free((char *)o->path);
      o->path = strdup(m->path);
    }
    /* The first dump's modules are the layout; a later one's only if
     * they can be matched again. */
    if (!o && (first || has_key(m)))
      o = layout_add(l, ds, m);
    for (size_t k = 0; k < m->nsegs; k++) {
      xlate_t *t = &x[m->first_seg + k];
      t->start = ds->v[m->first_seg + k].start;
      t->end = ds->v[m->first_seg + k].end;
      t->from = m->bias;
      t->to = o ? o->bias : m->bias;
      t->keep = !o;
    }
  }
  free(mods);
  return x;
}

static uint64_t translate(const xlate_t *x, uint64_t n, uint64_t pc) {
  for (uint64_t i = 0; i < n; i++)
    if (pc >= x[i].start && pc < x[i].end)
      return x[i].keep ? pc : pc - x[i].from + x[i].to;
  return pc;
}

/* ----------------------------------------------------------- contexts */

static uint64_t clamp32(uint64_t v) { return v > UINT32_MAX ? UINT32_MAX : v; }

/* A merged context: 168 bytes, its stack in the contexts' arena and its
 * extension values in their pool, where it was 480 bytes and a block of
 * its own (every MIB field and every extension field as a u64;
 * docs/performance.md, "merge's contexts").  The MIB fields are kept at
 * the width the format gives them (the u32 ones are u32 in every record,
 * and merge_mib saturates its sums to u32 as the writer did), but the
 * histogram's two, which are written as 0.  Of the extension's 29 u64,
 * many of them 0 (most of p1m's contexts have 7 non-zero, w1m's 19), only
 * the non-zero ones: a bit per field in ext_mask and their values, in
 * field order, in a block of the contexts' pool (ext_at), moved to a block
 * of the new size when a field becomes non-zero or 0 again, or a value
 * wider or narrower.  A value is one u32 word when it is below
 * 0xffffffff (every value of p1m and w1m), else the escape word
 * 0xffffffff and the value's low and high words (a context's total bytes
 * past 4 GiB, a continuations count below 0 between two dumps).
 * The merge and the writer see the fields whole (ctx_unpack, ctx_pack). */
#define u32_t_ uint32_t
#define u64_t_ uint64_t
/* The MIB fields kept of each width: all but access_histogram_size (u32)
 * and access_histogram (u64). */
enum {
  MIB_U32 = -1
#define HP_MIB_FIELD(type, name, raw) +(sizeof(type##_t_) == 4)
#include "heapprof_mib_fields.inc"
#undef HP_MIB_FIELD
  ,
  MIB_U64 = -1
#define HP_MIB_FIELD(type, name, raw) +(sizeof(type##_t_) == 8)
#include "heapprof_mib_fields.inc"
#undef HP_MIB_FIELD
};
#define COUNTED (1u << 31) /* in ext_mask: f holds a record */
typedef struct context {
  const uint64_t *pcs; /* n of them, in the contexts' arena */
  uint64_t n, hash;
  uint64_t f64[MIB_U64];
  uint32_t f32[MIB_U32];
  uint32_t ext_mask; /* bit e: extension field e is not 0; COUNTED */
  uint32_t ext_at;   /* its first word in the pool (none: mask 0) */
} context_t;
_Static_assert(sizeof(context_t) == 168, "a merged context's size");

static const unsigned mib_widths[NMIB] = {
#define HP_MIB_FIELD(type, name, raw) sizeof(type##_t_),
#include "heapprof_mib_fields.inc"
#undef HP_MIB_FIELD
};
_Static_assert(NEXT_OUT < 32, "ext_mask has a bit per extension field");

/* An extension value's words in the pool: one below the escape, else the
 * escape and the value's low and high words. */
#define EXT_WIDE UINT32_MAX
#define EXT_MAX_WORDS (3 * NEXT_OUT)
/* The stacks' arena: chunks of ARENA_WORDS u64 that never move (a
 * context keeps a pointer), a stack longer than that in a chunk of its
 * own.  A stack in a block of its own cost 8 bytes more at p1m's 3 frames
 * (a 24-byte block is a 32-byte chunk), 16 at w1m's 8. */
#define ARENA_WORDS ((size_t)1 << 17)
typedef struct arena_chunk {
  struct arena_chunk *next;
  uint64_t w[];
} arena_chunk_t;

typedef struct contexts {
  context_t *v;
  size_t n, cap;
  size_t *slots; /* index + 1; 0 = empty */
  size_t nslots;
  /* The extension values' blocks, in u32 words; a freed block of k words
   * heads the list free_at[k] (its first word the next one's place + 1;
   * 0 ends). */
  uint32_t *pool;
  size_t pool_n, pool_cap;
  uint32_t free_at[EXT_MAX_WORDS + 1];
  /* The stacks: the chunks (the newest first), the newest one's words in
   * use. */
  arena_chunk_t *chunks;
  size_t chunk_used, chunk_cap;
} contexts_t;

/* The context's fields whole: the MIB's 27 (the histogram's 0) and the
 * extension's NEXT_OUT. */
static void ctx_unpack(const contexts_t *c, const context_t *x,
                       uint64_t f[NMIB], uint64_t ext[NEXT_OUT]) {
  unsigned i64 = 0, i32 = 0;
  for (unsigned k = 0; k < NMIB; k++)
    f[k] = k == F_HIST_SIZE || k == F_HIST ? 0
           : mib_widths[k] == 4            ? x->f32[i32++]
                                           : x->f64[i64++];
  const uint32_t *v = x->ext_mask & ~COUNTED ? c->pool + x->ext_at : NULL;
  for (unsigned e = 0; e < NEXT_OUT; e++) {
    if (!(x->ext_mask >> e & 1)) {
      ext[e] = 0;
    } else if (*v != EXT_WIDE) {
      ext[e] = *v++;
    } else {
      ext[e] = v[1] | (uint64_t)v[2] << 32;
      v += 3;
    }
  }
}

/* The words of x's block in the pool. */
static unsigned ctx_words(const contexts_t *c, const context_t *x) {
  unsigned n = __builtin_popcount(x->ext_mask & ~COUNTED), words = 0;
  const uint32_t *v = c->pool + x->ext_at;
  for (unsigned i = 0; i < n; i++)
    words += v[words] == EXT_WIDE ? 3 : 1;
  return words;
}

static uint32_t pool_take(contexts_t *c, unsigned k) {
  if (c->free_at[k]) {
    uint32_t at = c->free_at[k] - 1;
    c->free_at[k] = c->pool[at];
    return at;
  }
  if (c->pool_n + k > c->pool_cap) {
    c->pool_cap = c->pool_cap ? 2 * c->pool_cap : 8192;
    /* Every place + 1 fits a u32 (ext_at, free_at and the lists' links). */
    if (c->pool_cap >= UINT32_MAX) {
      if (c->pool_n + k >= UINT32_MAX) {
        fprintf(stderr, "heapprof: error: out of memory\n");
        exit(1);
      }
      c->pool_cap = UINT32_MAX - 1;
    }
    c->pool = xrealloc(c->pool, c->pool_cap * sizeof(uint32_t));
  }
  c->pool_n += k;
  return (uint32_t)(c->pool_n - k);
}

/* f and ext (whole) into x. */
static void ctx_pack(contexts_t *c, context_t *x, const uint64_t f[NMIB],
                     const uint64_t ext[NEXT_OUT]) {
  unsigned i64 = 0, i32 = 0;
  for (unsigned k = 0; k < NMIB; k++) {
    if (k == F_HIST_SIZE || k == F_HIST)
      continue;
    if (mib_widths[k] == 4)
      x->f32[i32++] = (uint32_t)clamp32(f[k]); /* no more in any record */
    else
      x->f64[i64++] = f[k];
  }
  uint32_t mask = 0;
  unsigned has = 0;
  for (unsigned e = 0; e < NEXT_OUT; e++) {
    mask |= (uint32_t)(ext[e] != 0) << e;
    has += !ext[e] ? 0 : ext[e] < EXT_WIDE ? 1 : 3;
  }
  unsigned had = x->ext_mask & ~COUNTED ? ctx_words(c, x) : 0;
  if (has != had) {
    if (had) {
      c->pool[x->ext_at] = c->free_at[had];
      c->free_at[had] = x->ext_at + 1;
    }
    x->ext_at = has ? pool_take(c, has) : 0;
  }
  x->ext_mask = mask | (x->ext_mask & COUNTED);
  uint32_t *v = c->pool + x->ext_at;
  for (unsigned e = 0; e < NEXT_OUT; e++) {
    if (!ext[e])
      continue;
    if (ext[e] < EXT_WIDE) {
      *v++ = (uint32_t)ext[e];
    } else {
      v[0] = EXT_WIDE;
      v[1] = (uint32_t)ext[e];
      v[2] = (uint32_t)(ext[e] >> 32);
      v += 3;
    }
  }
}

/* A copy of pcs in the arena. */
static const uint64_t *arena_put(contexts_t *c, const uint64_t *pcs,
                                 uint64_t n) {
  if (!c->chunks || c->chunk_used + n > c->chunk_cap) {
    size_t cap = n > ARENA_WORDS ? n : ARENA_WORDS;
    arena_chunk_t *k = xrealloc(NULL, sizeof(*k) + cap * 8);
    k->next = c->chunks;
    c->chunks = k;
    c->chunk_used = 0;
    c->chunk_cap = cap;
  }
  uint64_t *to = c->chunks->w + c->chunk_used;
  memcpy(to, pcs, n * 8);
  c->chunk_used += n;
  return to;
}

static uint64_t hash_pcs(const uint64_t *pcs, uint64_t n) {
  uint64_t h = 0xcbf29ce484222325ull ^ n;
  for (uint64_t i = 0; i < n; i++) {
    h ^= pcs[i];
    h *= 0x100000001b3ull;
    h ^= h >> 29;
  }
  return h;
}

static void slots_put(contexts_t *c, size_t idx) {
  size_t i = c->v[idx].hash & (c->nslots - 1);
  while (c->slots[i])
    i = (i + 1) & (c->nslots - 1);
  c->slots[i] = idx + 1;
}

/* The context of pcs (copied into the arena when it is a new one). */
static context_t *context_get(contexts_t *c, const uint64_t *pcs,
                              uint64_t n) {
  uint64_t h = hash_pcs(pcs, n);
  if (c->nslots) {
    for (size_t i = h & (c->nslots - 1); c->slots[i];
         i = (i + 1) & (c->nslots - 1)) {
      context_t *x = &c->v[c->slots[i] - 1];
      if (x->hash == h && x->n == n && !memcmp(x->pcs, pcs, n * 8))
        return x;
    }
  }
  if ((c->n + 1) * 2 > c->nslots) {
    free(c->slots);
    c->nslots = c->nslots ? c->nslots * 2 : 1024;
    c->slots = xcalloc(c->nslots, sizeof(size_t));
    for (size_t i = 0; i < c->n; i++)
      slots_put(c, i);
  }
  if (c->n == c->cap)
    c->v = xrealloc(c->v, (c->cap = c->cap ? c->cap * 2 : 256) * sizeof(context_t));
  context_t *x = &c->v[c->n];
  memset(x, 0, sizeof(*x));
  x->pcs = arena_put(c, pcs, n);
  x->n = n;
  x->hash = h;
  slots_put(c, c->n++);
  return x;
}

/* The runtime's merge_mib (heapprof_hib.c) on raw fields, but for the
 * per-object counts (NumMigratedCpu, NumLifetimeOverlaps, NumSameAllocCpu,
 * NumSameDeallocCpu), which add up as `heapprof report` adds them: no
 * comparison at the seam of two dumps or processes, whose records hold
 * the comparisons of their own objects (upstream's one compare per block
 * dropped them: a merge of checkpoints said 2 overlaps where the run had
 * 10). */
static const unsigned summed[] = {F_TOTAL_ACCESS, F_TOTAL_SIZE,
                                  F_TOTAL_LIFETIME, F_TOTAL_DENSITY,
                                  F_TOTAL_LT_DENSITY};

/* Whether the summed fields are counts a reader takes: 2^63 - 1 at most,
 * as heapprof report's loader checks (MaxCount, profile_model.h).  Above
 * it a count is corrupt, and a sum of two would wrap without a word. */
static bool counts_fit(const uint64_t *d) {
  for (size_t i = 0; i < sizeof(summed) / sizeof(summed[0]); i++)
    if (d[summed[i]] > INT64_MAX)
      return false;
  return true;
}

/* false when a summed field went past 2^63 - 1 (counts_fit). */
static bool merge_mib(uint64_t *d, const uint64_t *s) {
  if (s[F_ALLOC_COUNT]) {
    bool first = !d[F_ALLOC_COUNT];
    for (size_t r = 0; r < sizeof(ranges) / sizeof(ranges[0]); r++) {
      unsigned lo = ranges[r][0], hi = ranges[r][1];
      d[lo] = first || s[lo] < d[lo] ? s[lo] : d[lo];
      d[hi] = first || s[hi] > d[hi] ? s[hi] : d[hi];
    }
  }
  /* The u32 counts: each below 2^32, so their sum fits; ctx_pack clamps
   * it to 2^32 - 1 (tools/merge-counts-edges.test). */
  d[F_OVERLAPS] += s[F_OVERLAPS];
  d[F_SAME_ALLOC_CPU] += s[F_SAME_ALLOC_CPU];
  d[F_SAME_DEALLOC_CPU] += s[F_SAME_DEALLOC_CPU];
  d[F_MIGRATED] += s[F_MIGRATED];
  d[F_ALLOC_COUNT] += s[F_ALLOC_COUNT];
  bool fit = counts_fit(s);
  for (size_t i = 0; i < sizeof(summed) / sizeof(summed[0]); i++)
    d[summed[i]] += s[summed[i]]; /* both <= 2^63 - 1: no wrap */
  d[F_ALLOC_TS] = s[F_ALLOC_TS];
  d[F_DEALLOC_TS] = s[F_DEALLOC_TS];
  d[F_ALLOC_CPU] = s[F_ALLOC_CPU];
  d[F_DEALLOC_CPU] = s[F_DEALLOC_CPU];
  return fit && counts_fit(d);
}

/* Extension fields that are the state at a dump, not deltas. */
static bool state_field(size_t f) {
  const char *n = hpr_ext_names[f];
  return !strncmp(n, "live_", 5);
}

/* The index of extension field name, or hpr_num_ext_names. */
static size_t ext_index(const char *name) {
  size_t f = 0;
  while (f < hpr_num_ext_names && strcmp(hpr_ext_names[f], name))
    f++;
  return f;
}

/* The peak's per-context fields: only the winning process's last dump. */
static bool peak_field(size_t f) {
  return !strncmp(hpr_ext_names[f], "peak_", 5);
}

/* ------------------------------------------------------------- output */

/* The output, written as it is made (hpf_put, BUF_CAP bytes at a time):
 * the merged profile whole in memory was as large as its inputs' records
 * (432 MB of the 1M-context profile's, docs/performance.md).  With no
 * file (out NULL) the bytes are only counted: a first pass finds the
 * sizes and offsets the header and the extension's head give. */
#define BUF_CAP ((size_t)1 << 20)
typedef struct buf {
  uint8_t *data; /* the bytes not yet given to out: len of them */
  size_t len;
  uint64_t pos; /* bytes put so far */
  hpf_out_t *out;
} buf_t;

static void flush(buf_t *b) {
  if (b->out && b->len)
    hpf_put(b->out, b->data, b->len);
  b->len = 0;
}

static void put(buf_t *b, const void *p, size_t n) {
  b->pos += n;
  if (!b->out)
    return;
  if (b->len + n > BUF_CAP)
    flush(b);
  if (n > BUF_CAP) {
    hpf_put(b->out, p, n);
    return;
  }
  memcpy(b->data + b->len, p, n);
  b->len += n;
}
static void put64(buf_t *b, uint64_t v) { put(b, &v, 8); }
static void put32(buf_t *b, uint32_t v) { put(b, &v, 4); }
/* n bytes, then NULs up to padded (>= n) bytes. */
static void put_padded(buf_t *b, const void *p, size_t n, size_t padded) {
  static const char zeros[8];
  put(b, p, n);
  for (size_t left = padded - n; left; left -= left < 8 ? left : 8)
    put(b, zeros, left < 8 ? left : 8);
}

/* Tagged sections this merge combines (docs/formats.md has each rule). */
enum { SEC_FALSE_SHARING = 6, FS_HEAD = 10, FS_ROW = 5, FS_TOTALS = 8 };
enum { SEC_UTILIZATION = 7, UTIL_WORDS = 8 };
enum { SEC_SAMPLED = 8 };

/* Section 10's rows in the merged profile: a context index and its
 * direct objects, direct bytes, indirect objects, indirect bytes. */
typedef struct leak_row {
  size_t ctx;
  uint64_t w[4];
} leak_row_t;

/* Section 6's pair rows in the merged profile: context indices. */
typedef struct fs_pair {
  size_t a, b;
  uint64_t w[3]; /* passive lines, active events, active lines */
} fs_pair_t;

typedef struct totals {
  uint64_t ms, pid, evictions;
  hpr_bin_t bins[1026];
  /* Section 7, heap utilization: the state at a dump, so each process's
   * last dump's words, added over processes; written only when every
   * process's last dump has it. */
  uint64_t util[UTIL_WORDS];
  size_t util_dumps, last_dumps;
  /* Section 6, false sharing: totals since each process started, so its
   * last dump's, added over processes; pairs translated to the merged
   * contexts and added.  Written when any process's last dump has it. */
  bool have_fs;
  uint64_t fs_layout;     /* the word after the rows: 0 simulated, 1 real */
  uint64_t fs[FS_TOTALS]; /* head words 0..7 */
  fs_pair_t *pairs;
  size_t npairs;
  hpo_section_t opcost[3]; /* tags 2, 3, 4; tag 0 while no dump had one */
  /* Section 8, sampled mode: written when any dump has it; the dumps'
   * sample_bytes when they agree, else 0 (several rates).  Records are
   * estimates either way, and estimates add up. */
  bool sampled;
  uint64_t sample_bytes;
  /* Section 12, how stacks were taken: written when every dump has it;
   * each word the dumps' value when they agree, else "several" (0 for
   * malloc_context_size, 2 for fold_recursion). */
  size_t dumps, stack_dumps;
  uint64_t stacks[HPR_STACKS_WORDS];
  /* Section 13, whose allocator served: written when every dump has it;
   * the dumps' when they agree, else HPR_ALLOCATOR_SEVERAL. */
  size_t alloc_dumps;
  uint64_t alloc_kind, alloc_len;
  char alloc_path[4096];
  /* Section 14: the inputs' command line while they all agree
   * (cmd_same); a merge of different commands has none. */
  size_t cmd_dumps;
  bool cmd_same;
  uint64_t cmd_flags, cmd_argc, cmd_len;
  char cmd[4096];
  /* Section 15, the path the program was run by: as section 14, written
   * when every dump has it and all agree. */
  size_t run_dumps;
  bool run_same;
  uint64_t run_len;
  char run_path[4096];
  /* Section 10, the leak check at exit: each process's last dump's head
   * counts (objects .. threads_running), added; rows by merged context.
   * Written only when every process's last dump has it. */
  size_t leak_dumps;
  uint64_t leaks[7];
  leak_row_t *leak_rows;
  size_t nleak_rows;
  /* The peak's process's last dump's sections 1, 5 and 9 (copies), or
   * NULL. */
  hpr_section_t *peak_secs[3];
  /* Extension fields written: those every input dump with an extension
   * has (an older runtime's lack the newer fields: writing them as 0 would
   * claim they were counted). */
  uint64_t ext_fields;
} totals_t;

/* Where the merged profile's parts are: write_profile's counting pass
 * sets them, the writing pass writes them in the header and the
 * extension's head. */
typedef struct out_sizes {
  uint64_t total, mib_off, stack_off, ext_size;
} out_sizes_t;

static void write_profile(buf_t *b, const layout_t *l, const contexts_t *c,
                          const totals_t *t, out_sizes_t *sz) {
  uint64_t header[6] = {RAW_MAGIC, 4, sz->total, 48, sz->mib_off,
                        sz->stack_off};
  put(b, header, sizeof(header));
  uint64_t nsegs = 0;
  for (size_t i = 0; i < l->n; i++)
    nsegs += l->mods[i].nsegs;
  put64(b, nsegs);
  for (size_t i = 0; i < l->n; i++) {
    const out_module_t *m = &l->mods[i];
    for (uint64_t s = 0; s < m->nsegs; s++) {
      put64(b, m->segs[s][0]);
      put64(b, m->segs[s][1]);
      put64(b, m->bias);
      put64(b, m->build_id_size);
      put(b, m->build_id, 32);
    }
  }
  uint64_t mib_off = b->pos;
  put64(b, c->n);
  uint64_t cf[NMIB], cext[NEXT_OUT];
  for (size_t i = 0; i < c->n; i++) {
    put64(b, i + 1);
    ctx_unpack(c, &c->v[i], cf, cext);
    for (unsigned k = 0; k < NMIB; k++) {
      uint64_t v = cf[k];
      if (mib_widths[k] == 4)
        put32(b, (uint32_t)clamp32(v));
      else
        put64(b, v);
    }
  }
  uint64_t stack_off = b->pos;
  put64(b, c->n);
  for (size_t i = 0; i < c->n; i++) {
    put64(b, i + 1);
    put64(b, c->v[i].n);
    put(b, c->v[i].pcs, c->v[i].n * 8);
  }
  uint64_t ext = b->pos;
  put64(b, EXT_MAGIC);
  put64(b, 3);
  put64(b, sz->ext_size);
  put64(b, 0); /* checkpoint 0: a final profile */
  put64(b, t->ms);
  put64(b, t->pid);
  put64(b, t->evictions);
  put64(b, t->ext_fields);
  put64(b, c->n);
  size_t cont = ext_index("continuations");
  for (size_t i = 0; i < c->n; i++) {
    put64(b, i + 1);
    ctx_unpack(c, &c->v[i], cf, cext);
    /* Sampled dumps' estimates need not cancel: none below 0. */
    if (cont < t->ext_fields && (int64_t)cext[cont] < 0)
      cext[cont] = 0;
    put(b, cext, t->ext_fields * 8);
  }
  put64(b, l->n);
  for (size_t i = 0; i < l->n; i++) {
    const out_module_t *m = &l->mods[i];
    uint64_t len = strlen(m->path);
    static const uint8_t zeros[8];
    put64(b, m->bias);
    put64(b, m->build_id_size);
    put(b, m->build_id, 32);
    put64(b, len);
    put(b, m->path, len);
    put(b, zeros, ((len + 7) & ~7ull) - len);
  }
  uint64_t nbins = 0;
  for (int i = 0; i < 1026; i++)
    nbins += t->bins[i].allocs || t->bins[i].frees;
  put64(b, nbins);
  for (int i = 0; i < 1026; i++) {
    const hpr_bin_t *x = &t->bins[i];
    if (!x->allocs && !x->frees)
      continue;
    put64(b, (uint64_t)i);
    put64(b, x->allocs);
    put64(b, x->bytes);
    put64(b, x->frees);
    put64(b, x->freed_bytes);
  }
  /* Tagged sections (extension v3), ascending tags: 1, 5 and 9 the
   * winning process's peak and timeline, 2-4 summed, 6, 7 and 10 from each
   * process's last dump. */
  const hpr_section_t *secs[3] = {t->peak_secs[0], t->peak_secs[1],
                                  t->peak_secs[2]};
  bool util = t->last_dumps && t->util_dumps == t->last_dumps;
  bool leaks = t->last_dumps && t->leak_dumps == t->last_dumps;
  bool stacks = t->dumps && t->stack_dumps == t->dumps;
  bool alloc = t->dumps && t->alloc_dumps == t->dumps;
  bool cmd = t->dumps && t->cmd_dumps == t->dumps && t->cmd_same;
  bool run = t->dumps && t->run_dumps == t->dumps && t->run_same;
  uint64_t nsec = (util ? 1 : 0) + (t->have_fs ? 1 : 0) + t->sampled +
                  (secs[0] != NULL) + (secs[1] != NULL) + (secs[2] != NULL) +
                  leaks + stacks + alloc + cmd + run;
  for (int i = 0; i < 3; i++)
    nsec += t->opcost[i].tag != 0;
  put64(b, nsec);
  if (secs[0]) {
    put64(b, secs[0]->tag);
    put64(b, secs[0]->size);
    put(b, secs[0]->data, secs[0]->size);
  }
  for (int i = 0; i < 3; i++) {
    if (!t->opcost[i].tag)
      continue;
    uint64_t size;
    uint8_t *p = hpo_encode(&t->opcost[i], &size);
    if (!p) {
      fprintf(stderr, "heapprof: error: out of memory\n");
      exit(1);
    }
    put64(b, t->opcost[i].tag);
    put64(b, size);
    put(b, p, size);
    free(p);
  }
  if (secs[1]) {
    put64(b, secs[1]->tag);
    put64(b, secs[1]->size);
    put(b, secs[1]->data, secs[1]->size);
  }
  if (t->have_fs) {
    put64(b, SEC_FALSE_SHARING);
    put64(b, (FS_HEAD + t->npairs * FS_ROW + 1) * 8); /* + the layout */
    for (int i = 0; i < FS_TOTALS; i++)
      put64(b, t->fs[i]);
    put64(b, FS_ROW);
    put64(b, t->npairs);
    for (size_t i = 0; i < t->npairs; i++) {
      put64(b, t->pairs[i].a + 1); /* merged stack ids are index + 1 */
      put64(b, t->pairs[i].b + 1);
      for (int w = 0; w < 3; w++)
        put64(b, t->pairs[i].w[w]);
    }
    put64(b, t->fs_layout);
  }
  if (util) {
    put64(b, SEC_UTILIZATION);
    put64(b, UTIL_WORDS * 8);
    for (int i = 0; i < UTIL_WORDS; i++)
      put64(b, t->util[i]);
  }
  if (t->sampled) {
    put64(b, SEC_SAMPLED);
    put64(b, 8);
    put64(b, t->sample_bytes);
  }
  if (secs[2]) {
    put64(b, secs[2]->tag);
    put64(b, secs[2]->size);
    put(b, secs[2]->data, secs[2]->size);
  }
  if (leaks) {
    put64(b, HPR_TAG_LEAKS);
    put64(b, (HPR_LEAK_HEAD_WORDS + t->nleak_rows * HPR_LEAK_ROW_WORDS) * 8);
    put64(b, HPR_LEAK_HEAD_WORDS);
    for (int i = 0; i < 7; i++)
      put64(b, t->leaks[i]);
    put64(b, HPR_LEAK_ROW_WORDS);
    put64(b, t->nleak_rows);
    for (size_t i = 0; i < t->nleak_rows; i++) {
      put64(b, t->leak_rows[i].ctx + 1); /* merged stack ids: index + 1 */
      for (int w = 0; w < 4; w++)
        put64(b, t->leak_rows[i].w[w]);
    }
  }
  if (stacks) {
    put64(b, HPR_TAG_STACKS);
    put64(b, HPR_STACKS_WORDS * 8);
    for (int i = 0; i < HPR_STACKS_WORDS; i++)
      put64(b, t->stacks[i]);
  }
  if (alloc) {
    uint64_t padded = (t->alloc_len + 8) & ~7ull;
    put64(b, HPR_TAG_ALLOCATOR);
    put64(b, 16 + padded);
    put64(b, t->alloc_kind);
    put64(b, t->alloc_len);
    put_padded(b, t->alloc_path, t->alloc_len, padded);
  }
  if (cmd) {
    uint64_t padded = (t->cmd_len + 7) & ~7ull;
    put64(b, HPR_TAG_COMMAND);
    put64(b, 24 + padded);
    put64(b, t->cmd_flags);
    put64(b, t->cmd_argc);
    put64(b, t->cmd_len);
    put_padded(b, t->cmd, t->cmd_len, padded);
  }
  if (run) {
    uint64_t padded = (t->run_len + 8) & ~7ull;
    put64(b, HPR_TAG_RUN_PATH);
    put64(b, 8 + padded);
    put64(b, t->run_len);
    put_padded(b, t->run_path, t->run_len, padded);
  }
  *sz = (out_sizes_t){b->pos, mib_off, stack_off, b->pos - ext};
}

/* ------------------------------------------------- section 6 (pairs) */

static uint64_t word(const hpr_section_t *s, uint64_t i) {
  uint64_t v;
  memcpy(&v, s->data + 8 * i, 8);
  return v;
}

static bool fs_section_ok(const hpr_section_t *s) {
  if (s->size < FS_HEAD * 8)
    return false;
  uint64_t row = word(s, 8), n = word(s, 9);
  return row >= FS_ROW && n <= (s->size / 8 - FS_HEAD) / row;
}

/* The layout a section 6 describes: the word after its rows, 0 (simulated)
 * when there is none (runtimes before the real layout). */
static uint64_t fs_layout(const hpr_section_t *s) {
  uint64_t end = FS_HEAD + word(s, 8) * word(s, 9);
  return s->size / 8 > end ? word(s, end) : 0;
}

/* A process's merged contexts by the stack ids its last dump's sections 6
 * and 10 name (the first read's named_ids), from its records in any dump.
 * A pair for every record was 16 MB at p1m, whose sections name none. */
typedef struct proc_ids {
  uint64_t *keys; /* the ids, sorted, each once */
  size_t *ctx;    /* per key: its context, or SIZE_MAX (no record has it) */
  size_t n;
  hpr_section_t *sec;   /* its last dump's section 6 (a copy), or NULL */
  hpr_section_t *leaks; /* its last dump's section 10 (a copy), or NULL */
  const dump_ref_t *last; /* that dump, for messages */
} proc_ids_t;

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

/* The place of id among ids's keys, or NULL. */
static size_t *ids_at(const proc_ids_t *ids, uint64_t id) {
  const uint64_t *k = ids->n ? bsearch(&id, ids->keys, ids->n, 8, cmp_u64)
                             : NULL;
  return k ? &ids->ctx[k - ids->keys] : NULL;
}

/* id's merged context (false when no record of the process has it). */
static bool ids_get(const proc_ids_t *ids, uint64_t id, size_t *ctx) {
  size_t *at = ids_at(ids, id);
  if (!at || *at == SIZE_MAX)
    return false;
  *ctx = *at;
  return true;
}

static int cmp_pair(const void *a, const void *b) {
  const fs_pair_t *x = a, *y = b;
  if (x->a != y->a)
    return x->a < y->a ? -1 : 1;
  return x->b < y->b ? -1 : x->b > y->b;
}

static int bad(const char *what, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Adds each process's section 6 into t; the pairs by merged context.  1
 * (after the message) when a count, or a sum of them, passes 2^63 - 1
 * (HPR_MAX_COUNT: a corrupt profile's). */
static int merge_false_sharing(totals_t *t, proc_ids_t *fp, size_t np) {
  for (size_t p = 0; p < np; p++) {
    const hpr_section_t *s = fp[p].sec;
    if (!s)
      continue;
    t->have_fs = true;
    t->fs_layout = fs_layout(s);
    bool fit = true;
    for (int i = 0; i < FS_TOTALS; i++)
      fit &= hpr_add_count(&t->fs[i], word(s, (uint64_t)i));
    uint64_t row = word(s, 8), n = word(s, 9);
    for (uint64_t r = 0; r < n; r++) {
      uint64_t at = FS_HEAD + r * row;
      size_t a, b;
      if (!ids_get(&fp[p], word(s, at), &a) ||
          !ids_get(&fp[p], word(s, at + 1), &b)) {
        fit &= hpr_add_count(&t->fs[7], 1); /* dropped_pairs: a stack no
                                               dump recorded */
        continue;
      }
      t->pairs = xrealloc(t->pairs, (t->npairs + 1) * sizeof(fs_pair_t));
      fs_pair_t *x = &t->pairs[t->npairs++];
      x->a = a < b ? a : b;
      x->b = a < b ? b : a;
      for (int w = 0; w < 3; w++) {
        x->w[w] = word(s, at + 2 + (uint64_t)w);
        fit &= x->w[w] <= HPR_MAX_COUNT;
      }
    }
    if (!fit)
      return bad(fp[p].last->path,
                 "corrupt: the dump at offset 0x%llx: its false-sharing "
                 "section's (tag 6) counts, with those read before it, add up "
                 "to more than 2^63 - 1",
                 (unsigned long long)fp[p].last->offset);
  }
  /* Two processes' pairs of the same contexts become one row. */
  qsort(t->pairs, t->npairs, sizeof(fs_pair_t), cmp_pair);
  size_t k = 0;
  for (size_t i = 0; i < t->npairs; i++) {
    if (k && t->pairs[k - 1].a == t->pairs[i].a &&
        t->pairs[k - 1].b == t->pairs[i].b) {
      for (int w = 0; w < 3; w++)
        if (!hpr_add_count(&t->pairs[k - 1].w[w], t->pairs[i].w[w]))
          return bad("the inputs",
                     "corrupt: the false-sharing sections' (tag 6) pairs' "
                     "counts add up to more than 2^63 - 1");
    } else {
      t->pairs[k++] = t->pairs[i];
    }
  }
  t->npairs = k;
  return 0;
}

/* ------------------------------------------------ section 10 (leaks) */

static int cmp_leak_row(const void *a, const void *b) {
  size_t x = ((const leak_row_t *)a)->ctx, y = ((const leak_row_t *)b)->ctx;
  return x < y ? -1 : x > y;
}

/* Adds each process's section 10 into t, its rows by merged context; 1
 * (after the message) for a row whose stack id no record of its process
 * has (its objects would have no context to be counted in), or when a
 * count, or a sum of them, passes 2^63 - 1 (HPR_MAX_COUNT: a corrupt
 * profile's). */
static int merge_leaks(totals_t *t, proc_ids_t *pi, size_t np) {
  for (size_t p = 0; p < np; p++) {
    const hpr_section_t *s = pi[p].leaks;
    if (!s)
      continue;
    hpr_leak_head_t h = hpr_leaks_head(s);
    uint64_t head[7] = {h.objects,          h.root_bytes,
                        h.direct_objects,   h.direct_bytes,
                        h.indirect_objects, h.indirect_bytes,
                        h.threads_running};
    bool fit = true;
    for (int i = 0; i < 7; i++)
      fit &= hpr_add_count(&t->leaks[i], head[i]);
    t->leak_rows =
        xrealloc(t->leak_rows, (t->nleak_rows + h.nrows) * sizeof(leak_row_t));
    for (uint64_t r = 0; r < h.nrows; r++) {
      hpr_leak_row_t row = hpr_leaks_row(s, r);
      size_t m;
      if (!ids_get(&pi[p], row.stack_id, &m))
        return bad(pi[p].last->path,
                   "the dump at offset 0x%llx: the leaks section (tag 10) has "
                   "a row for stack id %llu, which no record of its process "
                   "has",
                   (unsigned long long)pi[p].last->offset,
                   (unsigned long long)row.stack_id);
      leak_row_t *x = &t->leak_rows[t->nleak_rows++];
      *x = (leak_row_t){m,
                        {row.direct_objects, row.direct_bytes,
                         row.indirect_objects, row.indirect_bytes}};
      for (int w = 0; w < 4; w++)
        fit &= x->w[w] <= HPR_MAX_COUNT;
    }
    if (!fit)
      return bad(pi[p].last->path,
                 "corrupt: the dump at offset 0x%llx: its leaks section's (tag "
                 "10) counts, with those read before it, add up to more than "
                 "2^63 - 1",
                 (unsigned long long)pi[p].last->offset);
  }
  /* Rows of one context (two processes', or two stack ids that became one
   * context) become one row, in stack id order. */
  qsort(t->leak_rows, t->nleak_rows, sizeof(leak_row_t), cmp_leak_row);
  size_t k = 0;
  for (size_t i = 0; i < t->nleak_rows; i++) {
    if (k && t->leak_rows[k - 1].ctx == t->leak_rows[i].ctx) {
      for (int w = 0; w < 4; w++)
        if (!hpr_add_count(&t->leak_rows[k - 1].w[w], t->leak_rows[i].w[w]))
          return bad("the inputs",
                     "corrupt: the leaks sections' (tag 10) rows' counts add "
                     "up to more than 2^63 - 1");
    } else {
      t->leak_rows[k++] = t->leak_rows[i];
    }
  }
  t->nleak_rows = k;
  return 0;
}

/* ------------------------------------------------------------ the command */

static int bad(const char *what, const char *fmt, ...) {
  char msg[1024];
  int n = snprintf(msg, sizeof(msg), "%s: ", what);
  va_list ap;
  va_start(ap, fmt);
  if (n >= 0 && (size_t)n < sizeof(msg))
    vsnprintf(msg + n, sizeof(msg) - (size_t)n, fmt, ap);
  va_end(ap);
  hpf_error("error", msg);
  return 1;
}

/* Whether two dumps' main programs (segment 0) may be of one binary: their
 * build ids agree, or one of them has none. */

static int other_program(const char *path, const char *first) {
  return bad(path,
             "its main program's build id differs from %s's (merge takes "
             "profiles of one binary)",
             first);
}

/* Appends path, or a directory's *.profraw files sorted by name (PATH@N:
 * their checkpoints 1..N). */
static int add_inputs(const char *given, input_t **in, size_t *n) {
  char *split = NULL;
  uint64_t up_to = UINT64_MAX;
  if (hpr_split_checkpoint(given, &split, &up_to) < 0)
    return bad(given, HPR_CHECKPOINT_ZERO);
  const char *path = split ? split : given;
  /* "-": the standard input (hpr_read), a profile, not a directory. */
  struct stat st;
  bool is_stdin = hpr_is_stdin(path);
  if (!is_stdin && stat(path, &st) != 0)
    return bad(path, "cannot open: %s", strerror(errno));
  char **names = NULL;
  size_t nn = 0;
  if (!is_stdin && S_ISDIR(st.st_mode)) {
    char why[256];
    if (!hpf_list_profiles(path, &names, &nn, why, sizeof(why))) {
      int rc = bad(path, "%s", why);
      free(split);
      return rc;
    }
  } else {
    names = xcalloc(1, sizeof(char *));
    names[nn++] = strdup(path);
  }
  *in = xrealloc(*in, (*n + nn) * sizeof(input_t));
  for (size_t i = 0; i < nn; i++) {
    input_t *x = &(*in)[(*n)++];
    x->path = names[i];
    x->up_to = up_to;
    x->given = given;
    x->ndumps = 0;
    x->any_checkpoint = false;
    x->first_checkpoint = 0;
  }
  free(names);
  free(split);
  return 0;
}

/* Dumps in merge order: by process (first appearance), then checkpoint
 * number with the exit or final dump (0) last, then input order. */
static int cmp_dump(const void *a, const void *b) {
  const dump_ref_t *x = a, *y = b;
  if (x->proc != y->proc)
    return x->proc < y->proc ? -1 : 1;
  uint64_t sx = x->ext_seq ? x->ext_seq : UINT64_MAX;
  uint64_t sy = y->ext_seq ? y->ext_seq : UINT64_MAX;
  if (sx != sy)
    return sx < sy ? -1 : 1;
  return x->order < y->order ? -1 : x->order > y->order;
}

static int cmp_stack(const void *a, const void *b) {
  uint64_t x = (*(const hpr_stack_t *const *)a)->id;
  uint64_t y = (*(const hpr_stack_t *const *)b)->id;
  return x < y ? -1 : x > y;
}

/* A copy of a section, which outlives its file's buffer; NULL for none. */
static hpr_section_t *section_copy(const hpr_section_t *s) {
  if (!s)
    return NULL;
  hpr_section_t *c = xcalloc(1, sizeof(*c));
  uint8_t *data = xcalloc(s->size ? s->size : 1, 1);
  memcpy(data, s->data, s->size);
  c->tag = s->tag;
  c->size = s->size;
  c->data = data;
  return c;
}

static void section_free(hpr_section_t *s) {
  if (s)
    free((void *)s->data);
  free(s);
}

/* The main program's build id of a dump (segment 0), 0 bytes if unknown. */
static uint64_t main_build_id(const hpr_dump_t *d, uint8_t out[32]) {
  if (!d->nsegs || !d->segs[0].build_id_size)
    return 0;
  memcpy(out, d->segs[0].build_id, d->segs[0].build_id_size);
  return d->segs[0].build_id_size;
}

/* Whether two build ids may be one program's (an unknown one may). */
static bool same_build_id(const uint8_t *a, uint64_t na, const uint8_t *b,
                          uint64_t nb) {
  return !na || !nb || (na == nb && !memcmp(a, b, na));
}

/* Which section tags this merge has a rule for; 1 (after the message) for
 * a section it would have to drop, or one too damaged to merge. */
static int check_sections(const char *path, const hpr_dump_t *d) {
  /* Sections of fixed words: the least a payload must hold. */
  static const struct {
    uint64_t tag;
    const char *name;
    int bytes;
  } least[] = {{SEC_UTILIZATION, "heap utilization", UTIL_WORDS * 8},
               {SEC_SAMPLED, "sampled-mode", 8},
               {HPR_TAG_STACKS, "stacks", HPR_STACKS_WORDS * 8}};
  uint64_t akind, alen, cflags, cargc, clen, rlen;
  const char *apath, *cargs, *rpath;
  char msg[256];
  for (uint64_t k = 0; k < d->nsections; k++) {
    const hpr_section_t *s = &d->sections[k];
    uint64_t tag = s->tag;
    for (size_t i = 0; i < sizeof(least) / sizeof(least[0]); i++)
      if (tag == least[i].tag && s->size < (uint64_t)least[i].bytes)
        return bad(path,
                   "the dump at offset 0x%llx has a %s section (tag %llu) of "
                   "%llu bytes, less than its %d",
                   (unsigned long long)d->offset, least[i].name,
                   (unsigned long long)tag, (unsigned long long)s->size,
                   least[i].bytes);
    if (tag == SEC_FALSE_SHARING && !fs_section_ok(s))
      return bad(path,
                 "the dump at offset 0x%llx has a damaged false sharing "
                 "section (tag 6): its pair rows do not fit its %llu bytes",
                 (unsigned long long)d->offset, (unsigned long long)s->size);
    if (tag == HPR_TAG_TIMELINE && !hpr_timeline_check(s, msg, sizeof(msg)))
      return bad(path, "the dump at offset 0x%llx: %s",
                 (unsigned long long)d->offset, msg);
    if (tag == HPR_TAG_LEAKS && !hpr_leaks_check(s, msg, sizeof(msg)))
      return bad(path, "the dump at offset 0x%llx: %s",
                 (unsigned long long)d->offset, msg);
    if (tag == HPR_TAG_ALLOCATOR &&
        (!hpr_allocator(s, &akind, &apath, &alen) || alen >= 4096))
      return bad(path,
                 "the dump at offset 0x%llx has a damaged allocator section "
                 "(tag 13)",
                 (unsigned long long)d->offset);
    if (tag == HPR_TAG_COMMAND &&
        (!hpr_command(s, &cflags, &cargc, &cargs, &clen) || clen > 4096))
      return bad(path,
                 "the dump at offset 0x%llx has a damaged command line "
                 "section (tag 14)",
                 (unsigned long long)d->offset);
    if (tag == HPR_TAG_RUN_PATH &&
        (!hpr_run_path(s, &rpath, &rlen) || rlen >= 4096))
      return bad(path,
                 "the dump at offset 0x%llx has a damaged program path "
                 "section (tag 15)",
                 (unsigned long long)d->offset);
    if (tag != SEC_UTILIZATION && tag != SEC_FALSE_SHARING &&
        tag != SEC_SAMPLED && tag != HPR_TAG_TIMELINE &&
        tag != HPR_TAG_LEAKS && tag != HPR_TAG_UNLOADED &&
        tag != HPR_TAG_PEAK && tag != HPR_TAG_OVERHEAD &&
        tag != HPR_TAG_STACKS && tag != HPR_TAG_ALLOCATOR &&
        tag != HPR_TAG_COMMAND && tag != HPR_TAG_RUN_PATH &&
        (tag < HPO_TAG_OP_CLASSES || tag > HPO_TAG_PMU))
      return bad(path,
                 "the dump at offset 0x%llx has a section with tag %llu that "
                 "this heapprof merge does not know how to merge",
                 (unsigned long long)d->offset, (unsigned long long)tag);
  }
  return 0;
}

/* The dumps chosen, and their processes, from a first read of every input
 * file, one at a time: PATH@N's selection, one binary, sections with a
 * rule, one false-sharing layout, and each dump's process. A process is a
 * pid with its main program's load bias; the latest such process that has
 * no dump with this checkpoint number yet takes it; a dump of the same
 * size and hash as the one it has is the same dump given twice (counted
 * once), other contents mean another process that had the same pid and
 * bias. */
/* A file read and kept: the first read hands its last file to the second,
 * which begins with it when it holds the first dump to add (one profile
 * merged: read and parsed once). */
typedef struct reader {
  hpr_file_t f;
  size_t input;
  bool loaded;
} reader_t;

typedef struct choice {
  dump_ref_t *dumps;
  size_t nd;
  proc_t *procs;
  size_t np;
  uint8_t (*bids)[32]; /* per dump: its main program's build id */
  uint64_t *nbids;
} choice_t;

/* Takes d's named stack ids (sections 6 and 10, checked by
 * check_sections) for its process when d comes after the dump that gave
 * them in merge order (cmp_dump: checkpoint number, 0 last, then the
 * order read, and d is the latest read). */
static void named_ids(proc_t *pr, const hpr_dump_t *d) {
  uint64_t seq = d->ext_seq ? d->ext_seq : UINT64_MAX;
  if (pr->has_named && seq < pr->named_seq)
    return;
  pr->has_named = true;
  pr->named_seq = seq;
  pr->nnamed = 0;
  const hpr_section_t *fs = hpr_section(d, SEC_FALSE_SHARING);
  const hpr_section_t *lk = hpr_section(d, HPR_TAG_LEAKS);
  uint64_t nfs = fs ? word(fs, 9) : 0;
  uint64_t nlk = lk ? hpr_leaks_head(lk).nrows : 0;
  pr->named = xrealloc(pr->named, (2 * nfs + nlk) * 8);
  for (uint64_t r = 0; r < nfs; r++) {
    uint64_t at = FS_HEAD + r * word(fs, 8);
    pr->named[pr->nnamed++] = word(fs, at);
    pr->named[pr->nnamed++] = word(fs, at + 1);
  }
  for (uint64_t r = 0; r < nlk; r++)
    pr->named[pr->nnamed++] = hpr_leaks_row(lk, r).stack_id;
}

static int choose_dumps(input_t *in, size_t nin, choice_t *c,
                        reader_t *keep) {
  uint8_t first_bid[32];
  uint64_t first_n = 0;
  bool have_first = false;
  const char *fs_first = NULL;
  uint64_t fs_lay = 0;
  for (size_t i = 0; i < nin; i++) {
    hpr_file_t f;
    char err[512];
    if (keep->loaded) /* one file at a time */
      hpr_free(&keep->f);
    keep->loaded = false;
    /* Mapped (hpr_map), its pages given back as it is read: a copy of
     * the file was most of merge's peak (docs/performance.md). */
    if (!hpr_map(in[i].path, &f, err, sizeof(err))) {
      hpr_free(&f);
      return bad(in[i].path, "%s", err);
    }
    in[i].ndumps = f.ndumps;
    int rc = 0;
    /* Another binary's profile: said at its file, not after every file of
     * a large directory was read (a --follow-exec run's has many
     * programs). */
    if (i == 0 && f.ndumps) {
      first_n = main_build_id(&f.dumps[0], first_bid);
      have_first = true;
    }
    for (size_t k = 0; have_first && k < f.ndumps && !rc; k++) {
      uint8_t bid[32];
      uint64_t n = main_build_id(&f.dumps[k], bid);
      if (!same_build_id(first_bid, first_n, bid, n))
        rc = other_program(in[i].path, in[0].path);
    }
    c->dumps = xrealloc(c->dumps, (c->nd + f.ndumps) * sizeof(dump_ref_t));
    c->bids = xrealloc(c->bids, (c->nd + f.ndumps + 1) * sizeof(*c->bids));
    c->nbids = xrealloc(c->nbids, (c->nd + f.ndumps + 1) * sizeof(uint64_t));
    for (size_t k = 0; k < f.ndumps && !rc; k++) {
      const hpr_dump_t *d = &f.dumps[k];
      if (d->has_ext && d->ext_seq && d->ext_seq <= in[i].up_to)
        in[i].any_checkpoint = true;
      if (d->has_ext && d->ext_seq &&
          (!in[i].first_checkpoint || d->ext_seq < in[i].first_checkpoint))
        in[i].first_checkpoint = d->ext_seq;
      if (in[i].up_to != UINT64_MAX &&
          (!d->has_ext || !d->ext_seq || d->ext_seq > in[i].up_to))
        continue;
      if ((rc = check_sections(in[i].path, d)))
        break;
      const hpr_section_t *fs = hpr_section(d, SEC_FALSE_SHARING);
      if (fs && !fs_first) {
        fs_first = in[i].path;
        fs_lay = fs_layout(fs);
      } else if (fs && fs_layout(fs) != fs_lay) {
        rc = bad(in[i].path,
                 "its false sharing section (tag 6) describes the %s layout, "
                 "that of %s the %s one: merge profiles of one layout",
                 fs_layout(fs) ? "real allocator's" : "simulated packed",
                 fs_first, fs_lay ? "real allocator's" : "simulated packed");
        break;
      }
      dump_ref_t r = {0};
      r.input = i;
      r.index = k;
      r.path = in[i].path;
      r.offset = d->offset;
      r.total_size = d->total_size;
      r.hash = hpr_dump_hash(&f, d);
      r.pid = d->ext_pid;
      r.main_bias = d->nsegs ? d->segs[0].offset : 0;
      r.ext_seq = d->ext_seq;
      r.has_ext = d->has_ext;
      r.has_peak =
          hpr_section_field(hpr_section(d, HPR_TAG_PEAK), hpr_peak_names,
                            hpr_num_peak_names, "peak_bytes", &r.peak_bytes);
      size_t p = c->np;
      bool dup = false;
      for (size_t j = c->np; j-- > 0 && d->has_ext && p == c->np && !dup;) {
        if (!c->procs[j].has_ext || c->procs[j].pid != r.pid ||
            c->procs[j].main_bias != r.main_bias)
          continue;
        bool taken = false;
        for (size_t e = 0; e < c->nd && !taken; e++) {
          const dump_ref_t *o = &c->dumps[e];
          if (o->proc != j || o->ext_seq != r.ext_seq)
            continue;
          taken = true;
          dup = o->total_size == r.total_size && o->hash == r.hash;
        }
        if (!taken)
          p = j;
      }
      if (dup)
        continue;
      if (p == c->np) {
        c->procs = xrealloc(c->procs, (c->np + 1) * sizeof(proc_t));
        c->procs[c->np++] = (proc_t){
            .pid = r.pid, .main_bias = r.main_bias, .has_ext = r.has_ext};
      }
      r.order = c->nd;
      r.proc = p;
      named_ids(&c->procs[p], d);
      c->nbids[c->nd] = main_build_id(d, c->bids[c->nd]);
      c->dumps[c->nd++] = r;
    }
    /* Truncated or rewritten while its dumps were hashed: the hashes may
     * be of zeros, or of another file's bytes. */
    if (!rc && hpr_changed(&f))
      rc = bad(in[i].path, "changed while it was read");
    if (rc) {
      hpr_free(&f);
      return rc;
    }
    keep->f = f;
    keep->input = i;
    keep->loaded = true;
  }
  /* An input PATH@N that selected no dump. */
  for (size_t i = 0; i < nin; i++) {
    if (in[i].up_to == UINT64_MAX)
      continue;
    bool any = false;
    uint64_t first = 0;
    for (size_t j = 0; j < nin && !any; j++) {
      if (in[j].given != in[i].given)
        continue;
      any = in[j].any_checkpoint;
      if (in[j].first_checkpoint &&
          (!first || in[j].first_checkpoint < first))
        first = in[j].first_checkpoint;
    }
    if (!any) {
      char why[160];
      hpr_checkpoint_none(why, sizeof(why), in[i].up_to, first);
      return bad(in[i].given, "%s", why);
    }
  }
  /* One binary: the main programs' build ids (segment 0) must agree. */
  for (size_t i = 1; i < c->nd; i++)
    if (!same_build_id(c->bids[0], c->nbids[0], c->bids[i], c->nbids[i]))
      return other_program(c->dumps[i].path, c->dumps[0].path);
  return 0;
}

/* The second read: the file holding ref, read again unless it is the one
 * read last, and the dump in it, which must be the one the first read
 * found (a file may have grown since: append_dumps; it is read as it was). */
static const hpr_dump_t *reread(reader_t *r, const input_t *in,
                                const dump_ref_t *ref, int *rc) {
  if (!r->loaded || r->input != ref->input) {
    if (r->loaded)
      hpr_free(&r->f);
    r->loaded = false;
    char err[512];
    if (!hpr_map(in[ref->input].path, &r->f, err, sizeof(err))) {
      hpr_free(&r->f);
      *rc = bad(ref->path, "%s (reading it again to add it up)", err);
      return NULL;
    }
    r->loaded = true;
    r->input = ref->input;
  }
  const hpr_dump_t *d =
      ref->index < r->f.ndumps ? &r->f.dumps[ref->index] : NULL;
  if (!d || d->offset != ref->offset || d->total_size != ref->total_size ||
      hpr_dump_hash(&r->f, d) != ref->hash) {
    /* The mapping itself changed (a file kept from the first read, or
     * changed since mapped again): said as for any read. */
    if (hpr_changed(&r->f)) {
      *rc = bad(ref->path, "changed while it was read");
      return NULL;
    }
    *rc = bad(ref->path,
              "it changed while being merged: the dump at offset 0x%llx is "
              "not the one the first read found",
              (unsigned long long)ref->offset);
    return NULL;
  }
  return d;
}

/* The merged profile, counted and then written as it is made: OUT appears
 * whole, or not at all (hpf_open's temporary, renamed at hpf_close).  It
 * is as private as the profiles it adds up (the runtime writes them
 * 0600). */
static int write_file(const char *out, const layout_t *l, const contexts_t *c,
                      const totals_t *t) {
  out_sizes_t sz = {0};
  buf_t count = {0};
  write_profile(&count, l, c, t, &sz);
  char why[256];
  hpf_out_t *o = hpf_open(out, 0600, why, sizeof(why));
  if (!o)
    return bad(out, "cannot write: %s", why);
  buf_t b = {xcalloc(BUF_CAP, 1), 0, 0, o};
  /* The same function on the same totals: the same sizes (its one
   * change to them, a negative continuations count made 0, is made by
   * the first pass). */
  write_profile(&b, l, c, t, &sz);
  flush(&b);
  free(b.data);
  if (!hpf_close(o, true, why, sizeof(why)))
    return bad(out, "cannot write: %s", why);
  return 0;
}

const char heapprof_merge_usage[] =
    "usage: heapprof merge -o OUT PROFILE|DIR...\n"
    "  add up raw profiles of one binary (processes, checkpoints, a\n"
    "  directory's .profraw files) into one raw profile OUT; PROFILE@N\n"
    "  or DIR@N: its checkpoints 1..N only\n";

int heapprof_merge_main(int argc, char **argv) {
  const char *out = NULL;
  input_t *in = NULL;
  size_t nin = 0;
  int rc = 0;
  /* The options as every command takes them (cli.cpp): -o or --output,
   * with its value next or after '=', -h or --help, and -- before inputs
   * whose names begin with '-'. */
  bool operands = false;
  for (int i = 0; i < argc && !rc; i++) {
    const char *a = argv[i];
    if (operands || a[0] != '-' || !a[1]) {
      rc = add_inputs(a, &in, &nin);
    } else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      fputs(heapprof_merge_usage, stdout);
      return 0;
    } else if (!strcmp(a, "--")) {
      operands = true;
    } else if (!strcmp(a, "-o") || !strcmp(a, "--output")) {
      if (i + 1 == argc) {
        char msg[64];
        snprintf(msg, sizeof(msg), "option '%s' needs a value", a);
        hpf_error("error", msg);
        fputs(heapprof_merge_usage, stderr);
        return 2;
      }
      out = argv[++i];
    } else if (!strncmp(a, "-o=", 3) || !strncmp(a, "--output=", 9)) {
      out = strchr(a, '=') + 1;
    } else {
      size_t n = strlen(a) + 32;
      char *msg = xcalloc(n, 1);
      snprintf(msg, n, "unknown option '%s'", a);
      hpf_error("error", msg);
      free(msg);
      fputs(heapprof_merge_usage, stderr);
      return 2;
    }
  }
  if (!rc && (!out || !nin)) {
    /* As every command: the error, then the usage. */
    hpf_error("error", !out ? "no output file given (-o OUT)"
                            : "no profile given");
    fputs(heapprof_merge_usage, stderr);
    rc = 2;
  }
  if (!rc) {
    /* The output must not replace an input or be read back as one. */
    const char **given = xcalloc(nin, sizeof(char *));
    size_t ng = 0;
    for (size_t i = 0; i < nin; i++)
      if (!ng || given[ng - 1] != in[i].given)
        given[ng++] = in[i].given;
    char why[512];
    if (hpf_conflict(out, given, ng, why, sizeof(why)))
      rc = bad(out, "%s", why);
    free(given);
  }

  /* The first read: every dump chosen, with its process. */
  choice_t ch = {0};
  reader_t rd = {0};
  if (!rc)
    rc = choose_dumps(in, nin, &ch, &rd);
  dump_ref_t *dumps = ch.dumps;
  size_t nd = ch.nd;
  proc_t *procs = ch.procs;
  size_t np = ch.np;
  if (!rc)
    qsort(dumps, nd, sizeof(dump_ref_t), cmp_dump);
  for (size_t i = 0; i < nd; i++)
    procs[dumps[i].proc].last = i;
  /* The process with the largest peak (its last dump's). */
  size_t peak_proc = np;
  uint64_t peak_bytes = 0;
  for (size_t p = 0; p < np && !rc; p++) {
    const dump_ref_t *l = &dumps[procs[p].last];
    if (l->has_peak && (peak_proc == np || l->peak_bytes > peak_bytes)) {
      peak_proc = p;
      peak_bytes = l->peak_bytes;
    }
  }

  layout_t layout = {0};
  contexts_t ctx = {0};
  totals_t *t = xcalloc(1, sizeof(totals_t));
  t->ext_fields = hpr_num_ext_names;
  proc_ids_t *by_proc = xcalloc(np ? np : 1, sizeof(proc_ids_t));
  for (size_t p = 0; p < np && !rc; p++) {
    proc_ids_t *ids = &by_proc[p];
    ids->keys = procs[p].named;
    procs[p].named = NULL;
    qsort(ids->keys, procs[p].nnamed, 8, cmp_u64);
    for (size_t k = 0; k < procs[p].nnamed; k++)
      if (!ids->n || ids->keys[ids->n - 1] != ids->keys[k])
        ids->keys[ids->n++] = ids->keys[k];
    ids->ctx = xcalloc(ids->n, sizeof(size_t));
    for (size_t k = 0; k < ids->n; k++)
      ids->ctx[k] = SIZE_MAX;
  }
  size_t live_f = ext_index("live_at_dump"), cont_f = ext_index("continuations");
  uint64_t *pcs = NULL; /* a record's stack translated */
  size_t npcs_cap = 0;
  /* The second read, in merge order. */
  for (size_t i = 0; i < nd && !rc; i++) {
    const hpr_dump_t *d = reread(&rd, in, &dumps[i], &rc);
    if (!d)
      break;
    bool last = procs[dumps[i].proc].last == i;
    uint64_t pb;
    bool same_peak =
        dumps[i].proc == peak_proc &&
        hpr_section_field(hpr_section(d, HPR_TAG_PEAK), hpr_peak_names,
                          hpr_num_peak_names, "peak_bytes", &pb) &&
        pb == peak_bytes;
    dump_segs_t ds;
    dump_segs_read(d, &ds);
    xlate_t *x = make_xlate(&layout, &ds, i == 0);
    /* The dump's stacks sorted by id, to find each MIB's. */
    const hpr_stack_t **by_id = xcalloc(d->nstacks, sizeof(*by_id));
    for (uint64_t s = 0; s < d->nstacks; s++)
      by_id[s] = &d->stacks[s];
    qsort(by_id, d->nstacks, sizeof(*by_id), cmp_stack);
    for (uint64_t m = 0; m < d->nmibs && !rc; m++) {
      const hpr_mib_t *mib = &d->mibs[m];
      hpr_stack_t key = {.id = mib->stack_id};
      const hpr_stack_t *kp = &key;
      const hpr_stack_t **found =
          bsearch(&kp, by_id, d->nstacks, sizeof(*by_id), cmp_stack);
      const hpr_stack_t *st = found ? *found : NULL;
      if (!st && hpr_changed(&rd.f)) {
        rc = bad(dumps[i].path, "changed while it was read");
        break;
      }
      if (!st) {
        rc = bad(dumps[i].path,
                   "the dump at offset 0x%llx has a MIB with stack id %llu "
                   "but no such stack",
                   (unsigned long long)d->offset,
                   (unsigned long long)mib->stack_id);
        break;
      }
      if (st->n > npcs_cap) {
        npcs_cap = st->n;
        pcs = xrealloc(pcs, npcs_cap * 8);
      }
      for (uint64_t p = 0; p < st->n; p++) {
        uint64_t pc;
        memcpy(&pc, &st->pcs[p], 8);
        pcs[p] = translate(x, ds.n, pc);
      }
      context_t *c = context_get(&ctx, pcs, st->n);
      size_t *named = ids_at(&by_proc[dumps[i].proc], mib->stack_id);
      if (named && *named == SIZE_MAX)
        *named = (size_t)(c - ctx.v);
      uint64_t f[NMIB], cf[NMIB], ext[NEXT_OUT];
      for (unsigned k = 0; k < NMIB; k++)
        f[k] = hpr_mib_field(d, mib, k);
      ctx_unpack(&ctx, c, cf, ext);
      bool fit = true;
      if (!(c->ext_mask & COUNTED)) {
        memcpy(cf, f, sizeof(f));
        fit = counts_fit(cf);
      } else {
        fit = merge_mib(cf, f);
      }
      /* A MIB sum past 2^63 - 1 is said with the extension's, below. */
      c->ext_mask |= COUNTED;
      uint64_t nf = mib->ext ? d->ext_nfields : 0;
      /* The summed fields are counts as the MIB's are (counts_fit); the
       * continuations alone are added modulo 2^64 (below). */
      for (size_t e = 0; e < hpr_num_ext_names && e < nf; e++) {
        uint64_t v = hpr_ext(d, mib, e);
        if (peak_field(e))
          ext[e] = same_peak ? v : ext[e];
        else if (!strcmp(hpr_ext_names[e], "max_size64"))
          ext[e] = v > ext[e] ? v : ext[e];
        else if (e == cont_f)
          ext[e] += v;
        else if (!(state_field(e) && !last))
          fit &= hpr_add_count(&ext[e], v);
      }
      if (!fit) {
        rc = bad(dumps[i].path,
                 "corrupt: the dump at offset 0x%llx: its counts, with those "
                 "read before it, add up to more than 2^63 - 1",
                 (unsigned long long)d->offset);
        break;
      }
      /* The continuations of one dump of the whole run: an object live at
       * a checkpoint is a continuation in the next dump, so those cancel
       * and what remains is the objects inherited at fork (added modulo
       * 2^64 in any order; a sampled estimate below 0 is written as 0). */
      if (!last && live_f < nf && cont_f < nf)
        ext[cont_f] -= hpr_ext(d, mib, live_f);
      ctx_pack(&ctx, c, cf, ext);
      /* The records read are given back as they go; the stacks, read in
       * the records' order, are kept until the dump is added. */
      if (m % 65536 == 65535)
        hpr_drop_mibs(&rd.f, d, m - 65535, m + 1);
    }
    hpr_drop(&rd.f, rd.f.data + d->offset, d->total_size);
    /* Truncated or rewritten while its records were read: they may have
     * read zeros, or another file's bytes (the sections were copied when
     * parsed and checked). */
    if (!rc && hpr_changed(&rd.f))
      rc = bad(dumps[i].path, "changed while it was read");
    free(by_id);
    free(x);
    dump_segs_free(&ds);
    for (uint64_t b = 0; b < d->nbins && !rc; b++) {
      hpr_bin_t *o = &t->bins[d->bins[b].size];
      if (!hpr_add_count(&o->allocs, d->bins[b].allocs) ||
          !hpr_add_count(&o->bytes, d->bins[b].bytes) ||
          !hpr_add_count(&o->frees, d->bins[b].frees) ||
          !hpr_add_count(&o->freed_bytes, d->bins[b].freed_bytes))
        rc = bad(dumps[i].path,
                 "corrupt: the dump at offset 0x%llx: its size bins' counts, "
                 "with those read before it, add up to more than 2^63 - 1",
                 (unsigned long long)d->offset);
    }
    for (uint64_t s = 0; s < d->nsections && !rc; s++) {
      const hpr_section_t *sec = &d->sections[s];
      if (sec->tag < HPO_TAG_OP_CLASSES || sec->tag > HPO_TAG_PMU)
        continue; /* 6, 7, 10: from each process's last dump */
      hpo_section_t o;
      char err[256];
      bool ok = hpo_decode(sec->tag, sec->data, sec->size, &o, err,
                           sizeof(err));
      if (ok) {
        ok = hpo_add(&t->opcost[sec->tag - HPO_TAG_OP_CLASSES], &o, err,
                     sizeof(err));
        hpo_free(&o);
      }
      if (!ok)
        rc = bad(dumps[i].path, "the dump at offset 0x%llx: %s",
                 (unsigned long long)d->offset, err);
    }
    t->ms = d->ext_ms > t->ms ? d->ext_ms : t->ms;
    if (d->has_ext && d->ext_nfields < t->ext_fields)
      t->ext_fields = d->ext_nfields;
    const hpr_section_t *sm = hpr_section(d, SEC_SAMPLED);
    if (sm && sm->size >= 8) {
      uint64_t n;
      memcpy(&n, sm->data, 8);
      t->sample_bytes = !t->sampled || t->sample_bytes == n ? n : 0;
      t->sampled = true;
    }
    t->dumps++;
    const hpr_section_t *st = hpr_section(d, HPR_TAG_STACKS);
    if (st && st->size >= HPR_STACKS_WORDS * 8) {
      static const uint64_t several[HPR_STACKS_WORDS] = {0, 2};
      for (int w = 0; w < HPR_STACKS_WORDS; w++) {
        uint64_t v;
        memcpy(&v, st->data + 8 * w, 8);
        t->stacks[w] = !t->stack_dumps || t->stacks[w] == v ? v : several[w];
      }
      t->stack_dumps++;
    }
    uint64_t akind, alen;
    const char *apath;
    if (hpr_allocator(hpr_section(d, HPR_TAG_ALLOCATOR), &akind, &apath,
                      &alen) &&
        alen < sizeof(t->alloc_path)) {
      if (!t->alloc_dumps) {
        t->alloc_kind = akind;
        t->alloc_len = alen;
        memcpy(t->alloc_path, apath, alen);
      } else if (t->alloc_kind != akind || t->alloc_len != alen ||
                 memcmp(t->alloc_path, apath, alen)) {
        t->alloc_kind = HPR_ALLOCATOR_SEVERAL;
        t->alloc_len = 0;
      }
      t->alloc_dumps++;
    }
    uint64_t cflags, cargc, clen;
    const char *cargs;
    if (hpr_command(hpr_section(d, HPR_TAG_COMMAND), &cflags, &cargc, &cargs,
                    &clen) &&
        clen <= sizeof(t->cmd)) {
      if (!t->cmd_dumps) {
        t->cmd_same = true;
        t->cmd_flags = cflags;
        t->cmd_argc = cargc;
        t->cmd_len = clen;
        memcpy(t->cmd, cargs, clen);
      } else if (t->cmd_flags != cflags || t->cmd_argc != cargc ||
                 t->cmd_len != clen || memcmp(t->cmd, cargs, clen)) {
        t->cmd_same = false;
      }
      t->cmd_dumps++;
    }
    uint64_t rlen;
    const char *rpath;
    if (hpr_run_path(hpr_section(d, HPR_TAG_RUN_PATH), &rpath, &rlen) &&
        rlen < sizeof(t->run_path)) {
      if (!t->run_dumps) {
        t->run_same = true;
        t->run_len = rlen;
        memcpy(t->run_path, rpath, rlen);
      } else if (t->run_len != rlen || memcmp(t->run_path, rpath, rlen)) {
        t->run_same = false;
      }
      t->run_dumps++;
    }
    if (last && !rc && !hpr_add_count(&t->evictions, d->ext_evictions))
      rc = bad(dumps[i].path,
               "corrupt: the dump at offset 0x%llx: its HIB table evictions, "
               "with those read before it, add up to more than 2^63 - 1",
               (unsigned long long)d->offset);
    if (last) {
      t->last_dumps++;
      by_proc[dumps[i].proc].sec = section_copy(hpr_section(d, SEC_FALSE_SHARING));
      by_proc[dumps[i].proc].leaks = section_copy(hpr_section(d, HPR_TAG_LEAKS));
      by_proc[dumps[i].proc].last = &dumps[i];
      if (dumps[i].proc == peak_proc) {
        t->peak_secs[0] = section_copy(hpr_section(d, HPR_TAG_PEAK));
        t->peak_secs[1] = section_copy(hpr_section(d, HPR_TAG_OVERHEAD));
        t->peak_secs[2] = section_copy(hpr_section(d, HPR_TAG_TIMELINE));
      }
      t->leak_dumps += by_proc[dumps[i].proc].leaks != NULL;
      const hpr_section_t *u = hpr_section(d, SEC_UTILIZATION);
      if (u && u->size >= UTIL_WORDS * 8) {
        t->util_dumps++;
        bool fit = true;
        for (int w = 0; w < UTIL_WORDS; w++) {
          uint64_t v;
          memcpy(&v, u->data + 8 * w, 8);
          fit &= hpr_add_count(&t->util[w], v);
        }
        if (!fit && !rc)
          rc = bad(dumps[i].path,
                   "corrupt: the dump at offset 0x%llx: its heap utilization "
                   "section's (tag 7) counts, with those read before it, add "
                   "up to more than 2^63 - 1",
                   (unsigned long long)d->offset);
      }
    }
  }
  if (rd.loaded)
    hpr_free(&rd.f);
  if (nd)
    t->pid = dumps[0].pid;
  /* (One layout only: checked by the first read.) */
  if (!rc)
    rc = merge_false_sharing(t, by_proc, np);
  if (!rc && t->leak_dumps == t->last_dumps)
    rc = merge_leaks(t, by_proc, np);
  for (size_t p = 0; p < np; p++) {
    free(by_proc[p].keys);
    free(by_proc[p].ctx);
    section_free(by_proc[p].sec);
    section_free(by_proc[p].leaks);
  }
  free(by_proc);

  if (!rc) {
    rc = write_file(out, &layout, &ctx, t);
  }

  free(pcs);
  while (ctx.chunks) {
    arena_chunk_t *next = ctx.chunks->next;
    free(ctx.chunks);
    ctx.chunks = next;
  }
  free(ctx.v);
  free(ctx.slots);
  free(ctx.pool);
  for (size_t i = 0; i < layout.n; i++) {
    free(layout.mods[i].segs);
    free((char *)layout.mods[i].path);
  }
  free(layout.mods);
  free(t->pairs);
  free(t->leak_rows);
  for (int i = 0; i < 3; i++) {
    hpo_free(&t->opcost[i]);
    section_free(t->peak_secs[i]);
  }
  free(t);
  free(dumps);
  for (size_t p = 0; p < np; p++)
    free(procs[p].named);
  free(procs);
  free(ch.bids);
  free(ch.nbids);
  for (size_t i = 0; i < nin; i++)
    free(in[i].path);
  free(in);
  return rc;
}
