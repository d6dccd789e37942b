/*===- flags_fuzzer.c - libFuzzer target for the option parser -----------===
 *
 * Part of heapprof.  Fuzzes hp_flags_parse, the parser of HEAPPROF_OPTIONS
 * and __heapprof_default_options(), and checks properties, not only the
 * absence of crashes.
 *
 * Built by test/fuzz/CMakeLists.txt with -fsanitize=fuzzer,address from this
 * file (which includes heapprof_flags.c, to reach its string arena) and
 * heapprof_libc.c.  Nothing else of the runtime is linked: heapprof's
 * allocator replaces malloc, and under ASan ASan's malloc must stay in
 * charge.  What the parser calls outside those two files is stubbed below
 * (the FUZZ STUB blocks).
 *
 * The first input byte picks the mode (bit 0) and the size of the error
 * buffer (bits 1-3: 1, 2, 8, 32, 64, 128, 512 or 4096 bytes, allocated to the
 * exact size so ASan sees any write past it).  '>' is raw mode with a
 * 4096-byte buffer, so a seed file reads ">verbosity=1:log_path=x".
 *
 * Raw mode: the rest of the input, NUL-terminated, is the option string.
 *   - success: every int flag is in its documented range (the harness's own
 *     table, documented_ranges below, from docs/flags.md; not the parser's
 *     check_ranges, which would agree with a wrong bound), every
 *     string flag is its default or a NUL-terminated string inside the used
 *     part of the arena, explicit_mask names only real flags;
 *   - failure: the message is NUL-terminated inside its buffer, non-empty,
 *     and when it was not truncated it names the source;
 *   - parsing the same string again gives the same flags and message;
 *   - success, printed back: writing every explicit flag as name=value
 *     (quoted when needed) and parsing that gives the same flags.
 * Generated mode: the rest drives a generator of options (known flags with
 * values of their type, unknown names, any separators, quoting, repeated
 * names) whose outcome the harness computes itself:
 *   - every value round-trips (the last occurrence wins) and explicit_mask
 *     is exactly the flags named;
 *   - the parse fails exactly when a string value does not fit in the
 *     string arena beside what it holds, the values the other string flags
 *     hold once the parser packed it (heapprof_flags.c's compact_strings:
 *     a flag given again leaves its old value behind until then) ("too
 *     long (the string options share 8 KiB)", naming that flag) or a
 *     flag is out of its documented range (naming one of the flags out of
 *     range);
 *   - one warning per unknown name, naming it.
 * A violated property prints what was expected and aborts, so libFuzzer
 * saves the input as a crash.
 *===----------------------------------------------------------------------===*/
#include "heapprof_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- FUZZ STUB: hp_printf, as called by the parser ----------------------
 * The parser prints its unknown-option warning with hp_printf (stderr in the
 * runtime).  Here the warnings are counted and the last one kept, to check
 * them; hp_printf in the included file is renamed to this. */
static unsigned fuzz_warnings;
static char fuzz_last_warning[1024];

static void fuzz_printf(const char *fmt, ...) HP_FORMAT(1, 2);
static void fuzz_printf(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  hp_vsnprintf(fuzz_last_warning, sizeof(fuzz_last_warning), fmt, ap);
  va_end(ap);
  fuzz_warnings++;
}

#define hp_printf fuzz_printf
#include "heapprof_flags.c"
#undef hp_printf

/* ---- FUZZ STUB: heapprof_report.c --------------------------------------
 * hp_flags_init (never called here) reports a bad option; heapprof_libc.c's
 * mmap helpers (never called by the parser) report a failed mapping. */
void hp_report_bad_option(const char *message) {
  fprintf(stderr, "flags_fuzzer: unexpected hp_report_bad_option: %s\n",
          message);
  abort();
}
void hp_report_mmap_failure(uptr size, const char *what) {
  fprintf(stderr, "flags_fuzzer: unexpected hp_report_mmap_failure(%zu, %s)\n",
          (size_t)size, what);
  abort();
}

/* ---- FUZZ STUB: heapprof_signals.c -------------------------------------
 * heapprof_libc.c's spin locks run a deadly signal deferred while a lock was
 * held; the parser takes no lock, so this is never reached. */
void hp_signals_run_deferred(void) {
  fprintf(stderr, "flags_fuzzer: unexpected hp_signals_run_deferred\n");
  abort();
}

/* ---- the harness -------------------------------------------------------- */

#define SOURCE "FUZZ_OPTIONS"

static const size_t err_sizes[8] = {1, 2, 8, 32, 64, 128, 512, 4096};

static void fail(const char *input, const char *fmt, ...) HP_FORMAT(2, 3);
static void fail(const char *input, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "flags_fuzzer: property violated: ");
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fprintf(stderr, "\n  options: \"%s\"\n", input);
  abort();
}

typedef enum { T_bool, T_int, T_str } flag_type_t;
typedef struct {
  const char *name;
  flag_type_t type;
  size_t offset;
} flag_desc_t;

static const flag_desc_t flag_descs[HP_NUM_FLAGS] = {
#define HEAPPROF_FLAG(ty, nm, dflt, desc) {#nm, T_##ty, offsetof(hp_flags_t, nm)},
#include "heapprof_flags.inc"
#undef HEAPPROF_FLAG
};

#define FIELD(f, d, T) (*(T *)((char *)(f) + (d)->offset))

/* ---- documented ranges --------------------------------------------------
 * Every int flag's accepted values as docs/flags.md states them (the flag
 * table and the "out of range" row), written here rather than taken from
 * the parser's check_ranges: a bound wrong in the runtime (cycle_sample_every
 * accepting 0) then fails the harness instead of agreeing with it.  An int
 * flag missing from this table aborts the first run: a new flag needs its
 * documented range here.  profile_mode's values are a set, not a range. */
typedef struct {
  const char *name;
  int64_t lo, hi;
} doc_range_t;

static const doc_range_t documented_ranges[] = {
    {"verbosity", 0, INT64_MAX},
    {"profile_mode", 600, 664}, /* and one of profile_modes[] */
    {"malloc_context_size", 1, 255},
    {"cycle_sample_every", 1, 1ll << 30},
    {"pmu_sample_every", 1, 1ll << 30},
    {"peak_threshold_kb", 0, 1ll << 40},
    {"max_allocation_size_mb", 0, 1ll << 40},
    {"sample_bytes", 0, 1ll << 40},
    {"sample_seed", INT64_MIN, INT64_MAX},
    {"release_threshold_kb", 0, 1ll << 40},
    {"release_idle_ms", -1, 1ll << 30},
    {"hib_table_sets", 1, 1ll << 24},
    {"hib_table_ways", 1, 16},
    {"deadly_signal_timeout_s", 1, 3600},
};
static const int64_t profile_modes[] = {600, 640, 644, 660, 664};

static const doc_range_t *documented_range(const char *name) {
  size_t n = sizeof(documented_ranges) / sizeof(documented_ranges[0]);
  for (size_t i = 0; i < n; i++)
    if (!strcmp(documented_ranges[i].name, name))
      return &documented_ranges[i];
  return NULL;
}

/* Whether flag d's value v is one docs/flags.md allows. */
static bool documented_ok(const flag_desc_t *d, int64_t v) {
  const doc_range_t *r = documented_range(d->name);
  if (!r) {
    fprintf(stderr,
            "flags_fuzzer: int flag '%s' has no documented range in the "
            "harness's table (documented_ranges)\n",
            d->name);
    abort();
  }
  if (v < r->lo || v > r->hi)
    return false;
  if (!strcmp(d->name, "profile_mode")) {
    size_t n = sizeof(profile_modes) / sizeof(profile_modes[0]);
    for (size_t i = 0; i < n; i++)
      if (v == profile_modes[i])
        return true;
    return false;
  }
  return true;
}

/* The int flags of f out of their documented ranges: how many, and the
 * names in *names (a space-separated list, for messages). */
static unsigned out_of_range(const hp_flags_t *f, char *names, size_t size) {
  unsigned n = 0;
  names[0] = 0;
  for (int i = 0; i < HP_NUM_FLAGS; i++) {
    const flag_desc_t *d = &flag_descs[i];
    if (d->type != T_int || documented_ok(d, FIELD(f, d, hp_flag_int)))
      continue;
    size_t used = strlen(names);
    snprintf(names + used, size - used, "%s%s", n ? " " : "", d->name);
    n++;
  }
  return n;
}

/* Compares every flag and the mask; returns the first difference or NULL. */
static const char *diff_flags(const hp_flags_t *a, const hp_flags_t *b) {
  for (int i = 0; i < HP_NUM_FLAGS; i++) {
    const flag_desc_t *d = &flag_descs[i];
    switch (d->type) {
    case T_bool:
      if (FIELD(a, d, hp_flag_bool) != FIELD(b, d, hp_flag_bool))
        return d->name;
      break;
    case T_int:
      if (FIELD(a, d, hp_flag_int) != FIELD(b, d, hp_flag_int))
        return d->name;
      break;
    case T_str:
      if (strcmp(FIELD(a, d, hp_flag_str), FIELD(b, d, hp_flag_str)))
        return d->name;
      break;
    }
  }
  return a->explicit_mask == b->explicit_mask ? NULL : "explicit_mask";
}

/* Starts a parse from a clean state: the defaults, an empty arena (the
 * runtime parses twice per process; the fuzzer, millions of times). */
static void reset(hp_flags_t *f) {
  str_used = 0;
  memset(str_arena, 0xa5, sizeof(str_arena));
  hp_flags_set_defaults(f);
  fuzz_warnings = 0;
  fuzz_last_warning[0] = 0;
}

static bool parse(hp_flags_t *f, const char *s, char *err, size_t err_size) {
  reset(f);
  memset(err, 0x5a, err_size);
  return hp_flags_parse(f, s, SOURCE, err, err_size);
}

static void check_error(const char *input, const char *err, size_t err_size) {
  size_t n = strnlen(err, err_size);
  if (n == err_size)
    fail(input, "error message not NUL-terminated in its %zu-byte buffer",
         err_size);
  if (err_size > 1 && n == 0)
    fail(input, "failed without a message");
  if (n + 1 < err_size && !strstr(err, " in " SOURCE))
    fail(input, "error message does not name the source: \"%s\"", err);
}

static void check_success(const char *input, const hp_flags_t *f,
                          const hp_flags_t *dflt) {
  char bad[1024];
  if (out_of_range(f, bad, sizeof(bad)))
    fail(input, "accepted with %s out of the documented range", bad);
  if (str_used > sizeof(str_arena))
    fail(input, "string arena overrun: %zu of %zu bytes", str_used,
         sizeof(str_arena));
  for (int i = 0; i < HP_NUM_FLAGS; i++) {
    const flag_desc_t *d = &flag_descs[i];
    if (d->type != T_str)
      continue;
    const char *s = FIELD(f, d, hp_flag_str);
    if (s == FIELD(dflt, d, hp_flag_str))
      continue;
    if (s < str_arena || s >= str_arena + str_used ||
        strnlen(s, (size_t)(str_arena + str_used - s)) ==
            (size_t)(str_arena + str_used - s))
      fail(input, "'%s' is neither its default nor a string in the arena",
           d->name);
  }
  if (HP_NUM_FLAGS < 64 && (f->explicit_mask >> HP_NUM_FLAGS))
    fail(input, "explicit_mask 0x%llx names no flag",
         (unsigned long long)f->explicit_mask);
}

/* ---- printing flags back as an option string ---------------------------- */

typedef struct {
  char *p;
  size_t len, cap;
} sbuf_t;

static void sb_put(sbuf_t *b, const char *s, size_t n) {
  if (b->len + n + 1 > b->cap) {
    b->cap = (b->len + n + 1) * 2;
    b->p = realloc(b->p, b->cap);
  }
  memcpy(b->p + b->len, s, n);
  b->len += n;
  b->p[b->len] = 0;
}
static void sb_str(sbuf_t *b, const char *s) { sb_put(b, s, strlen(s)); }

static bool is_sep_char(char c) {
  return c == ':' || c == ' ' || c == '\t' || c == '\n' || c == ',';
}

/* Appends name=value, quoting a string value that holds a separator or
 * starts with a quote with a quote character it does not contain.  Returns
 * false when no quoting can express it. */
static bool print_str_value(sbuf_t *b, const char *v, size_t n) {
  bool needs = n && (v[0] == '"' || v[0] == '\'');
  bool has_dq = false, has_sq = false;
  for (size_t i = 0; i < n; i++) {
    needs |= is_sep_char(v[i]);
    has_dq |= v[i] == '"';
    has_sq |= v[i] == '\'';
  }
  if (!needs) {
    sb_put(b, v, n);
    return true;
  }
  if (has_dq && has_sq)
    return false;
  const char *q = has_dq ? "'" : "\"";
  sb_str(b, q);
  sb_put(b, v, n);
  sb_str(b, q);
  return true;
}

/* Every explicit flag of f as an option string, or NULL if some string value
 * cannot be quoted (impossible for a string the parser produced). */
static char *print_flags(const hp_flags_t *f) {
  sbuf_t b = {0};
  sb_str(&b, "");
  for (int i = 0; i < HP_NUM_FLAGS; i++) {
    const flag_desc_t *d = &flag_descs[i];
    if (!((f->explicit_mask >> i) & 1))
      continue;
    char num[32];
    sb_str(&b, d->name);
    sb_str(&b, "=");
    switch (d->type) {
    case T_bool:
      sb_str(&b, FIELD(f, d, hp_flag_bool) ? "1" : "0");
      break;
    case T_int:
      snprintf(num, sizeof(num), "%lld", (long long)FIELD(f, d, hp_flag_int));
      sb_str(&b, num);
      break;
    case T_str: {
      const char *s = FIELD(f, d, hp_flag_str);
      if (!print_str_value(&b, s, strlen(s))) {
        free(b.p);
        return NULL;
      }
      break;
    }
    }
    sb_str(&b, ":");
  }
  return b.p;
}

/* ---- raw mode ----------------------------------------------------------- */

/* A copy of f whose string values live in *owned (one malloc'd block per
 * flag), so it survives the next parse resetting the arena. */
static void copy_flags(hp_flags_t *dst, const hp_flags_t *f,
                       char *owned[HP_NUM_FLAGS]) {
  *dst = *f;
  for (int i = 0; i < HP_NUM_FLAGS; i++) {
    owned[i] = NULL;
    if (flag_descs[i].type == T_str)
      FIELD(dst, &flag_descs[i], hp_flag_str) = owned[i] =
          strdup(FIELD(f, &flag_descs[i], hp_flag_str));
  }
}

static void run_raw(const char *s, size_t err_size) {
  hp_flags_t dflt, f, copy, again;
  char *owned[HP_NUM_FLAGS];
  hp_flags_set_defaults(&dflt);
  char *err = malloc(err_size), *err2 = malloc(err_size);
  bool ok = parse(&f, s, err, err_size);
  if (!ok)
    check_error(s, err, err_size);
  else
    check_success(s, &f, &dflt);
  copy_flags(&copy, &f, owned);
  char *printed = ok ? print_flags(&f) : NULL;
  if (ok && !printed)
    fail(s, "parsed a string value that no quoting can print back");

  /* The same string again: the same outcome. */
  bool ok2 = parse(&again, s, err2, err_size);
  if (ok2 != ok || (!ok && strcmp(err, err2)))
    fail(s, "a second parse of the same string differs: %d \"%s\" then %d \"%s\"",
         ok, ok ? "" : err, ok2, ok2 ? "" : err2);
  const char *d = ok ? diff_flags(&copy, &again) : NULL;
  if (d)
    fail(s, "a second parse of the same string differs in '%s'", d);

  /* Printed back as name=value options, the flags parse to themselves. */
  if (ok) {
    if (!parse(&again, printed, err2, err_size))
      fail(s, "printed back as \"%s\", the flags no longer parse: \"%s\"",
           printed, err_size > 1 ? err2 : "");
    d = diff_flags(&copy, &again);
    if (d)
      fail(s, "printed back as \"%s\", flag '%s' changed", printed, d);
  }
  for (int i = 0; i < HP_NUM_FLAGS; i++)
    free(owned[i]);
  free(printed);
  free(err);
  free(err2);
}

/* ---- generated mode ----------------------------------------------------- */

typedef struct {
  const uint8_t *p;
  size_t n;
} bytes_t;

static uint8_t take(bytes_t *b) {
  if (!b->n)
    return 0;
  b->n--;
  return *b->p++;
}

static uint64_t take64(bytes_t *b) {
  uint64_t v = 0;
  for (int i = 0; i < 8; i++)
    v = v << 8 | take(b);
  return v;
}

static void put_seps(sbuf_t *out, bytes_t *in, bool at_least_one) {
  static const char seps[] = ": \t\n,";
  uint8_t c = take(in);
  unsigned k = (c >> 5) + (at_least_one ? 1 : 0); /* 0..8 separators */
  for (unsigned i = 0; i < k; i++)
    sb_put(out, &seps[(c + i) % 5], 1);
}

static void run_generated(bytes_t in, size_t err_size) {
  static const char *const spell[8] = {"1", "true", "yes", "on",
                                        "0", "false", "no", "off"};
  hp_flags_t want, got, dflt;
  hp_flags_set_defaults(&want);
  hp_flags_set_defaults(&dflt);
  sbuf_t opts = {0};
  sb_str(&opts, "");
  /* Expected strings, owned here: want's str fields point into this. */
  char *values[64] = {0};
  unsigned nvalues = 0;
  /* The parser's arena as it fills: its bytes used, and what each string
   * flag's value holds of them (0: its default, not in the arena). */
  size_t arena = 0;
  size_t held[HP_NUM_FLAGS] = {0};
  int overflow_flag = -1; /* the flag whose value overflows the arena */
  unsigned unknown = 0;
  char last_unknown[64] = "";
  put_seps(&opts, &in, false);
  /* At most 64 options and about 24 KB (three times the arena): longer
   * strings only make each run slower. */
  for (unsigned item = 0; in.n && item < 64 && opts.len < 24576; item++) {
    if (item)
      put_seps(&opts, &in, true);
    uint8_t k = take(&in) % (HP_NUM_FLAGS + 1);
    if (k == HP_NUM_FLAGS) {
      /* An unknown name: letters and '_', plus an upper-case letter no flag
       * name has. */
      char name[24];
      size_t len = take(&in) % 16;
      for (size_t i = 0; i < len; i++)
        name[i] = "abcdefghijklmnopqrstuvwxyz_"[take(&in) % 27];
      name[len++] = 'Q';
      name[len] = 0;
      sb_str(&opts, name);
      sb_str(&opts, "=1");
      if (overflow_flag < 0) {
        unknown++;
        snprintf(last_unknown, sizeof(last_unknown), "%s", name);
      }
      continue;
    }
    const flag_desc_t *d = &flag_descs[k];
    sb_str(&opts, d->name);
    sb_str(&opts, "=");
    switch (d->type) {
    case T_bool: {
      uint8_t c = take(&in);
      sb_str(&opts, spell[c % 8]);
      if (overflow_flag < 0)
        FIELD(&want, d, hp_flag_bool) = c % 8 < 4;
      break;
    }
    case T_int: {
      uint8_t c = take(&in);
      int64_t v = c & 1 ? (int64_t)take64(&in) : (int64_t)take(&in) - 64;
      char num[48];
      /* Leading zeros are still decimal ("-0005" too). */
      snprintf(num, sizeof(num), "%s%s%llu", v < 0 ? "-" : "",
               c & 2 ? "000" : "",
               v < 0 ? 0 - (unsigned long long)v : (unsigned long long)v);
      sb_str(&opts, num);
      if (overflow_flag < 0)
        FIELD(&want, d, hp_flag_int) = v;
      break;
    }
    case T_str: {
      /* Short values byte by byte; long ones (up to 16320 bytes, past the
       * 8192-byte arena) repeat a pattern of 1 to 16 bytes. */
      uint8_t c = take(&in);
      size_t len = c < 240 ? c % 48 : (size_t)take(&in) * 64;
      size_t period = c < 240 ? len : (size_t)(c - 240) + 1;
      char *v = malloc(len + 1);
      size_t n = 0;
      for (size_t i = 0; i < len && (in.n || i >= period); i++) {
        uint8_t ch = i < period ? take(&in) : (uint8_t)v[i - period];
        v[n++] = ch ? (char)ch : 'z';
      }
      v[n] = 0;
      /* A value with both quotes and a separator cannot be written. */
      if (!print_str_value(&opts, v, n)) {
        for (size_t i = 0; i < n; i++)
          if (v[i] == '"')
            v[i] = '_';
        print_str_value(&opts, v, n);
      }
      if (overflow_flag < 0) {
        /* Full: the parser packs the arena down to the other flags'
         * values (this flag's old one and the replaced ones go), then
         * tries again. */
        if (arena + n + 1 > sizeof(str_arena)) {
          arena = 0;
          for (unsigned f = 0; f < HP_NUM_FLAGS; f++)
            arena += f == k ? 0 : held[f];
        }
        if (arena + n + 1 > sizeof(str_arena))
          overflow_flag = k;
        arena += n + 1;
        held[k] = n + 1;
        FIELD(&want, d, hp_flag_str) = v;
      }
      values[nvalues++] = v;
      break;
    }
    }
    if (overflow_flag < 0 || overflow_flag == k)
      want.explicit_mask |= 1ull << k;
  }
  put_seps(&opts, &in, false);

  char *err = malloc(err_size);
  bool ok = parse(&got, opts.p, err, err_size);
  char range[1024] = "";
  unsigned nrange =
      overflow_flag < 0 ? out_of_range(&want, range, sizeof(range)) : 0;
  bool want_ok = overflow_flag < 0 && !nrange;
  if (ok != want_ok)
    fail(opts.p, "parse returned %d, expected %d (%s)", ok, want_ok,
         overflow_flag >= 0 ? "string arena full"
         : nrange          ? range
                           : "all values in their documented ranges");
  if (!ok) {
    check_error(opts.p, err, err_size);
    char expect[128];
    bool named = false;
    if (overflow_flag >= 0) {
      snprintf(expect, sizeof(expect),
               "for option '%s' in " SOURCE
               ": too long (the string options share 8 KiB)",
               flag_descs[overflow_flag].name);
      named = strstr(err, expect) != NULL;
    }
    /* Out of range: the message names one of the flags out of range (which
     * one the parser checks first is its own business). */
    for (int i = 0; overflow_flag < 0 && i < HP_NUM_FLAGS && !named; i++) {
      const flag_desc_t *d = &flag_descs[i];
      if (d->type != T_int || documented_ok(d, FIELD(&want, d, hp_flag_int)))
        continue;
      snprintf(expect, sizeof(expect), "option '%s' out of range", d->name);
      named = strstr(err, expect) != NULL;
    }
    if (strlen(err) + 1 < err_size && !named)
      fail(opts.p, "error \"%s\" names none of the flags out of range (%s)",
           err, overflow_flag >= 0 ? flag_descs[overflow_flag].name : range);
  } else {
    check_success(opts.p, &got, &dflt);
    const char *d = diff_flags(&got, &want);
    if (d)
      fail(opts.p, "'%s' did not round-trip", d);
  }
  if (fuzz_warnings != unknown)
    fail(opts.p, "%u warnings for %u unknown names", fuzz_warnings, unknown);
  if (unknown) {
    char expect[128];
    snprintf(expect, sizeof(expect),
             "HeapProf: WARNING: unknown option '%s' in " SOURCE, last_unknown);
    if (strncmp(fuzz_last_warning, expect, strlen(expect)))
      fail(opts.p, "last warning \"%s\", expected \"%s...\"", fuzz_last_warning,
           expect);
  }
  for (unsigned i = 0; i < nvalues; i++)
    free(values[i]);
  free(err);
  free(opts.p);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size == 0)
    return 0;
  size_t err_size = err_sizes[(data[0] >> 1) & 7];
  if (data[0] & 1) {
    run_generated((bytes_t){data + 1, size - 1}, err_size);
    return 0;
  }
  /* Exactly the option bytes and a NUL, so ASan sees any read past it. */
  char *s = malloc(size);
  memcpy(s, data + 1, size - 1);
  s[size - 1] = 0;
  run_raw(s, err_size);
  free(s);
  return 0;
}
