/*===- heapprof_rawreader.h - reads raw profiles and the extension ------===
 *
 * Part of heapprof's tools.  Parses a file of one or more MemProf raw dumps
 * (versions 3 and 4, as llvm-profdata 19 does) and heapprof's extension
 * section inside each dump (see compiler-rt/lib/heapprof/heapprof_profile_raw.h).
 * Every offset and count is checked against the bytes actually present, so
 * a truncated or corrupt file gets a message naming the problem and its
 * offset, never a crash.
 *===----------------------------------------------------------------------===*/
#ifndef HEAPPROF_RAWREADER_H
#define HEAPPROF_RAWREADER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* The extension fields a reader exposes per record (hpr_ext): a file may
 * declare more, up to 4096; the rest are skipped. */
#define HP_EXT_MAX_FIELDS 64

typedef struct hpr_segment {
  uint64_t start, end, offset, build_id_size;
  uint8_t build_id[32];
} hpr_segment_t;

/* A MemInfoBlock and its extension record, where they are in the file
 * buffer (read their fields with hpr_mib_field and hpr_ext).  Not copied:
 * a MIB's 27 fields as u64 and a record's HP_EXT_MAX_FIELDS took 744 bytes
 * per context, 179 MB of a 240,000-context report's 453 MB peak. */
typedef struct hpr_mib {
  uint64_t stack_id;
  const uint8_t *fields; /* the raw MIB's fields, after its stack id */
  /* The dump's ext_nfields u64 of the extension record naming this MIB,
   * or NULL if none does. */
  const uint8_t *ext;
} hpr_mib_t;

/* Where each MIB field is in a raw MIB (after the stack id), and its width. */
extern const uint8_t hpr_mib_offsets[27], hpr_mib_widths[27];

typedef struct hpr_stack {
  uint64_t id, n;
  const uint64_t *pcs; /* into the file buffer (unaligned-safe copy) */
} hpr_stack_t;

/* Extension v2: a module of the process map (main program first). */
typedef struct hpr_module {
  uint64_t bias, build_id_size;
  uint8_t build_id[32];
  const char *path; /* NUL-terminated, owned by the hpr_file */
} hpr_module_t;

/* Extension v2: one non-empty bin of mprof's allocation bin table. */
typedef struct hpr_bin {
  uint64_t size; /* 0..1024, or 1025 for ">1024" */
  uint64_t allocs, bytes, frees, freed_bytes;
} hpr_bin_t;

/* Extension v3: one tagged per-dump section (tags in
 * compiler-rt/lib/heapprof/heapprof_ext_sections.h and docs/formats.md). */
typedef struct hpr_section {
  uint64_t tag, size;    /* size: payload bytes, a multiple of 8 */
  const uint8_t *data;   /* into the file buffer; read with memcpy */
} hpr_section_t;

/* Tagged section 11: a module dlclose unloaded before the dump (read and
 * checked with the file: a damaged one fails hpr_parse). */
/* The largest count a reader adds up to: 2^63 - 1, the most JSON's and
 * pprof's int64 carry (MaxCount in profile_model.h).  Above it a count is
 * a corrupt profile's, and a sum of two would wrap without a word. */
#define HPR_MAX_COUNT ((uint64_t)INT64_MAX)
/* *to += v; false when the sum passes HPR_MAX_COUNT (*to is then wrong:
 * the caller reports the file as corrupt). */
static inline bool hpr_add_count(uint64_t *to, uint64_t v) {
  return !__builtin_add_overflow(*to, v, to) && *to <= HPR_MAX_COUNT;
}

#define HPR_TAG_UNLOADED 11
#define HPR_UNLOADED_MAX_SEGS 4
typedef struct hpr_unloaded {
  uint64_t unloaded_ms, bias, build_id_size;
  uint8_t build_id[32];
  uint64_t nsegs;
  uint64_t segs[HPR_UNLOADED_MAX_SEGS][2]; /* start, end */
  const char *path; /* NUL-terminated, owned by the hpr_file */
} hpr_unloaded_t;

/* Tagged section 12: how the process took its stacks, u64 each:
 * malloc_context_size (0 in a merged profile of several), fold_recursion
 * (0 off, 1 on, 2 several). */
#define HPR_TAG_STACKS 12
#define HPR_STACKS_WORDS 2

/* Tagged section 13: whose allocator served the program.  u64 kind, u64
 * path length, the path, a NUL, NULs to 8 bytes.  kind 3 appears only in a
 * merged profile whose inputs differ. */
#define HPR_TAG_ALLOCATOR 13
enum {
  HPR_ALLOCATOR_HEAPPROF = 0,
  HPR_ALLOCATOR_GLIBC = 1,
  HPR_ALLOCATOR_LIBRARY = 2,
  HPR_ALLOCATOR_SEVERAL = 3
};
/* The kinds' names, as heapprof show and the report's JSON spell them. */
extern const char *const hpr_allocator_names[HPR_ALLOCATOR_SEVERAL + 1];
/* Reads section 13; false (and *kind unchanged) if it is damaged. */
bool hpr_allocator(const hpr_section_t *s, uint64_t *kind, const char **path,
                   uint64_t *path_len);

/* Tagged section 14: the command line the process started with.  u64
 * flags (bit 0: longer than the runtime keeps), u64 argc, u64 length L,
 * the L bytes of argc arguments each ending in a NUL, NULs to 8 bytes. */
#define HPR_TAG_COMMAND 14
#define HPR_COMMAND_TRUNCATED 1ull
/* Reads section 14; false if it is damaged. */
bool hpr_command(const hpr_section_t *s, uint64_t *flags, uint64_t *argc,
                 const char **args, uint64_t *len);

/* Tagged section 15: the path the program was run by, when it is not the
 * executable's own (a link to it).  u64 length L, the L bytes, a NUL,
 * NULs to 8 bytes. */
#define HPR_TAG_RUN_PATH 15
/* Reads section 15; false if it is damaged (an empty path, one with a NUL
 * in it, or a size or padding that does not match). */
bool hpr_run_path(const hpr_section_t *s, const char **path, uint64_t *len);

typedef struct hpr_dump {
  uint64_t offset, version, total_size;
  uint64_t nsegs, nmibs, nstacks;
  hpr_segment_t *segs;
  hpr_mib_t *mibs;
  hpr_stack_t *stacks;
  bool has_ext;
  uint64_t ext_version, ext_seq, ext_ms, ext_pid, ext_evictions, ext_nfields;
  uint64_t nmodules;
  hpr_module_t *modules;
  uint64_t nbins;
  hpr_bin_t *bins; /* both 0/NULL for extension v1 or no extension */
  uint64_t nsections;
  hpr_section_t *sections; /* 0/NULL before extension v3 */
  uint64_t nunloaded, unloaded_dropped;
  hpr_unloaded_t *unloaded; /* section 11, latest unloaded first */
  /* hpr_map: the sections' payloads, copied out of the mapping (sections
   * point into it), so that what was checked is what is used. */
  uint8_t *section_bytes;
} hpr_dump_t;

/* MemInfoBlock field f (0..26, heapprof_mib_fields.inc's order) of m, a
 * MIB of d, as u64; 0 for the two a version 3 dump does not have. */
static inline uint64_t hpr_mib_field(const hpr_dump_t *d, const hpr_mib_t *m,
                                     unsigned f) {
  uint64_t v = 0;
  if (f < (d->version == 3 ? 25u : 27u))
    memcpy(&v, m->fields + hpr_mib_offsets[f], hpr_mib_widths[f]);
  return v;
}

/* Extension field f of m, a MIB of d: 0 if m has no extension record or
 * the dump fewer than f + 1 fields (or f >= HP_EXT_MAX_FIELDS). */
static inline uint64_t hpr_ext(const hpr_dump_t *d, const hpr_mib_t *m,
                               uint64_t f) {
  uint64_t v = 0;
  if (m->ext && f < d->ext_nfields && f < HP_EXT_MAX_FIELDS)
    memcpy(&v, m->ext + 8 * f, 8);
  return v;
}

typedef struct hpr_file {
  const char *path;
  uint8_t *data;
  size_t size;
  hpr_dump_t *dumps;
  size_t ndumps;
  /* hpr_map: data is the file mapped, not a copy; the file as it was
   * when mapped, to tell whether it changed (hpr_changed). */
  bool mapped;
  int fd, guard;
  uint64_t dev, ino, mtime_ns;
} hpr_file_t;

/* Reads and validates path.  On failure returns false and writes a one-line
 * reason (without the path) into err; call hpr_free either way. */
bool hpr_read(const char *path, hpr_file_t *out, char *err, size_t err_size);
/* The same for size bytes in memory (what hpr_read does after reading the
 * file).  data is neither copied nor owned: the MIBs and stacks point
 * into it, so it must outlive out, and hpr_free leaves it alone
 * (out->data stays NULL). */
bool hpr_parse(const uint8_t *data, size_t size, hpr_file_t *out, char *err,
               size_t err_size);
void hpr_free(hpr_file_t *f);
/* hpr_read for a reader that goes through the file once or twice and
 * need not hold it: a regular file is mapped (read-only, private) instead
 * of copied, its pages read ahead and given back once parsed; hpr_drop
 * gives back the pages of a range consumed later (a page read again is
 * read again from the file).  The sections' payloads are copied out of
 * the mapping.  Anything else (a pipe, an empty file, a mapping refused)
 * is read as hpr_read does, with the same messages.  A file truncated
 * while mapped reads as zeros past its new end, not SIGBUS; hpr_changed
 * says so, and that the file was rewritten.  (report's loader: a copy of
 * the file was most of its peak memory, docs/performance.md.) */
bool hpr_map(const char *path, hpr_file_t *out, char *err, size_t err_size);
/* Whether path is "-", the standard input: hpr_read and hpr_map read it
 * (once: its bytes are kept for a second read, as a pipe's), and the
 * commands take it as an input where they take a file. */
bool hpr_is_stdin(const char *path);
/* Gives back the pages of [p, p + n) of a mapped f (none of a copy). */
void hpr_drop(const hpr_file_t *f, const void *p, size_t n);
/* Gives back the pages of MIB records [from, to) of d, a dump of a mapped
 * f, and of the extension records naming them (none of a copy): for a
 * reader that goes through the records in order and keeps their stacks
 * (merge, show). */
void hpr_drop_mibs(const hpr_file_t *f, const hpr_dump_t *d, uint64_t from,
                   uint64_t to);
/* Whether a mapped f is no longer the file that was mapped: shorter (a
 * read past its new end), or its size, inode or modification time
 * changed.  False for a copy (hpr_read's). */
bool hpr_changed(const hpr_file_t *f);
/* An input PATH@N, as every command that reads profiles takes it: PATH a
 * file or directory that exists, N a number from 1, and no file named
 * PATH@N.  1 and *path (malloc'd, the caller frees it) and *up_to set
 * when given is one; the profile is then PATH's checkpoints 1 to N only,
 * without the exit dump.  -1 when N is 0 (HPR_CHECKPOINT_ZERO says so),
 * 0 when given is not PATH@N. */
int hpr_split_checkpoint(const char *given, char **path, uint64_t *up_to);
#define HPR_CHECKPOINT_ZERO "checkpoints are numbered from 1: @0 selects none"
/* Why PATH@N selected no dump, into buf: the profile has no checkpoint
 * (first is 0: only dumps at exit), or its first, first, is past N. */
void hpr_checkpoint_none(char *buf, size_t size, uint64_t up_to,
                         uint64_t first);
/* The dump's section with this tag, or NULL. */
const hpr_section_t *hpr_section(const hpr_dump_t *d, uint64_t tag);

extern const char *const hpr_mib_names[27];
/* The extension fields this reader knows by name, in file order. */
#define HPR_NUM_EXT_NAMES 29
extern const char *const hpr_ext_names[];
extern const size_t hpr_num_ext_names; /* HPR_NUM_EXT_NAMES */

#endif
