/*===- heapprof_rawreader.c - reads raw profiles and the extension ------===
 *
 * Part of heapprof's tools.  See heapprof_rawreader.h.
 *===----------------------------------------------------------------------===*/
#include "heapprof_rawreader.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAGIC 0xff6d70726f667281ull
#define EXT_MAGIC 0x0076005458455048ull
#define EXT_VERSION_MIN 1
#define EXT_VERSION 3

const char *const hpr_mib_names[27] = {
#define HP_MIB_FIELD(type, name, raw) #raw,
#include "heapprof_mib_fields.inc"
#undef HP_MIB_FIELD
};
#define u32_t_ uint32_t
#define u64_t_ uint64_t
/* A raw MIB after its stack id: the fields as the file has them. */
struct __attribute__((packed)) mib_layout {
#define HP_MIB_FIELD(type, name, raw) type##_t_ name;
#include "heapprof_mib_fields.inc"
#undef HP_MIB_FIELD
};
_Static_assert(sizeof(struct mib_layout) < 256, "hpr_mib_offsets are bytes");
const uint8_t hpr_mib_widths[27] = {
#define HP_MIB_FIELD(type, name, raw) sizeof(type##_t_),
#include "heapprof_mib_fields.inc"
#undef HP_MIB_FIELD
};
const uint8_t hpr_mib_offsets[27] = {
#define HP_MIB_FIELD(type, name, raw) offsetof(struct mib_layout, name),
#include "heapprof_mib_fields.inc"
#undef HP_MIB_FIELD
};
/* Names of the extension fields this reader knows, in file order. */
const char *const hpr_ext_names[] = {
    "granules", "touched_granules", "pages", "touched_pages", "malloc_cycles",
    "free_cycles", "continuations", "live_at_dump", "max_size64",
    "malloc_samples", "free_samples", "live_bytes", "bytes_small",
    "bytes_medium", "bytes_large", "bytes_xlarge", "live_bytes_small",
    "live_bytes_medium", "live_bytes_large", "live_bytes_xlarge",
    "live_lines", "live_touched_lines", "live_line_bytes", "live_pages",
    "live_touched_pages", "live_page_bytes",
    "peak_objects", "peak_bytes", "temporary"};
const size_t hpr_num_ext_names = sizeof(hpr_ext_names) / sizeof(hpr_ext_names[0]);
_Static_assert(sizeof(hpr_ext_names) / sizeof(hpr_ext_names[0]) ==
                   HPR_NUM_EXT_NAMES,
               "HPR_NUM_EXT_NAMES counts hpr_ext_names");

typedef struct cursor {
  const uint8_t *base;
  uint64_t pos, end; /* relative to base */
  char *err;
  size_t err_size;
  uint64_t file_off; /* base's offset in the file, for messages */
  /* hpr_map: the mapped file's first byte (else NULL), and the offset in
   * the file up to which the parse gave its pages back (behind). */
  const uint8_t *map;
  uint64_t mark;
} cursor_t;

/* The pages of [p, p + n) of a mapping given back: a private read-only
 * mapping of a file reads them from the file again if they are touched. */
static void drop_pages(const uint8_t *p, size_t n) {
  static uintptr_t page;
  if (!page)
    page = (uintptr_t)sysconf(_SC_PAGESIZE);
  uintptr_t a = (uintptr_t)p & ~(page - 1);
  uintptr_t b = ((uintptr_t)p + n + page - 1) & ~(page - 1);
  if (n && b > a)
    madvise((void *)a, b - a, MADV_DONTNEED);
}

/* A parse of a mapped file gives back what it has read, every DROP_STEP
 * bytes: it touches every page (every record's stack id, every stack's
 * length), and the file was most of report's peak. */
#define DROP_STEP ((uint64_t)8 << 20)
static void behind(cursor_t *c) {
  if (!c->map)
    return;
  uint64_t at = c->file_off + c->pos;
  if (at < c->mark)
    c->mark = at; /* a jump back: from here */
  else if (at - c->mark >= DROP_STEP) {
    drop_pages(c->map + c->mark, at - c->mark);
    c->mark = at;
  }
}

static bool fail(cursor_t *c, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(c->err, c->err_size, fmt, ap);
  va_end(ap);
  return false;
}

static bool get(cursor_t *c, unsigned width, uint64_t *v, const char *what) {
  if (c->pos > c->end || c->end - c->pos < width)
    return fail(c, "corrupt or truncated: %s at offset 0x%llx runs past the end of its dump",
                what, (unsigned long long)(c->file_off + c->pos));
  uint64_t x = 0;
  memcpy(&x, c->base + c->pos, width);
  c->pos += width;
  *v = x;
  return true;
}

static bool get64(cursor_t *c, uint64_t *v, const char *what) {
  return get(c, 8, v, what);
}

/* A count of items of at least item_size bytes that must fit. */
static bool check_count(cursor_t *c, uint64_t n, uint64_t item_size,
                        const char *what) {
  if (item_size && n > (c->end - c->pos) / item_size)
    return fail(c, "corrupt: %llu %s at offset 0x%llx cannot fit in the %llu bytes left",
                (unsigned long long)n, what,
                (unsigned long long)(c->file_off + c->pos),
                (unsigned long long)(c->end - c->pos));
  return true;
}

/* A module's build id: its size, checked (at most 32), then the 32 bytes
 * that hold it, zero padded.  kind names the module in messages ("module",
 * "unloaded module"), what the bytes. */
static bool read_build_id(cursor_t *c, const char *kind, const char *what,
                          uint64_t i, uint64_t *size, uint8_t id[32]) {
  if (!get64(c, size, kind))
    return false;
  if (*size > 32)
    return fail(c, "corrupt: %s %llu has a %llu-byte build id (at most 32)",
                kind, (unsigned long long)i, (unsigned long long)*size);
  if (!check_count(c, 1, 32, what))
    return false;
  memcpy(id, c->base + c->pos, 32);
  c->pos += 32;
  return true;
}

/* A module's path: u64 length L, then L bytes zero padded to a multiple of
 * 8, copied NUL-terminated into *out (malloc'd).  where ends the message of
 * a path that runs past the bytes c has. */
static bool read_path(cursor_t *c, const char *kind, const char *what,
                      const char *where, uint64_t i, const char **out) {
  uint64_t len;
  if (!get64(c, &len, what))
    return false;
  if (len > c->end - c->pos || ((len + 7) & ~7ull) > c->end - c->pos)
    return fail(c, "corrupt: %s %llu's %llu-byte path at offset 0x%llx runs past %s",
                kind, (unsigned long long)i, (unsigned long long)len,
                (unsigned long long)(c->file_off + c->pos), where);
  char *path = malloc(len + 1);
  memcpy(path, c->base + c->pos, len);
  path[len] = 0;
  *out = path;
  c->pos += (len + 7) & ~7ull;
  return true;
}

/* Extension v2's sections after the records: modules, then size bins. */
static bool read_modules_and_bins(cursor_t *c, hpr_dump_t *d) {
  uint64_t n;
  if (!get64(c, &n, "module count") || !check_count(c, n, 56, "modules"))
    return false;
  d->modules = calloc(n ? n : 1, sizeof(hpr_module_t));
  d->nmodules = n;
  for (uint64_t i = 0; i < d->nmodules; i++) {
    hpr_module_t *m = &d->modules[i];
    if (!get64(c, &m->bias, "module") ||
        !read_build_id(c, "module", "module build id", i, &m->build_id_size,
                       m->build_id) ||
        !read_path(c, "module", "module path length", "the extension", i,
                   &m->path))
      return false;
  }
  if (!get64(c, &n, "bin count") || !check_count(c, n, 40, "size bins"))
    return false;
  d->bins = calloc(n ? n : 1, sizeof(hpr_bin_t));
  d->nbins = n;
  for (uint64_t i = 0; i < d->nbins; i++) {
    hpr_bin_t *b = &d->bins[i];
    if (!get64(c, &b->size, "size bin") || !get64(c, &b->allocs, "size bin") ||
        !get64(c, &b->bytes, "size bin") || !get64(c, &b->frees, "size bin") ||
        !get64(c, &b->freed_bytes, "size bin"))
      return false;
    if (b->size > 1025 || (i && b->size <= d->bins[i - 1].size))
      return fail(c, "corrupt: size bin %llu has size %llu (bins go up from 0 to 1025)",
                  (unsigned long long)i, (unsigned long long)b->size);
  }
  return true;
}

/* Extension v3's tagged sections, after the bins. */
static bool read_sections(cursor_t *c, hpr_dump_t *d) {
  uint64_t n;
  if (!get64(c, &n, "section count") || !check_count(c, n, 16, "sections"))
    return false;
  d->sections = calloc(n ? n : 1, sizeof(hpr_section_t));
  d->nsections = n;
  for (uint64_t i = 0; i < n; i++) {
    hpr_section_t *s = &d->sections[i];
    uint64_t at = c->file_off + c->pos;
    if (!get64(c, &s->tag, "section") || !get64(c, &s->size, "section"))
      return false;
    if (i && s->tag <= d->sections[i - 1].tag)
      return fail(c, "corrupt: section %llu at offset 0x%llx has tag %llu, not above the previous tag %llu",
                  (unsigned long long)i, (unsigned long long)at,
                  (unsigned long long)s->tag,
                  (unsigned long long)d->sections[i - 1].tag);
    if (s->size % 8 || s->size > c->end - c->pos)
      return fail(c, "corrupt: section %llu (tag %llu) at offset 0x%llx claims %llu payload bytes, %s",
                  (unsigned long long)i, (unsigned long long)s->tag,
                  (unsigned long long)at, (unsigned long long)s->size,
                  s->size % 8 ? "not a multiple of 8"
                              : "more than the extension has left");
    s->data = c->base + c->pos;
    c->pos += s->size;
  }
  return true;
}

/* Section 11 (runtime: heapprof_unloaded.c): u64 head_words H (3), u64
 * nmodules, u64 dropped, then from word H per module: u64 unloaded_ms,
 * bias, build id size, u8 build id[32], u64 nsegs (at most 4), nsegs x
 * {start, end}, u64 path length L, L bytes zero padded to 8. */
static bool read_unloaded(const cursor_t *outer, hpr_dump_t *d) {
  const hpr_section_t *s = hpr_section(d, HPR_TAG_UNLOADED);
  if (!s)
    return true;
  cursor_t c = *outer;
  c.pos = (uint64_t)(s->data - c.base);
  c.end = c.pos + s->size;
  uint64_t head, n;
  if (!get64(&c, &head, "unloaded modules' head") ||
      !get64(&c, &n, "unloaded modules' head") ||
      !get64(&c, &d->unloaded_dropped, "unloaded modules' head"))
    return false;
  if (head < 3 || head - 3 > (c.end - c.pos) / 8)
    return fail(&c, "corrupt: the unloaded modules' section (tag 11) has a %llu-word head",
                (unsigned long long)head);
  c.pos += (head - 3) * 8;
  if (!check_count(&c, n, 72, "unloaded modules"))
    return false;
  d->unloaded = calloc(n ? n : 1, sizeof(hpr_unloaded_t));
  d->nunloaded = n;
  for (uint64_t i = 0; i < n; i++) {
    hpr_unloaded_t *m = &d->unloaded[i];
    if (!get64(&c, &m->unloaded_ms, "unloaded module") ||
        !get64(&c, &m->bias, "unloaded module") ||
        !read_build_id(&c, "unloaded module", "unloaded module's build id", i,
                       &m->build_id_size, m->build_id))
      return false;
    if (!get64(&c, &m->nsegs, "unloaded module"))
      return false;
    if (m->nsegs > HPR_UNLOADED_MAX_SEGS)
      return fail(&c, "corrupt: unloaded module %llu has %llu segments (at most %d)",
                  (unsigned long long)i, (unsigned long long)m->nsegs,
                  HPR_UNLOADED_MAX_SEGS);
    for (uint64_t k = 0; k < m->nsegs; k++) {
      if (!get64(&c, &m->segs[k][0], "unloaded module's segment") ||
          !get64(&c, &m->segs[k][1], "unloaded module's segment"))
        return false;
      if (m->segs[k][0] >= m->segs[k][1])
        return fail(&c, "corrupt: unloaded module %llu's segment %llu ends at 0x%llx, not above its start 0x%llx",
                    (unsigned long long)i, (unsigned long long)k,
                    (unsigned long long)m->segs[k][1],
                    (unsigned long long)m->segs[k][0]);
    }
    if (!read_path(&c, "unloaded module", "unloaded module's path length",
                   "its section", i, &m->path))
      return false;
  }
  return true;
}

const hpr_section_t *hpr_section(const hpr_dump_t *d, uint64_t tag) {
  for (uint64_t i = 0; i < d->nsections; i++)
    if (d->sections[i].tag == tag)
      return &d->sections[i];
  return NULL;
}

const char *const hpr_allocator_names[HPR_ALLOCATOR_SEVERAL + 1] = {
    "heapprof", "glibc", "library", "several"};

bool hpr_allocator(const hpr_section_t *s, uint64_t *kind, const char **path,
                   uint64_t *path_len) {
  uint64_t w[2];
  if (!s || s->size < 24)
    return false;
  memcpy(w, s->data, sizeof(w));
  if (w[0] > HPR_ALLOCATOR_SEVERAL || w[1] > s->size - 16 ||
      ((w[1] + 8) & ~7ull) != s->size - 16 || s->data[16 + w[1]] != 0 ||
      memchr(s->data + 16, 0, w[1]))
    return false;
  *kind = w[0];
  *path = (const char *)s->data + 16;
  *path_len = w[1];
  return true;
}

bool hpr_command(const hpr_section_t *s, uint64_t *flags, uint64_t *argc,
                 const char **args, uint64_t *len) {
  uint64_t w[3];
  if (!s || s->size < 24)
    return false;
  memcpy(w, s->data, sizeof(w));
  uint64_t room = s->size - 24, nuls = 0;
  if (w[0] > HPR_COMMAND_TRUNCATED || !w[1] || !w[2] || w[2] > room ||
      ((w[2] + 7) & ~7ull) != room || s->data[24 + w[2] - 1] != 0)
    return false;
  for (uint64_t i = 0; i < w[2]; i++)
    nuls += !s->data[24 + i];
  for (uint64_t i = w[2]; i < room; i++)
    if (s->data[24 + i])
      return false;
  if (nuls != w[1])
    return false;
  *flags = w[0];
  *argc = w[1];
  *args = (const char *)s->data + 24;
  *len = w[2];
  return true;
}

bool hpr_run_path(const hpr_section_t *s, const char **path, uint64_t *len) {
  uint64_t n;
  if (!s || s->size < 16)
    return false;
  memcpy(&n, s->data, 8);
  uint64_t room = s->size - 8;
  if (!n || n >= room || ((n + 8) & ~7ull) != room ||
      memchr(s->data + 8, 0, n))
    return false;
  for (uint64_t i = n; i < room; i++)
    if (s->data[8 + i])
      return false;
  *path = (const char *)s->data + 8;
  *len = n;
  return true;
}

/* A mapped file's sections, copied out of it: a section is checked (its
 * reader's *_check) and then read, and the file may change under its
 * mapping between the two; the copy does not.  Sections are small beside
 * the records (a leak check's row per leaking context). */
static void copy_sections(hpr_dump_t *d) {
  uint64_t total = 0;
  for (uint64_t i = 0; i < d->nsections; i++)
    total += d->sections[i].size;
  uint8_t *bytes = malloc(total ? total : 1);
  if (!bytes)
    return; /* left in the mapping, as hpr_read's are in its copy */
  uint64_t at = 0;
  for (uint64_t i = 0; i < d->nsections; i++) {
    hpr_section_t *s = &d->sections[i];
    memcpy(bytes + at, s->data, s->size);
    s->data = bytes + at;
    at += s->size;
  }
  d->section_bytes = bytes;
}

static bool read_dump(cursor_t *c, hpr_dump_t *d) {
  uint64_t magic = 0, seg_off, mib_off, stack_off;
  /* The magic first: a file that is no profile (a text file, shorter
   * than a header too) is said to be none, not a truncated one. */
  uint64_t room = c->end - c->pos, want = MAGIC;
  memcpy(&magic, c->base + c->pos, room < 8 ? room : 8);
  /* A file's first bytes are not shown: they are of a file that is no
   * profile, maybe one that is not the reader's to show (a profile
   * directory's *.profraw linked to /etc/shadow, read by root).  Past a
   * first dump the file is a profile, and the bytes tell what follows it. */
  bool bad = room < 8 ? memcmp(&magic, &want, room) != 0 : magic != MAGIC;
  if (bad && !c->file_off)
    return fail(c, "not a MemProf raw profile: bad magic at offset 0x0 (expected 0x%016llx)",
                (unsigned long long)MAGIC);
  if (bad)
    return fail(c, "not a MemProf raw profile: bad magic 0x%016llx at offset 0x%llx (expected 0x%016llx)",
                (unsigned long long)magic, (unsigned long long)c->file_off,
                (unsigned long long)MAGIC);
  if (!get64(c, &magic, "header") || !get64(c, &d->version, "header") ||
      !get64(c, &d->total_size, "header") || !get64(c, &seg_off, "header") ||
      !get64(c, &mib_off, "header") || !get64(c, &stack_off, "header"))
    return false;
  if (d->version != 3 && d->version != 4)
    return fail(c, "unsupported raw profile version %llu at offset 0x%llx (this reader takes 3 and 4)",
                (unsigned long long)d->version, (unsigned long long)c->file_off);
  if (d->total_size < 48 || d->total_size > c->end)
    return fail(c, "truncated: the dump at offset 0x%llx claims %llu bytes but only %llu are left",
                (unsigned long long)c->file_off,
                (unsigned long long)d->total_size, (unsigned long long)c->end);
  c->end = d->total_size;
  if (seg_off >= c->end || mib_off >= c->end || stack_off >= c->end)
    return fail(c, "corrupt: a section offset in the header at 0x%llx points past the dump",
                (unsigned long long)c->file_off);
  /* segments */
  c->pos = seg_off;
  if (!get64(c, &d->nsegs, "segment count") ||
      !check_count(c, d->nsegs, 64, "segments"))
    return false;
  d->segs = calloc(d->nsegs ? d->nsegs : 1, sizeof(hpr_segment_t));
  for (uint64_t i = 0; i < d->nsegs; i++) {
    hpr_segment_t *s = &d->segs[i];
    if (!get64(c, &s->start, "segment") || !get64(c, &s->end, "segment") ||
        !get64(c, &s->offset, "segment") ||
        !get64(c, &s->build_id_size, "segment"))
      return false;
    if (s->build_id_size > 32)
      return fail(c, "corrupt: segment %llu has a %llu-byte build id (at most 32)",
                  (unsigned long long)i, (unsigned long long)s->build_id_size);
    memcpy(s->build_id, c->base + c->pos, 32);
    c->pos += 32;
  }
  /* MIBs */
  unsigned nfields = d->version == 3 ? 25 : 27;
  unsigned mib_size = 0;
  for (unsigned i = 0; i < nfields; i++)
    mib_size += hpr_mib_widths[i];
  c->pos = mib_off;
  if (!get64(c, &d->nmibs, "MIB count") ||
      !check_count(c, d->nmibs, 8 + mib_size, "MIB records"))
    return false;
  d->mibs = calloc(d->nmibs ? d->nmibs : 1, sizeof(hpr_mib_t));
  for (uint64_t i = 0; i < d->nmibs; i++) {
    hpr_mib_t *m = &d->mibs[i];
    if (!get64(c, &m->stack_id, "MIB record"))
      return false;
    m->fields = c->base + c->pos;
    if (c->pos <= c->end && c->end - c->pos >= mib_size) {
      c->pos += mib_size;
    } else { /* the message names the first field cut off */
      uint64_t v;
      for (unsigned f = 0; f < nfields; f++)
        if (!get(c, hpr_mib_widths[f], &v, "MIB record"))
          return false;
    }
    uint64_t hist = hpr_mib_field(d, m, 25);
    if (hist) { /* histogram entries follow inline */
      if (!check_count(c, hist, 8, "histogram entries"))
        return false;
      c->pos += hist * 8;
    }
    behind(c);
  }
  /* stacks */
  c->pos = stack_off;
  if (!get64(c, &d->nstacks, "stack count") ||
      !check_count(c, d->nstacks, 16, "stacks"))
    return false;
  d->stacks = calloc(d->nstacks ? d->nstacks : 1, sizeof(hpr_stack_t));
  uint64_t stack_end = c->pos;
  for (uint64_t i = 0; i < d->nstacks; i++) {
    hpr_stack_t *s = &d->stacks[i];
    if (!get64(c, &s->id, "stack") || !get64(c, &s->n, "stack") ||
        !check_count(c, s->n, 8, "stack frames"))
      return false;
    s->pcs = (const uint64_t *)(c->base + c->pos);
    c->pos += s->n * 8;
    behind(c);
  }
  stack_end = c->pos;
  /* heapprof's extension, if the dump has room after its last section. */
  uint64_t last = stack_end;
  if (c->end - last >= 8) {
    uint64_t m;
    c->pos = last;
    memcpy(&m, c->base + last, 8);
    if (m == EXT_MAGIC) {
      uint64_t size, nrec;
      c->pos += 8;
      if (!get64(c, &d->ext_version, "extension header"))
        return false;
      if (d->ext_version < EXT_VERSION_MIN || d->ext_version > EXT_VERSION)
        return fail(c, "unsupported heapprof extension version %llu at offset 0x%llx (this reader takes %d to %d)",
                    (unsigned long long)d->ext_version,
                    (unsigned long long)(c->file_off + last), EXT_VERSION_MIN,
                    EXT_VERSION);
      if (!get64(c, &size, "extension header") ||
          !get64(c, &d->ext_seq, "extension header") ||
          !get64(c, &d->ext_ms, "extension header") ||
          !get64(c, &d->ext_pid, "extension header") ||
          !get64(c, &d->ext_evictions, "extension header") ||
          !get64(c, &d->ext_nfields, "extension header") ||
          !get64(c, &nrec, "extension header"))
        return false;
      if (size < c->pos - last)
        return fail(c, "corrupt: the heapprof extension at offset 0x%llx claims %llu bytes, less than its header",
                    (unsigned long long)(c->file_off + last),
                    (unsigned long long)size);
      if (size > c->end - last)
        return fail(c, "truncated: the heapprof extension at offset 0x%llx claims %llu bytes, the dump has %llu left",
                    (unsigned long long)(c->file_off + last),
                    (unsigned long long)size,
                    (unsigned long long)(c->end - last));
      c->end = last + size; /* its sections stay inside it */
      if (d->ext_nfields > 4096 ||
          !check_count(c, nrec, 8 * (1 + d->ext_nfields), "extension records"))
        return d->ext_nfields > 4096
                   ? fail(c, "corrupt: heapprof extension claims %llu fields per record",
                          (unsigned long long)d->ext_nfields)
                   : false;
      for (uint64_t r = 0; r < nrec; r++) {
        uint64_t id;
        if (!get64(c, &id, "extension record"))
          return false;
        /* The runtime writes record r for MIB r: try that first, so a
         * well-formed dump pairs in linear time; search only otherwise. */
        hpr_mib_t *target = NULL;
        if (r < d->nmibs && d->mibs[r].stack_id == id && !d->mibs[r].ext)
          target = &d->mibs[r];
        for (uint64_t i = 0; i < d->nmibs && !target; i++)
          if (d->mibs[i].stack_id == id && !d->mibs[i].ext)
            target = &d->mibs[i];
        /* check_count above: the fields are there. */
        if (target)
          target->ext = c->base + c->pos;
        c->pos += 8 * d->ext_nfields;
        behind(c);
      }
      if (d->ext_version >= 2 && !read_modules_and_bins(c, d))
        return false;
      if (d->ext_version >= 3 && (!read_sections(c, d) || !read_unloaded(c, d)))
        return false;
      if (c->map && d->nsections)
        copy_sections(d);
      d->has_ext = true;
    }
  }
  return true;
}

/* hpr_parse; map: data is a mapped file (hpr_map), its pages given back
 * as they are parsed. */
static bool parse(const uint8_t *data, size_t size, hpr_file_t *out,
                  char *err, size_t err_size, bool map) {
  memset(out, 0, sizeof(*out));
  out->fd = out->guard = -1;
  out->size = size;
  if (size == 0) {
    snprintf(err, err_size, "empty file: not a raw profile");
    return false;
  }
  size_t cap_d = 4;
  out->dumps = calloc(cap_d, sizeof(hpr_dump_t));
  uint64_t off = 0;
  while (off < size) {
    if (out->ndumps == cap_d)
      out->dumps = realloc(out->dumps, (cap_d *= 2) * sizeof(hpr_dump_t));
    hpr_dump_t *d = &out->dumps[out->ndumps];
    memset(d, 0, sizeof(*d));
    d->offset = off;
    cursor_t c = {data + off,  0, size - off, err, err_size, off,
                  map ? data : NULL, off};
    out->ndumps++;
    bool ok = read_dump(&c, d);
    if (map)
      drop_pages(data + off, ok ? d->total_size : size - off);
    if (!ok)
      return false;
    off += d->total_size;
  }
  return true;
}

bool hpr_parse(const uint8_t *data, size_t size, hpr_file_t *out, char *err,
               size_t err_size) {
  return parse(data, size, out, err, err_size, false);
}

/* The tools read a profile twice (a first pass to choose, a second to
 * add up: one file in memory at a time).  A pipe or a FIFO (`<(zcat
 * p.profraw.gz)`, /dev/stdin) can be read once: its bytes are kept, by
 * path, for the second read. */
typedef struct stream_copy {
  struct stream_copy *next;
  char *path;
  uint8_t *data;
  size_t size;
} stream_copy_t;
static stream_copy_t *stream_copies;

static const stream_copy_t *find_stream_copy(const char *path) {
  for (const stream_copy_t *c = stream_copies; c; c = c->next)
    if (!strcmp(c->path, path))
      return c;
  return NULL;
}

static void keep_stream_copy(const char *path, const uint8_t *data,
                             size_t size) {
  stream_copy_t *c = calloc(1, sizeof(*c));
  if (!c || !(c->path = strdup(path)) || !(c->data = malloc(size ? size : 1))) {
    if (c)
      free(c->path);
    free(c);
    return; /* the second read then finds the stream empty, and says so */
  }
  memcpy(c->data, data, size);
  c->size = size;
  c->next = stream_copies;
  stream_copies = c;
}

/* A mapped file truncated under its mapping: a read past the new end
 * raises SIGBUS.  The handler maps a page of zeros there, notes it in the
 * mapping's slot (hpr_changed reports it) and returns, so the read gets
 * zeros; a SIGBUS elsewhere goes to the handler there was before. */
#define GUARD_SLOTS 64
static struct {
  _Atomic uintptr_t start, end;
  atomic_int hit;
} guards[GUARD_SLOTS];
static struct sigaction guard_old;
static uintptr_t guard_page;

static void on_sigbus(int sig, siginfo_t *si, void *ctx) {
  uintptr_t a = (uintptr_t)si->si_addr;
  for (int i = 0; i < GUARD_SLOTS; i++) {
    uintptr_t start = atomic_load(&guards[i].start);
    if (start && a >= start && a < atomic_load(&guards[i].end)) {
      void *page = (void *)(a & ~(guard_page - 1));
      if (mmap(page, guard_page, PROT_READ,
               MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) == MAP_FAILED)
        break;
      atomic_store(&guards[i].hit, 1);
      return;
    }
  }
  if (guard_old.sa_flags & SA_SIGINFO) {
    if (guard_old.sa_sigaction) {
      guard_old.sa_sigaction(sig, si, ctx);
      return;
    }
  } else if (guard_old.sa_handler != SIG_DFL &&
             guard_old.sa_handler != SIG_IGN) {
    guard_old.sa_handler(sig);
    return;
  }
  /* The default: a fault's instruction runs again and is killed by it; a
   * SIGBUS sent by kill() is raised again. */
  struct sigaction dfl;
  memset(&dfl, 0, sizeof(dfl));
  dfl.sa_handler = SIG_DFL;
  sigaction(SIGBUS, &dfl, NULL);
  if (si->si_code <= 0)
    raise(SIGBUS);
}

/* A slot for [p, p + n), the handler installed the first time; -1 when
 * every slot is taken (then the file is read, not mapped). */
static int guard(const void *p, size_t n) {
  static bool installed;
  if (!installed) {
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_sigaction = on_sigbus;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    guard_page = (uintptr_t)sysconf(_SC_PAGESIZE);
    if (sigaction(SIGBUS, &sa, &guard_old))
      return -1;
    installed = true;
  }
  for (int i = 0; i < GUARD_SLOTS; i++)
    if (!atomic_load(&guards[i].start)) {
      atomic_store(&guards[i].hit, 0);
      atomic_store(&guards[i].end, (uintptr_t)p + n);
      atomic_store(&guards[i].start, (uintptr_t)p);
      return i;
    }
  return -1;
}

static void unguard(int slot) {
  if (slot >= 0)
    atomic_store(&guards[slot].start, 0);
}

static uint64_t mtime_ns(const struct stat *st) {
  return (uint64_t)st->st_mtim.tv_sec * 1000000000u +
         (uint64_t)st->st_mtim.tv_nsec;
}

bool hpr_is_stdin(const char *path) { return !strcmp(path, "-"); }

bool hpr_map(const char *path, hpr_file_t *out, char *err, size_t err_size) {
  struct stat st;
  /* Streams, and what is not a regular file with bytes in it, are read
   * (a FIFO opened here and closed would lose its writer); so is "-". */
  if (hpr_is_stdin(path) || find_stream_copy(path) || stat(path, &st) ||
      !S_ISREG(st.st_mode) ||
      st.st_size <= 0)
    return hpr_read(path, out, err, err_size);
  int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0)
    return hpr_read(path, out, err, err_size);
  void *m = MAP_FAILED;
  int slot = -1;
  if (!fstat(fd, &st) && S_ISREG(st.st_mode) && st.st_size > 0 &&
      (uint64_t)st.st_size <= SIZE_MAX)
    m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
  if (m != MAP_FAILED && (slot = guard(m, (size_t)st.st_size)) < 0)
    munmap(m, (size_t)st.st_size), m = MAP_FAILED;
  if (m == MAP_FAILED) {
    close(fd);
    return hpr_read(path, out, err, err_size);
  }
  size_t size = (size_t)st.st_size;
  madvise(m, size, MADV_SEQUENTIAL);
  bool ok = parse(m, size, out, err, err_size, true);
  out->path = path;
  out->data = m;
  out->size = size;
  out->mapped = true;
  out->fd = fd;
  out->guard = slot;
  out->mtime_ns = mtime_ns(&st);
  /* Records are read in their own order from here (hpr_drop). */
  madvise(m, size, MADV_NORMAL);
  if (hpr_changed(out)) {
    snprintf(err, err_size, "changed while it was read");
    return false;
  }
  return ok;
}

void hpr_drop(const hpr_file_t *f, const void *p, size_t n) {
  if (f->mapped)
    drop_pages(p, n);
}

void hpr_drop_mibs(const hpr_file_t *f, const hpr_dump_t *d, uint64_t from,
                   uint64_t to) {
  if (!f->mapped || from >= to || to > d->nmibs)
    return;
  /* The MIBs are in the file's order, one after another (histogram
   * entries between them); their extension records normally too, but a
   * record may name any MIB: the least and the greatest. */
  unsigned mib_size = 0;
  for (unsigned i = 0; i < (d->version == 3 ? 25u : 27u); i++)
    mib_size += hpr_mib_widths[i];
  const uint8_t *a = d->mibs[from].fields - 8, *b = d->mibs[to - 1].fields;
  drop_pages(a, (size_t)(b - a) + mib_size);
  const uint8_t *lo = NULL, *hi = NULL;
  for (uint64_t i = from; i < to; i++) {
    const uint8_t *e = d->mibs[i].ext;
    if (e && (!lo || e < lo))
      lo = e;
    if (e && (!hi || e > hi))
      hi = e;
  }
  if (lo)
    drop_pages(lo, (size_t)(hi - lo) + 8 * d->ext_nfields);
}

bool hpr_changed(const hpr_file_t *f) {
  if (!f->mapped)
    return false;
  if (f->guard >= 0 && atomic_load(&guards[f->guard].hit))
    return true;
  struct stat st;
  return fstat(f->fd, &st) || (uint64_t)st.st_size != f->size ||
         mtime_ns(&st) != f->mtime_ns;
}

bool hpr_read(const char *path, hpr_file_t *out, char *err, size_t err_size) {
  memset(out, 0, sizeof(*out));
  out->path = path;
  const stream_copy_t *copy = find_stream_copy(path);
  if (copy) {
    uint8_t *buf = malloc(copy->size ? copy->size : 1);
    if (!buf) {
      snprintf(err, err_size, "out of memory reading it again");
      return false;
    }
    memcpy(buf, copy->data, copy->size);
    bool ok = hpr_parse(buf, copy->size, out, err, err_size);
    out->path = path;
    out->data = buf;
    return ok;
  }
  /* "-" is the standard input, read once and kept (below) like a pipe's
   * bytes even when it is a regular file: a second read would find it at
   * its end.  Read through a duplicate, so fclose leaves fd 0 open. */
  bool is_stdin = hpr_is_stdin(path);
  int in_fd = is_stdin ? dup(0) : -1;
  FILE *fp = is_stdin ? (in_fd >= 0 ? fdopen(in_fd, "rb") : NULL)
                      : fopen(path, "rb");
  if (!fp) {
    snprintf(err, err_size, "cannot open: %s", strerror(errno));
    if (in_fd >= 0)
      close(in_fd);
    return false;
  }
  /* A regular file's size is known: one buffer of it, no doubling (a
   * pipe or a file that grows meanwhile still gets the loop's growth). */
  struct stat st;
  bool regular = fstat(fileno(fp), &st) == 0 && S_ISREG(st.st_mode);
  size_t cap = regular && st.st_size > 0 ? (size_t)st.st_size + 1
                                         : (size_t)1 << 16;
  size_t n = 0;
  uint8_t *buf = malloc(cap);
  for (;;) {
    if (buf && n == cap) {
      uint8_t *more = realloc(buf, cap *= 2);
      if (!more)
        free(buf);
      buf = more;
    }
    if (!buf) {
      fclose(fp);
      snprintf(err, err_size, "out of memory reading it (%zu bytes so far)",
               n);
      return false;
    }
    size_t r = fread(buf + n, 1, cap - n, fp);
    if (!r)
      break;
    n += r;
  }
  bool io_err = ferror(fp);
  int io_errno = errno;
  fclose(fp);
  if (io_err) {
    free(buf);
    snprintf(err, err_size, "cannot read: %s", strerror(io_errno));
    return false;
  }
  if (!regular || is_stdin)
    keep_stream_copy(path, buf, n);
  bool ok = hpr_parse(buf, n, out, err, err_size);
  out->path = path;
  out->data = buf; /* owned by out from here: hpr_free frees it */
  return ok;
}

void hpr_free(hpr_file_t *f) {
  for (size_t i = 0; i < f->ndumps; i++) {
    free(f->dumps[i].segs);
    free(f->dumps[i].mibs);
    free(f->dumps[i].stacks);
    for (uint64_t m = 0; m < f->dumps[i].nmodules; m++)
      free((char *)f->dumps[i].modules[m].path);
    free(f->dumps[i].modules);
    free(f->dumps[i].bins);
    free(f->dumps[i].sections);
    for (uint64_t m = 0; m < f->dumps[i].nunloaded; m++)
      free((char *)f->dumps[i].unloaded[m].path);
    free(f->dumps[i].unloaded);
    free(f->dumps[i].section_bytes);
  }
  free(f->dumps);
  if (f->mapped) {
    unguard(f->guard);
    munmap(f->data, f->size);
    close(f->fd);
  } else {
    free(f->data);
  }
  memset(f, 0, sizeof(*f));
}

int hpr_split_checkpoint(const char *given, char **path, uint64_t *up_to) {
  const char *at = strrchr(given, '@');
  struct stat st;
  if (!at || at == given || !at[1] || stat(given, &st) == 0)
    return 0;
  uint64_t v = 0;
  for (const char *c = at + 1; *c; c++) {
    if (*c < '0' || *c > '9')
      return 0;
    unsigned d = (unsigned)(*c - '0');
    /* Past UINT64_MAX - 1 is past any checkpoint: the whole series. */
    v = v > (UINT64_MAX - 1 - d) / 10 ? UINT64_MAX - 1 : v * 10 + d;
  }
  char *p = strndup(given, (size_t)(at - given));
  if (stat(p, &st) != 0) {
    free(p);
    return 0;
  }
  if (!v) {
    free(p);
    return -1;
  }
  *path = p;
  *up_to = v;
  return 1;
}

/* "no checkpoint numbered 1 to 1" read wrong for @1, and for a profile
 * without checkpoints named a range that was never the problem. */
void hpr_checkpoint_none(char *buf, size_t size, uint64_t up_to,
                         uint64_t first) {
  if (!first)
    snprintf(buf, size,
             "no checkpoints in this profile, only dumps at exit: @%llu "
             "selects none",
             (unsigned long long)up_to);
  else if (up_to == 1)
    snprintf(buf, size,
             "no checkpoint 1 in this profile: its first is checkpoint %llu",
             (unsigned long long)first);
  else
    snprintf(buf, size,
             "no checkpoint numbered 1 to %llu in this profile: its first is "
             "checkpoint %llu",
             (unsigned long long)up_to, (unsigned long long)first);
}
