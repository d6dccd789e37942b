/*===- heapprof_flags.h - runtime flags ---------------------------------===
 *
 * Part of heapprof.  Order of precedence, lowest first:
 *   1. the defaults in heapprof_flags.inc;
 *   2. the program's weak __heapprof_default_options() string;
 *   3. -fheapprof=DIR from the compiler (sets profile_dir);
 *   4. the HEAPPROF_OPTIONS environment variable (wins; ignored in secure
 *      mode, when the program runs setuid/setgid: heapprof_secure.c).
 * Options are "name=value" separated by ':' (or spaces).  An unknown name is
 * a warning; a malformed value is an error that stops the program.
 *===----------------------------------------------------------------------===*/
#ifndef HEAPPROF_FLAGS_H
#define HEAPPROF_FLAGS_H

typedef const char *hp_flag_str;
typedef s64 hp_flag_int;
typedef bool hp_flag_bool;

typedef struct hp_flags {
#define HEAPPROF_FLAG(type, name, dflt, desc) hp_flag_##type name;
#include "heapprof_flags.inc"
#undef HEAPPROF_FLAG
  u64 explicit_mask; /* bit HP_FLAG_<name>: set by an option string */
} hp_flags_t;

enum {
#define HEAPPROF_FLAG(type, name, dflt, desc) HP_FLAG_##name,
#include "heapprof_flags.inc"
#undef HEAPPROF_FLAG
  HP_NUM_FLAGS
};
_Static_assert(HP_NUM_FLAGS <= 64, "explicit_mask holds 64 flags");

/* Whether an option string named the flag (not just its default). */
#define hp_flag_explicit(f, name) (((f)->explicit_mask >> HP_FLAG_##name) & 1)

/* Written only by hp_flags_init (during runtime init, single-threaded);
 * read-only afterwards. */
extern hp_flags_t hp_flags;

void hp_flags_set_defaults(hp_flags_t *f);
/* Parses one option string into f.  source names it in messages (e.g.
 * "HEAPPROF_OPTIONS").  Returns false and sets *err (a static message) on a
 * malformed value; unknown names are reported as warnings and skipped. */
bool hp_flags_parse(hp_flags_t *f, const char *s, const char *source,
                    char *err, size_t err_size);
void hp_flags_init(void);
/* True on the thread running the program's __heapprof_default_options(),
 * which runs first thing in init (heapprof_rtl.c names it when it enters
 * init again). */
bool hp_flags_in_default_options(void);
void hp_flags_print_help(void);

#endif
