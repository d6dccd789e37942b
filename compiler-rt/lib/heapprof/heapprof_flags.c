/*===- heapprof_flags.c - runtime flag parsing --------------------------===
 *
 * Part of heapprof.  See heapprof_flags.h for the order of precedence.
 *===----------------------------------------------------------------------===*/
#include "heapprof_internal.h"

#include <unistd.h>

/* Written once by hp_flags_init before any other thread can exist. */
hp_flags_t hp_flags;

HP_INTERFACE HP_WEAK const char *__heapprof_default_options(void) {
  return "";
}

/* String values are copied here (the parser never allocates).  Protected by
 * being used only during init and from unit tests. */
#define STR_ARENA_BYTES 8192
_Static_assert(STR_ARENA_BYTES == 8192, "type_hint says 8 KiB");
static char str_arena[STR_ARENA_BYTES];
static size_t str_used;

void hp_flags_set_defaults(hp_flags_t *f) {
#define HEAPPROF_FLAG(type, name, dflt, desc) f->name = dflt;
#include "heapprof_flags.inc"
#undef HEAPPROF_FLAG
  f->explicit_mask = 0;
}

static bool is_sep(char c) {
  return c == ':' || c == ' ' || c == '\t' || c == '\n' || c == ',';
}

static bool parse_bool(const char *v, size_t n, bool *out) {
  static const char *const yes[] = {"1", "true", "yes", "on"};
  static const char *const no[] = {"0", "false", "no", "off"};
  for (size_t i = 0; i < HP_ARRAY_SIZE(yes); i++) {
    if (hp_strlen(yes[i]) == n && !hp_strncmp(v, yes[i], n)) {
      *out = true;
      return true;
    }
    if (hp_strlen(no[i]) == n && !hp_strncmp(v, no[i], n)) {
      *out = false;
      return true;
    }
  }
  return false;
}

static bool set_bool(hp_flags_t *f, hp_flag_bool *dst, const char *v,
                     size_t n) {
  (void)f;
  return parse_bool(v, n, dst);
}

static bool set_int(hp_flags_t *f, hp_flag_int *dst, const char *v, size_t n) {
  (void)f;
  return hp_parse_s64(v, n, dst);
}

/* Packs the arena down to the values f still holds, dst's aside (it is
 * being replaced): a string option given again leaves its old value
 * behind, and 1200 times log_path=stderr filled the 8 KiB and stopped the
 * program with "invalid value 'stderr' ... too long".  Moves f's strings:
 * only for the struct being parsed (hp_flags in the runtime). */
static char str_spare[STR_ARENA_BYTES];
static void compact_strings(hp_flags_t *f, hp_flag_str *dst) {
  size_t used = 0;
#define HEAPPROF_FLAG(ty, nm, dflt, desc) compact_##ty(&f->nm);
#define compact_bool(p)
#define compact_int(p)
#define compact_str(p)                                                       \
  if ((p) != dst && *(p) >= str_arena && *(p) < str_arena + str_used) {      \
    size_t k = hp_strlen(*(p)) + 1;                                          \
    hp_memcpy(str_spare + used, *(p), k);                                    \
    *(p) = str_arena + used;                                                 \
    used += k;                                                               \
  }
#include "heapprof_flags.inc"
#undef HEAPPROF_FLAG
#undef compact_bool
#undef compact_int
#undef compact_str
  hp_memcpy(str_arena, str_spare, used);
  str_used = used;
}

static bool set_str(hp_flags_t *f, hp_flag_str *dst, const char *v, size_t n) {
  if (str_used + n + 1 > sizeof(str_arena))
    compact_strings(f, dst);
  if (str_used + n + 1 > sizeof(str_arena))
    return false;
  char *s = str_arena + str_used;
  hp_memcpy(s, v, n);
  s[n] = 0;
  str_used += n + 1;
  *dst = s;
  return true;
}

static const char *type_hint(const char *type) {
  if (!hp_strcmp(type, "bool"))
    return "expected 0, 1, true, false, yes, no, on or off";
  if (!hp_strcmp(type, "int"))
    return "expected a decimal integer";
  return "too long (the string options share 8 KiB)";
}

/* Range checks that need more than the type. */
static const char *check_ranges(const hp_flags_t *f) {
  if (f->malloc_context_size < 1 ||
      f->malloc_context_size > HP_MAX_STACK_DEPTH)
    return "malloc_context_size";
  if (f->hib_table_sets < 1 || f->hib_table_sets > (1 << 24))
    return "hib_table_sets";
  if (f->hib_table_ways < 1 || f->hib_table_ways > 16)
    return "hib_table_ways";
  if (f->cycle_sample_every < 1 || f->cycle_sample_every > (1 << 30))
    return "cycle_sample_every";
  if (f->pmu_sample_every < 1 || f->pmu_sample_every > (1 << 30))
    return "pmu_sample_every";
  /* The sizes are shifted into bytes: 2^40 MiB or KiB is past anything the
   * allocator can hold, and the shift cannot wrap (2^44 MiB wrapped to a
   * 0-byte limit that failed every allocation). */
  if (f->max_allocation_size_mb < 0 || f->max_allocation_size_mb > (1ll << 40))
    return "max_allocation_size_mb";
  if (f->peak_threshold_kb < 0 || f->peak_threshold_kb > (1ll << 40))
    return "peak_threshold_kb";
  if (f->release_threshold_kb < 0 || f->release_threshold_kb > (1ll << 40))
    return "release_threshold_kb";
  if (f->release_idle_ms < -1 || f->release_idle_ms > (1 << 30))
    return "release_idle_ms";
  if (f->verbosity < 0)
    return "verbosity";
  if (!hp_profile_mode_bits(f->profile_mode))
    return "profile_mode";
  if (f->sample_bytes < 0 || f->sample_bytes > (1ll << 40))
    return "sample_bytes";
  if (f->deadly_signal_timeout_s < 1 || f->deadly_signal_timeout_s > 3600)
    return "deadly_signal_timeout_s";
  return NULL;
}

bool hp_flags_parse(hp_flags_t *f, const char *s, const char *source,
                    char *err, size_t err_size) {
  if (!s)
    return true;
  const char *p = s;
  while (*p) {
    while (*p && is_sep(*p))
      p++;
    if (!*p)
      break;
    const char *name = p;
    while (*p && *p != '=' && !is_sep(*p))
      p++;
    size_t name_len = (size_t)(p - name);
    if (*p != '=' || !name_len) { /* "=1" has no name: malformed too */
      const char *end = p;
      while (*end && !is_sep(*end))
        end++;
      hp_snprintf(err, err_size,
                  "malformed option '%.*s' in %s: expected name=value",
                  (int)(end - name), name, source);
      return false;
    }
    p++;
    const char *val = p;
    /* A quoted value may hold separators. */
    char quote = (*p == '"' || *p == '\'') ? *p : 0;
    if (quote) {
      val = ++p;
      while (*p && *p != quote)
        p++;
    } else {
      while (*p && !is_sep(*p))
        p++;
    }
    size_t val_len = (size_t)(p - val);
    if (quote) {
      if (*p != quote) {
        hp_snprintf(err, err_size, "unterminated quote in option '%.*s' in %s",
                    (int)name_len, name, source);
        return false;
      }
      p++;
    }
    bool known = false, ok = true;
    const char *type = "";
#define HEAPPROF_FLAG(ty, nm, dflt, desc)                                    \
  if (!known && hp_strlen(#nm) == name_len &&                               \
      !hp_strncmp(#nm, name, name_len)) {                                    \
    known = true;                                                            \
    type = #ty;                                                              \
    ok = set_##ty(f, &f->nm, val, val_len);                                  \
    f->explicit_mask |= 1ull << HP_FLAG_##nm;                                \
  }
#include "heapprof_flags.inc"
#undef HEAPPROF_FLAG
    if (!known) {
      hp_printf("HeapProf: WARNING: unknown option '%.*s' in %s (ignored; "
                "HEAPPROF_OPTIONS=help=1 lists them)\n",
                (int)name_len, name, source);
      continue;
    }
    if (!ok) {
      /* A long value is shown by its start: whole, it would push the
       * option's name and the reason out of the message. */
      int shown = val_len > 96 ? 96 : (int)val_len;
      hp_snprintf(err, err_size,
                  "invalid value '%.*s%s' for option '%.*s' in %s: %s", shown,
                  val, shown < (int)val_len ? "..." : "", (int)name_len, name,
                  source, type_hint(type));
      return false;
    }
  }
  const char *bad = check_ranges(f);
  if (bad) {
    hp_snprintf(err, err_size, "option '%s' out of range in %s (see help=1)",
                bad, source);
    return false;
  }
  return true;
}

void hp_flags_print_help(void) {
  hp_printf("Available flags for HeapProf (HEAPPROF_OPTIONS=name=value:...), with their current values:\n");
#define HEAPPROF_FLAG(ty, nm, dflt, desc) print_one_##ty(#nm, f->nm, desc);
  const hp_flags_t *f = &hp_flags;
#define print_one_bool(n, v, d) hp_printf("  %s=%s\n      - %s\n", n, (v) ? "true" : "false", d)
#define print_one_int(n, v, d) hp_printf("  %s=%lld\n      - %s\n", n, (long long)(v), d)
#define print_one_str(n, v, d) hp_printf("  %s=\"%s\"\n      - %s\n", n, v, d)
#include "heapprof_flags.inc"
#undef HEAPPROF_FLAG
#undef print_one_bool
#undef print_one_int
#undef print_one_str
}

static HP_TLS bool in_default_options;

bool hp_flags_in_default_options(void) { return in_default_options; }

void hp_flags_init(void) {
  char err[512];
  hp_flags_set_defaults(&hp_flags);
#ifdef HEAPPROF_SHARED_RUNTIME
  /* heapprof run profiles a program as it is, and glibc lets malloc and
   * new mix: memory from malloc released by delete (rust-lld, whose
   * statically linked libstdc++'s operator new calls malloc while its
   * sized delete binds to heapprof's) is not stopped.  The options can
   * turn the check back on. */
  hp_flags.check_dealloc_mismatch = false;
#endif
  in_default_options = true;
  const char *dflt = __heapprof_default_options();
  in_default_options = false;
  if (!hp_flags_parse(&hp_flags, dflt, "__heapprof_default_options()", err,
                      sizeof(err)))
    hp_report_bad_option(err);
  if (&__heapprof_profile_dir[0] != NULL && __heapprof_profile_dir[0])
    hp_flags.profile_dir = __heapprof_profile_dir;
  /* Secure mode: hp_getenv answers NULL; the program's own options stand. */
  if (hp_secure_mode() && hp_env_is_set("HEAPPROF_OPTIONS"))
    hp_printf("HeapProf: WARNING: HEAPPROF_OPTIONS ignored: the program runs "
              "with elevated privileges (setuid, setgid or file "
              "capabilities)\n");
  if (!hp_flags_parse(&hp_flags, hp_getenv("HEAPPROF_OPTIONS"),
                      "HEAPPROF_OPTIONS", err, sizeof(err)))
    hp_report_bad_option(err);
  if (hp_flags.help)
    hp_flags_print_help();
}
