/*===- heapprof-clang.c - the -fheapprof compiler driver -------------------===
 *
 * Part of heapprof, a sanitizer-style heap profiler.
 *
 * heapprof-clang and heapprof-clang++ run clang-19 / clang++-19 with the
 * user's arguments untouched, except that -fheapprof[=DIR] and -fno-heapprof
 * are taken out and, when the last of them enables heapprof, the pass plugin,
 * frame pointers, line tables, the include directory and (when linking) the
 * runtime are added.  docs/compiler.md documents the flags and why each is
 * there.
 *
 * -fheapprof=DIR reaches the program twice: the pass stores DIR in every
 * object it compiles (a weak COMDAT __heapprof_profile_dir), and a link step
 * with DIR puts a tiny generated object defining the same COMDAT first on
 * the link line, so that its DIR is the one the linker keeps.  That object is
 * a temporary file: for such a link the driver runs clang as a child and
 * removes the file after it, instead of exec'ing clang.
 *
 * Everything is found relative to this executable (resolved through
 * /proc/self/exe), identically in the build tree and an install:
 *
 *     <prefix>/bin/heapprof-clang[++]
 *     <prefix>/lib/heapprof/HeapProfiler.so          the pass plugin
 *     <prefix>/lib/heapprof/libheapprof_rt.a (+.syms) the runtime
 *     <prefix>/lib/heapprof/libheapprof_cxx.a        operator new/delete
 *     <prefix>/include/heapprof/heapprof_interface.h the user API
 *
 * HEAPPROF_CLANG / HEAPPROF_CLANGXX name another compiler to run.
 *===----------------------------------------------------------------------===*/
#define _GNU_SOURCE
#include <elf.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define DEFAULT_CLANG "clang-19"
#define DEFAULT_CLANGXX "clang++-19"
#define PLUGIN_NAME "HeapProfiler.so"
#define RT_ARCHIVE "libheapprof_rt.a"
#define CXX_ARCHIVE "libheapprof_cxx.a"

/* Upper bound on the arguments this program adds (see main). */
#define MAX_ADDED_ARGS 40
/* Response files are only scanned, never rewritten; these bound the work. */
#define MAX_RSP_DEPTH 8
#define MAX_RSP_TOKEN 4096

static const char *prog = "heapprof-clang";

/* What the command line asks for, as far as the wrapper needs to know. */
struct scan {
  int enabled;          /* last of -fheapprof[=DIR] / -fno-heapprof enables */
  const char *dir;      /* DIR of that -fheapprof=DIR, or NULL */
  int has_inputs;       /* a source, object, "-" or response file was given */
  int no_link;          /* -c, -S, -E, -M, -MM, -fsyntax-only, ... */
  int shared;           /* -shared or -r: link no runtime into the output */
  int user_debug_level; /* the user chose a -g level */
  const char *lang;     /* language of the last -x, NULL if none */
  int lang_next;        /* the next argument is the language of -x */
  int skip;             /* arguments still to skip as an option's value */
  int inputs_only;      /* after "--" */
  const char *heapprof_in_rsp; /* a response file that has -f[no-]heapprof */
  unsigned conflicts;   /* bit i: conflicting[i] was asked for */
  const char *is_static; /* the last -static, --static or -static-pie */
  int non_header;       /* an input that is not a header (else: a PCH) */
  int asm_inputs;       /* an assembler source (.s: no preprocessor) */
  int compiled_inputs;  /* an input clang compiles: not .s, not an object */
  int cpp_inputs;       /* one it preprocesses: not .i/.ii, not IR */
  const char *no_libc;  /* -nostartfiles, -nostdlib, ...: the last one */
  const char *target;   /* the last --target=/-target value, NULL if none */
  int target_next;      /* the next argument is -target's value */
  int xlinker_next;     /* the next argument is -Xlinker's value */
  int word_bits;        /* 32 after -m32/-mx32/-m16, 64 after -m64, else 0 */
  const char *bits_flag; /* the last of those flags */
};

/* Runtimes that replace malloc, as heapprof's does (most also map shadow
 * memory): a program with both crashed at its first allocation (ASan's,
 * MemProf's), where the driver gave no word.
 * -fsanitize= adds to the set and -fno-sanitize= takes away, as in clang;
 * -fmemory-profile is upstream's heap profiler. */
static const char *const conflicting[] = {
    "address", "hwaddress", "memory", "thread", "leak", "dataflow",
    "kernel-address", "kernel-hwaddress", "memtag", "scudo",
    "-fmemory-profile"};
enum { NUM_CONFLICTING = sizeof conflicting / sizeof *conflicting };

/* Applies a -fsanitize= (on) or -fno-sanitize= (off) list to s. */
static void sanitize_list(struct scan *s, const char *list, int on) {
  while (*list) {
    size_t len = strcspn(list, ",");
    for (int i = 0; i < NUM_CONFLICTING - 1; i++)
      if ((strlen(conflicting[i]) == len &&
           strncmp(list, conflicting[i], len) == 0) ||
          (!on && len == 3 && strncmp(list, "all", 3) == 0)) {
        if (on)
          s->conflicts |= 1u << i;
        else
          s->conflicts &= ~(1u << i);
      }
    list += len;
    if (*list == ',')
      list++;
  }
}

/* Options whose value is the next argument (clang 19's separate forms). */
static const char *const separate_value_opts[] = {
    "-o", "-x", "-I", "-D", "-U", "-L", "-l", "-F", "-B", "-b", "-G", "-T",
    "-u", "-e", "-z", "-A", "-MF", "-MJ", "-MQ", "-MT", "-arch", "-target",
    "-include", "-include-pch", "-imacros", "-idirafter", "-iframework",
    "-iframeworkwithsysroot", "-iprefix", "-iquote", "-isysroot", "-isystem",
    "-isystem-after", "-ivfsoverlay", "-iwithprefix", "-iwithprefixbefore",
    "-iwithsysroot", "-iapinotes-modules", "-cxx-isystem", "-stdlib++-isystem",
    "-mllvm", "-mmlir", "-Xclang", "-Xlinker", "-Xassembler",
    "-Xpreprocessor", "-Xanalyzer", "-Xarch_device", "-Xarch_host",
    "-Xcuda-fatbinary", "-Xcuda-ptxas", "-Xopenmp-target", "-meabi",
    "-mthread-model", "-dependency-file", "-dependency-dot", "-dsym-dir",
    "-dumpdir", "-module-dependency-dir", "-resource-dir",
    "-serialize-diagnostics", "-vfsoverlay", "-working-directory",
    "-ccc-install-dir", "-ccc-gcc-name", "-gen-cdb-fragment-path",
    "-darwin-target-variant", "-darwin-target-variant-triple", "-hlsl-entry",
    "-fexperimental-openacc-macro-override", "-fmodules-user-build-path",
    "--param", "--output", "--language", "--include-directory",
    "--library-directory", "--define-macro", "--undefine-macro", "--include",
    "--sysroot", "--analyzer-output", NULL};

/* Options after which clang does not link (and their long spellings). */
static const char *const no_link_opts[] = {
    "-c", "-S", "-E", "-M", "-MM", "-fsyntax-only", "--precompile",
    "-emit-ast", "--analyze", "-fdriver-only", "--compile", "--assemble",
    "--preprocess", "--dependencies", "--user-dependencies", NULL};

/* Options that leave out the C library or its start files, which the
 * runtime needs (its constructors, __dso_handle, pthreads, dlsym). */
static const char *const no_libc_opts[] = {
    "-nostartfiles", "-nostdlib", "-nodefaultlibs", "-nolibc",
    "--no-standard-libraries", NULL};


/* Linker options that make a shared object or a relocatable one, given
 * through -Wl, or -Xlinker: the output gets no runtime, as with -shared. */
static const char *const linker_shared_opts[] = {
    "-shared", "--shared", "-Bshareable", "-r", "--relocatable", NULL};

/* Options that choose a debug-info level (or imply one). */
static const char *const debug_level_opts[] = {
    "-g", "-g0", "-g1", "-g2", "-g3", "-ggdb", "-ggdb0", "-ggdb1", "-ggdb2",
    "-ggdb3", "-glldb", "-gsce", "-gdbx", "-gline-tables-only",
    "-gline-directives-only", "-gdwarf", "-gdwarf-2", "-gdwarf-3",
    "-gdwarf-4", "-gdwarf-5", "-gfull", "-gused", NULL};

static int in_list(const char *arg, const char *const *list) {
  for (; *list; list++)
    if (strcmp(arg, *list) == 0)
      return 1;
  return 0;
}

/* Whether an input is a header: clang precompiles a command whose inputs
 * are all headers (-x c-header, or a .h name), and links nothing. */
static int is_header_input(const char *lang, const char *arg) {
  if (lang) {
    size_t n = strlen(lang);
    return n > 7 && strcmp(lang + n - 7, "-header") == 0;
  }
  const char *dot = strrchr(arg, '.');
  if (!dot || strchr(dot, '/'))
    return 0;
  static const char *const exts[] = {".h", ".hh", ".hpp", ".hxx", ".H",
                                     ".h++", ".hp", NULL};
  return in_list(dot, exts);
}

/* A -Wl, list: each comma-separated linker argument. */
static int wl_makes_shared(const char *list) {
  while (*list) {
    size_t len = strcspn(list, ",");
    for (const char *const *o = linker_shared_opts; *o; o++)
      if (strlen(*o) == len && strncmp(list, *o, len) == 0)
        return 1;
    list += len;
    if (*list == ',')
      list++;
  }
  return 0;
}

/* An assembler source that clang assembles without the preprocessor (-x
 * assembler, or a .s name): no compile flag applies to it. */
static int is_asm_input(const char *lang, const char *arg) {
  if (lang)
    return strcmp(lang, "assembler") == 0;
  const char *dot = strrchr(arg, '.');
  return dot && !strchr(dot, '/') && strcmp(dot, ".s") == 0;
}

/* An input clang compiles without the preprocessor: preprocessed source
 * (.i, .ii, .mi, .mii, -x cpp-output, ...) or LLVM IR (.ll, .bc, -x ir). */
static int is_preprocessed_input(const char *lang, const char *arg) {
  if (lang) {
    size_t n = strlen(lang);
    return strcmp(lang, "ir") == 0 ||
           (n >= 10 && strcmp(lang + n - 10, "cpp-output") == 0);
  }
  const char *dot = strrchr(arg, '.');
  if (!dot || strchr(dot, '/'))
    return 0;
  static const char *const exts[] = {".i", ".ii", ".mi", ".mii", ".ll", ".bc",
                                     NULL};
  return in_list(dot, exts);
}

/* An input clang only hands to the linker: an object, an archive, a shared
 * library (libx.so.1.2 too: ".so." and then only digits and dots). */
static int is_linker_input(const char *lang, const char *arg) {
  if (lang)
    return 0;
  const char *base = strrchr(arg, '/');
  base = base ? base + 1 : arg;
  const char *dot = strrchr(base, '.');
  if (!dot)
    return 0;
  if (strcmp(dot, ".o") == 0 || strcmp(dot, ".a") == 0 ||
      strcmp(dot, ".so") == 0 || strcmp(dot, ".lo") == 0)
    return 1;
  for (const char *so = strstr(base, ".so."); so; so = strstr(so + 1, ".so."))
    if (so[4] && strspn(so + 4, "0123456789.") == strlen(so + 4))
      return 1;
  return 0;
}

static int takes_separate_value(const char *arg) {
  /* -Xarch_<arch> <arg> and -Xopenmp-target=<triple> <arg>. */
  if (strncmp(arg, "-Xarch_", 7) == 0 ||
      strncmp(arg, "-Xopenmp-target=", 16) == 0)
    return 1;
  return in_list(arg, separate_value_opts);
}

/* Prints VALUE with control characters escaped, so that the message stays
 * on one line whatever the value holds. */
static void print_escaped(FILE *f, const char *value) {
  for (const unsigned char *p = (const unsigned char *)value; *p; p++) {
    if (*p == '\n')
      fputs("\\n", f);
    else if (*p == '\t')
      fputs("\\t", f);
    else if (*p == '\\')
      fputs("\\\\", f);
    else if (*p < 0x20 || *p == 0x7f)
      fprintf(f, "\\x%02x", *p);
    else
      fputc(*p, f);
  }
}

static void die_bad_dir(const char *value, const char *why) {
  fprintf(stderr, "%s: error: invalid value '", prog);
  print_escaped(stderr, value);
  fprintf(stderr, "' in '-fheapprof=': %s\n", why);
  exit(1);
}

/* DIR ends up in a C string constant in every object and in file names the
 * runtime builds; reject what cannot be meant as a directory. */
static void check_dir(const char *value) {
  if (*value == '\0')
    die_bad_dir(value, "expected a directory name");
  for (const unsigned char *p = (const unsigned char *)value; *p; p++)
    if (*p < 0x20 || *p == 0x7f)
      die_bad_dir(value, "the directory name contains a control character");
}

static void scan_response_file(struct scan *s, const char *path, int depth);

/* Records the language of a -x; a response-file token is copied as its
 * buffer is reused. */
static void set_lang(struct scan *s, const char *lang, const char *in_rsp) {
  if (strcmp(lang, "none") == 0) {
    s->lang = NULL;
    return;
  }
  s->lang = in_rsp ? strdup(lang) : lang;
  if (!s->lang) {
    perror(prog);
    exit(1);
  }
}

/* Looks at one argument (from the command line, or a token of a response
 * file when in_rsp names it).  Returns 1 if the argument is a heapprof flag
 * to drop from the command line. */
static int scan_arg(struct scan *s, const char *arg, const char *in_rsp,
                    int depth) {
  if (s->skip) {
    s->skip--;
    if (s->lang_next) {
      s->lang_next = 0;
      set_lang(s, arg, in_rsp);
    }
    if (s->target_next) {
      s->target_next = 0;
      s->target = in_rsp ? strdup(arg) : arg;
    }
    if (s->xlinker_next) {
      s->xlinker_next = 0;
      if (in_list(arg, linker_shared_opts))
        s->shared = 1;
    }
    return 0;
  }
  if (s->inputs_only || arg[0] != '-' || arg[1] == '\0') {
    if (arg[0] == '@' && !s->inputs_only) {
      scan_response_file(s, arg + 1, depth + 1);
    } else {
      s->has_inputs = 1;
      if (!is_header_input(s->lang, arg))
        s->non_header = 1;
      if (is_asm_input(s->lang, arg))
        s->asm_inputs = 1;
      else if (!is_linker_input(s->lang, arg)) {
        s->compiled_inputs = 1;
        if (!is_preprocessed_input(s->lang, arg))
          s->cpp_inputs = 1;
      }
    }
    return 0;
  }
  if (strcmp(arg, "-fheapprof") == 0 || strncmp(arg, "-fheapprof=", 11) == 0 ||
      strcmp(arg, "-fno-heapprof") == 0) {
    if (in_rsp) {
      if (!s->heapprof_in_rsp)
        s->heapprof_in_rsp = in_rsp;
      return 0;
    }
    if (arg[2] == 'n') {
      s->enabled = 0;
      s->dir = NULL;
    } else {
      s->enabled = 1;
      s->dir = NULL;
      if (arg[10] == '=') {
        check_dir(arg + 11);
        s->dir = arg + 11;
      }
    }
    return 1;
  }
  if (strcmp(arg, "--") == 0)
    s->inputs_only = 1;
  else if (strcmp(arg, "-x") == 0)
    s->skip = 1, s->lang_next = 1;
  else if (arg[1] == 'x') /* -x<language> */
    set_lang(s, arg + 2, in_rsp);
  else if (strcmp(arg, "-target") == 0)
    s->skip = 1, s->target_next = 1;
  else if (strcmp(arg, "-Xlinker") == 0)
    s->skip = 1, s->xlinker_next = 1;
  else if (strncmp(arg, "-Wl,", 4) == 0) {
    if (wl_makes_shared(arg + 4))
      s->shared = 1;
  }
  else if (strncmp(arg, "--target=", 9) == 0)
    s->target = in_rsp ? strdup(arg + 9) : arg + 9;
  else if (strcmp(arg, "-m32") == 0 || strcmp(arg, "-mx32") == 0 ||
           strcmp(arg, "-m16") == 0)
    s->word_bits = 32, s->bits_flag = in_rsp ? strdup(arg) : arg;
  else if (strcmp(arg, "-m64") == 0)
    s->word_bits = 64, s->bits_flag = NULL;
  else if (takes_separate_value(arg))
    s->skip = 1;
  else if (in_list(arg, no_link_opts))
    s->no_link = 1;
  else if (strcmp(arg, "-shared") == 0 || strcmp(arg, "-r") == 0)
    s->shared = 1;
  else if (strcmp(arg, "-static") == 0 || strcmp(arg, "--static") == 0 ||
           strcmp(arg, "-static-pie") == 0)
    s->is_static = in_rsp ? strdup(arg) : arg;
  else if (in_list(arg, no_libc_opts))
    s->no_libc = in_rsp ? strdup(arg) : arg;
  else if (strncmp(arg, "-fsanitize=", 11) == 0)
    sanitize_list(s, arg + 11, 1);
  else if (strncmp(arg, "-fno-sanitize=", 14) == 0)
    sanitize_list(s, arg + 14, 0);
  else if (strcmp(arg, "-fmemory-profile") == 0 ||
           strncmp(arg, "-fmemory-profile=", 17) == 0)
    s->conflicts |= 1u << (NUM_CONFLICTING - 1);
  else if (strcmp(arg, "-fno-memory-profile") == 0)
    s->conflicts &= ~(1u << (NUM_CONFLICTING - 1));
  else if (in_list(arg, debug_level_opts))
    s->user_debug_level = 1;
  return 0;
}

/* Scans a response file the way clang expands it (GNU quoting), only to
 * learn what it asks for; the @file argument itself is passed on as is. */
static void scan_response_file(struct scan *s, const char *path, int depth) {
  FILE *f;
  if (depth > MAX_RSP_DEPTH || !(f = fopen(path, "r"))) {
    /* clang takes an unreadable @file for an input file name. */
    s->has_inputs = 1;
    s->non_header = 1;
    s->compiled_inputs = 1;
    s->cpp_inputs = 1;
    return;
  }
  struct scan sub = *s; /* option values do not run across files */
  sub.skip = 0;
  sub.lang_next = 0;
  sub.xlinker_next = 0;
  char tok[MAX_RSP_TOKEN];
  size_t len = 0;
  int have_tok = 0, quote = 0, c;
  while ((c = getc(f)) != EOF) {
    if (quote) {
      if (c == quote) {
        quote = 0;
        continue;
      }
      if (c == '\\' && quote == '"') {
        int n = getc(f);
        if (n == EOF)
          break;
        if (n != '"' && n != '\\' && len + 1 < sizeof tok)
          tok[len++] = '\\';
        c = n;
      }
    } else if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      if (have_tok) {
        tok[len] = '\0';
        scan_arg(&sub, tok, path, depth);
        len = 0;
        have_tok = 0;
      }
      continue;
    } else if (c == '\'' || c == '"') {
      quote = c;
      have_tok = 1;
      continue;
    } else if (c == '\\') {
      c = getc(f);
      if (c == EOF)
        break;
      if (c == '\n') /* line continuation */
        continue;
    }
    have_tok = 1;
    if (len + 1 < sizeof tok) /* over-long tokens are cut; fine for a scan */
      tok[len++] = (char)c;
  }
  if (have_tok) {
    tok[len] = '\0';
    scan_arg(&sub, tok, path, depth);
  }
  fclose(f);
  /* Keep what the file said; the enable state can only come from argv. */
  sub.enabled = s->enabled;
  sub.dir = s->dir;
  sub.skip = s->skip;
  sub.lang_next = s->lang_next;
  sub.target_next = s->target_next;
  sub.xlinker_next = s->xlinker_next;
  sub.inputs_only = s->inputs_only;
  *s = sub;
}

/* <prefix> such that this program is <prefix>/bin/<name>. */
static char *find_prefix(const char *argv0) {
  char exe[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n > 0) {
    exe[n] = '\0';
  } else if (strchr(argv0, '/') && realpath(argv0, exe)) {
    /* /proc not mounted: fall back on argv[0]. */
  } else {
    fprintf(stderr, "%s: error: cannot find its own executable: %s\n", prog,
            strerror(errno));
    exit(1);
  }
  for (int i = 0; i < 2; i++) { /* strip "/<name>", then "/bin" */
    char *slash = strrchr(exe, '/');
    if (!slash) {
      fprintf(stderr, "%s: error: cannot locate its install prefix\n", prog);
      exit(1);
    }
    *slash = '\0';
  }
  char *prefix = strdup(exe);
  if (!prefix) {
    perror(prog);
    exit(1);
  }
  return prefix;
}

static char *concat(const char *a, const char *b, const char *c) {
  size_t la = strlen(a), lb = strlen(b), lc = strlen(c);
  char *r = malloc(la + lb + lc + 1);
  if (!r) {
    perror(prog);
    exit(1);
  }
  memcpy(r, a, la);
  memcpy(r + la, b, lb);
  memcpy(r + la + lb, c, lc + 1);
  return r;
}

/* The profile directory's symbol and COMDAT group: the pass's name
 * (HeapProfiler.cpp), read by the runtime (heapprof_flags.c). */
#define DIR_SYMBOL "__heapprof_profile_dir"

/* The generated object for a link step's -fheapprof=DIR: an x86-64 ELF
 * relocatable file with what the pass emits for DIR, written directly (an
 * assembler source would need an assembler job and would put its temporary
 * name in the program's debug info under -g):
 *
 *   [1] .group                        GRP_COMDAT, signature DIR_SYMBOL: { [2] }
 *   [2] .rodata.__heapprof_profile_dir  "DIR\0"
 *   [3] .note.GNU-stack               (empty: no executable stack)
 *   [4] .symtab                       null; weak hidden object DIR_SYMBOL in [2]
 *   [5] .strtab, [6] .shstrtab
 *
 * Placed before every other input, its group is the one the linker keeps,
 * so its DIR wins over the objects'; a program's own strong definition
 * still wins over it (weak). */
enum { SEC_GROUP = 1, SEC_DATA, SEC_NOTE, SEC_SYMTAB, SEC_STRTAB, SEC_SHSTRTAB,
       NUM_SECTIONS };

static const char shstrtab[] =
    "\0.group\0.rodata." DIR_SYMBOL "\0.note.GNU-stack\0.symtab\0.strtab\0"
    ".shstrtab";
static const char strtab[] = "\0" DIR_SYMBOL;

/* Offset of NAME in shstrtab. */
static Elf64_Word shstr(const char *name) {
  for (size_t i = 0; i < sizeof shstrtab; i += strlen(shstrtab + i) + 1)
    if (strcmp(shstrtab + i, name) == 0)
      return (Elf64_Word)i;
  abort();
}

/* Returns the object's bytes (malloc'd) and their number in *size. */
static unsigned char *dir_object(const char *dir, size_t *size) {
  size_t dir_size = strlen(dir) + 1;
  Elf32_Word group[2] = {GRP_COMDAT, SEC_DATA};
  Elf64_Sym syms[2];
  memset(syms, 0, sizeof syms);
  syms[1].st_name = 1;
  syms[1].st_info = ELF64_ST_INFO(STB_WEAK, STT_OBJECT);
  syms[1].st_other = STV_HIDDEN; /* as the pass's: see its comment */
  syms[1].st_shndx = SEC_DATA;
  syms[1].st_size = dir_size;

  /* Contents follow the ELF header in section order, 8-aligned; the section
   * header table comes last. */
  const void *data[NUM_SECTIONS] = {NULL, group, dir, "", syms, strtab,
                                    shstrtab};
  size_t len[NUM_SECTIONS] = {0, sizeof group, dir_size, 0, sizeof syms,
                              sizeof strtab, sizeof shstrtab};
  size_t off[NUM_SECTIONS] = {0};
  size_t pos = sizeof(Elf64_Ehdr);
  for (int i = 1; i < NUM_SECTIONS; i++) {
    pos = (pos + 7) & ~(size_t)7;
    off[i] = pos;
    pos += len[i];
  }
  size_t shoff = (pos + 7) & ~(size_t)7;
  *size = shoff + NUM_SECTIONS * sizeof(Elf64_Shdr);
  unsigned char *obj = calloc(1, *size);
  if (!obj) {
    perror(prog);
    exit(1);
  }

  Elf64_Ehdr eh;
  memset(&eh, 0, sizeof eh);
  memcpy(eh.e_ident, ELFMAG, SELFMAG);
  eh.e_ident[EI_CLASS] = ELFCLASS64;
  eh.e_ident[EI_DATA] = ELFDATA2LSB;
  eh.e_ident[EI_VERSION] = EV_CURRENT;
  eh.e_ident[EI_OSABI] = ELFOSABI_NONE;
  eh.e_type = ET_REL;
  eh.e_machine = EM_X86_64;
  eh.e_version = EV_CURRENT;
  eh.e_shoff = shoff;
  eh.e_ehsize = sizeof(Elf64_Ehdr);
  eh.e_shentsize = sizeof(Elf64_Shdr);
  eh.e_shnum = NUM_SECTIONS;
  eh.e_shstrndx = SEC_SHSTRTAB;
  memcpy(obj, &eh, sizeof eh);

  Elf64_Shdr sh[NUM_SECTIONS];
  memset(sh, 0, sizeof sh);
  sh[SEC_GROUP] = (Elf64_Shdr){.sh_name = shstr(".group"),
                               .sh_type = SHT_GROUP,
                               .sh_link = SEC_SYMTAB,
                               .sh_info = 1, /* the signature symbol */
                               .sh_addralign = 4,
                               .sh_entsize = sizeof(Elf32_Word)};
  sh[SEC_DATA] = (Elf64_Shdr){.sh_name = shstr(".rodata." DIR_SYMBOL),
                              .sh_type = SHT_PROGBITS,
                              .sh_flags = SHF_ALLOC | SHF_GROUP,
                              .sh_addralign = 1};
  sh[SEC_NOTE] = (Elf64_Shdr){.sh_name = shstr(".note.GNU-stack"),
                              .sh_type = SHT_PROGBITS,
                              .sh_addralign = 1};
  sh[SEC_SYMTAB] = (Elf64_Shdr){.sh_name = shstr(".symtab"),
                                .sh_type = SHT_SYMTAB,
                                .sh_link = SEC_STRTAB,
                                .sh_info = 1, /* locals: the null symbol */
                                .sh_addralign = 8,
                                .sh_entsize = sizeof(Elf64_Sym)};
  sh[SEC_STRTAB] = (Elf64_Shdr){.sh_name = shstr(".strtab"),
                                .sh_type = SHT_STRTAB,
                                .sh_addralign = 1};
  sh[SEC_SHSTRTAB] = (Elf64_Shdr){.sh_name = shstr(".shstrtab"),
                                  .sh_type = SHT_STRTAB,
                                  .sh_addralign = 1};
  for (int i = 1; i < NUM_SECTIONS; i++) {
    sh[i].sh_offset = off[i];
    sh[i].sh_size = len[i];
    memcpy(obj + off[i], data[i], len[i]);
  }
  memcpy(obj + shoff, sh, sizeof sh);
  return obj;
}

/* Writes the object for DIR to a new temporary file; returns its name. */
static char *write_dir_object(const char *dir) {
  const char *tmpdir = getenv("TMPDIR");
  if (!tmpdir || !*tmpdir)
    tmpdir = "/tmp";
  char *path = concat(tmpdir, "/heapprof-dir-XXXXXX", ".o");
  int fd = mkstemps(path, 2);
  if (fd < 0) {
    fprintf(stderr, "%s: error: cannot create a temporary file in '%s': %s\n",
            prog, tmpdir, strerror(errno));
    exit(1);
  }
  size_t size;
  unsigned char *obj = dir_object(dir, &size);
  for (size_t done = 0; done < size;) {
    ssize_t n = write(fd, obj + done, size - done);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0) {
      fprintf(stderr, "%s: error: cannot write '%s': %s\n", prog, path,
              strerror(n < 0 ? errno : ENOSPC));
      unlink(path);
      exit(1);
    }
    done += (size_t)n;
  }
  if (close(fd) != 0) {
    fprintf(stderr, "%s: error: cannot write '%s': %s\n", prog, path,
            strerror(errno));
    unlink(path);
    exit(1);
  }
  free(obj);
  return path;
}

/* Runs the compiler as a child, removes the temporary file, and exits as
 * the child did.  The signals that end a build are held off meanwhile (the
 * child, in the same process group, gets them too), so the file is removed
 * before this process dies of one. */
static void run_and_remove(const char *clang, const char **out,
                           const char *tmp) {
  sigset_t stop, old;
  sigemptyset(&stop);
  sigaddset(&stop, SIGINT);
  sigaddset(&stop, SIGTERM);
  sigaddset(&stop, SIGHUP);
  sigaddset(&stop, SIGQUIT);
  sigprocmask(SIG_BLOCK, &stop, &old);
  pid_t pid = fork();
  if (pid == 0) {
    sigprocmask(SIG_SETMASK, &old, NULL);
    execvp(clang, (char *const *)out);
    fprintf(stderr, "%s: error: cannot run '%s': %s\n", prog, clang,
            strerror(errno));
    _exit(1);
  }
  int status = 0;
  int err = pid < 0 ? errno : 0;
  while (pid > 0 && waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) {
      err = errno;
      break;
    }
  }
  unlink(tmp);
  if (err) {
    fprintf(stderr, "%s: error: cannot run '%s': %s\n", prog, clang,
            strerror(err));
    exit(1);
  }
  if (WIFSIGNALED(status)) {
    int sig = WTERMSIG(status);
    signal(sig, SIG_DFL);
    sigprocmask(SIG_SETMASK, &old, NULL);
    raise(sig);
    exit(128 + sig);
  }
  /* A held-off signal that came meanwhile ends this process now. */
  sigprocmask(SIG_SETMASK, &old, NULL);
  exit(WIFEXITED(status) ? WEXITSTATUS(status) : 1);
}

int main(int argc, char **argv) {
  const char *base = argc > 0 ? strrchr(argv[0], '/') : NULL;
  prog = base ? base + 1 : (argc > 0 ? argv[0] : prog);
  int is_cxx = strstr(prog, "++") != NULL;

  const char *clang = getenv(is_cxx ? "HEAPPROF_CLANGXX" : "HEAPPROF_CLANG");
  if (!clang || !*clang)
    clang = is_cxx ? DEFAULT_CLANGXX : DEFAULT_CLANG;

  struct scan s = {0};
  /* drop[i]: argv[i] is a heapprof flag; dashdash: index of "--" or argc. */
  char *drop = calloc((size_t)argc + 1, 1);
  if (!drop) {
    perror(prog);
    return 1;
  }
  int dashdash = argc;
  for (int i = 1; i < argc; i++) {
    int was_inputs_only = s.inputs_only;
    drop[i] = (char)scan_arg(&s, argv[i], NULL, 0);
    if (!was_inputs_only && s.inputs_only && dashdash == argc)
      dashdash = i;
  }
  if (s.heapprof_in_rsp) {
    fprintf(stderr,
            "%s: error: -fheapprof/-fno-heapprof in response file '%s' is not "
            "supported; give it on the command line\n",
            prog, s.heapprof_in_rsp);
    return 1;
  }

  if (s.enabled && s.conflicts) {
    int i = __builtin_ctz(s.conflicts);
    fprintf(stderr,
            "%s: error: -fheapprof cannot be combined with %s%s: its "
            "runtime replaces malloc too, and the two cannot share a "
            "process\n",
            prog, i == NUM_CONFLICTING - 1 ? "" : "-fsanitize=",
            conflicting[i]);
    return 1;
  }
  /* The pass's shadow mapping and the runtime are x86-64 Linux's: another
   * target compiled, then failed to link with a screen of "skipping
   * incompatible" lines, or linked objects that the runtime cannot serve. */
  if (s.enabled && s.has_inputs) {
    const char *t = s.target;
    int x86 = !t || strncmp(t, "x86_64", 6) == 0 || strncmp(t, "amd64", 5) == 0;
    int i386 = t && t[0] == 'i' && t[1] >= '3' && t[1] <= '6' &&
               strncmp(t + 2, "86", 2) == 0;
    int linux_os = !t || strstr(t, "linux") != NULL;
    /* x32 (x86_64-linux-gnux32): 32-bit pointers, as -mx32. */
    int x32 = t && strstr(t, "x32") != NULL;
    int bits = s.word_bits ? s.word_bits : (x86 && !x32 ? 64 : 32);
    if (!linux_os || !(x86 || i386) || bits != 64) {
      fprintf(stderr,
              "%s: error: -fheapprof supports x86-64 Linux only; the target "
              "is %s%s%s\n",
              prog, t ? t : "x86-64", s.word_bits == 32 ? " with " : "",
              s.word_bits == 32 ? s.bits_flag : "");
      return 1;
    }
  }
  /* Only headers: clang precompiles them and links nothing. */
  if (s.has_inputs && !s.non_header)
    s.no_link = 1;
  if (s.enabled && s.has_inputs && s.no_libc && !s.no_link && !s.shared) {
    fprintf(stderr,
            "%s: error: -fheapprof cannot link with %s: heapprof's runtime "
            "needs the C library and its start files; link without it\n",
            prog, s.no_libc);
    return 1;
  }
  if (s.enabled && s.has_inputs && s.is_static && !s.no_link && !s.shared) {
    fprintf(stderr,
            "%s: error: -fheapprof cannot link with %s: heapprof's "
            "runtime replaces malloc, which a static C library defines too; "
            "link dynamically\n",
            prog, s.is_static);
    return 1;
  }

  const char *added[MAX_ADDED_ARGS];
  int n_added = 0;
  const char *pre = NULL; /* added before the user's arguments */
  const char *build_id = NULL; /* likewise, for a link */
  char *dir_obj = NULL;    /* the generated object for a link's DIR */
  if (s.enabled && s.has_inputs) {
    char *prefix = find_prefix(argv[0]);
    char *libdir = concat(prefix, "/lib/heapprof", "");
    char *plugin = concat(libdir, "/", PLUGIN_NAME);
    if (access(plugin, R_OK) != 0) {
      fprintf(stderr, "%s: error: cannot read the pass plugin '%s': %s\n",
              prog, plugin, strerror(errno));
      return 1;
    }
    /* Compile flags, unless every input is .s or for the linker and one
     * is .s: clang warns that an assembler job leaves them unused (and a
     * -Werror build failed); a link-only command takes them silently. */
    if (s.compiled_inputs || !s.asm_inputs) {
      /* -fpass-plugin= runs the pass; -load also registers its -heapprof-*
       * options, which LLVM 19 only does for a plugin loaded that way. */
      added[n_added++] = concat("-fpass-plugin=", plugin, "");
      added[n_added++] = "-Xclang";
      added[n_added++] = "-load";
      added[n_added++] = "-Xclang";
      added[n_added++] = plugin;
      /* The runtime's stack walk follows each frame's CFI; a frame with a
       * frame pointer takes its quickest step (docs/design.md). */
      added[n_added++] = "-fno-omit-frame-pointer";
      added[n_added++] = "-mno-omit-leaf-frame-pointer";
      added[n_added++] = "-fno-optimize-sibling-calls";
      /* Symbolization and llvm-profdata need line tables and the
       * profiling-grade discriminators; a user's -g level wins (and comes
       * later anyway, as this one goes first). */
      if (!s.user_debug_level)
        pre = "-gline-tables-only";
      added[n_added++] = "-fdebug-info-for-profiling";
      /* #include <heapprof/heapprof_interface.h> without a -I; after the
       * system directories, so that a <prefix> of /usr cannot reorder them.
       * Not when every compiled input skips the preprocessor (.i, .ll:
       * distcc's way): clang warned it unused, and -Werror failed. */
      if (s.cpp_inputs || !s.compiled_inputs) {
        added[n_added++] = "-idirafter";
        added[n_added++] = concat(prefix, "/include", "");
      }
      /* Through -Xclang, so that only compile jobs see it: a link-only
       * command gets no "argument unused" warning, and an LTO link does not
       * hand the plugin's option to a linker that has no plugin loaded. */
      if (s.dir) {
        added[n_added++] = "-Xclang";
        added[n_added++] = "-mllvm";
        added[n_added++] = "-Xclang";
        added[n_added++] = concat("-heapprof-profile-dir=", s.dir, "");
      }
    }
    if (!s.no_link) {
      /* A shared object gets no runtime of its own (as with clang's static
       * sanitizer runtimes): its __heapprof_* references bind at load time
       * to the executable, which exports them through the dynamic list. */
      if (!s.shared) {
        char *rt = concat(libdir, "/", RT_ARCHIVE);
        /* The link step's DIR decides the program's (see the top). */
        if (s.dir)
          dir_obj = write_dir_object(s.dir);
        /* After the user's -x LANG, clang would compile the archives as
         * LANG sources. */
        if (s.lang) {
          added[n_added++] = "-x";
          added[n_added++] = "none";
        }
        if (is_cxx) {
          added[n_added++] = "-Wl,--whole-archive";
          added[n_added++] = concat(libdir, "/", CXX_ARCHIVE);
          added[n_added++] = "-Wl,--no-whole-archive";
        }
        added[n_added++] = "-Wl,--whole-archive";
        added[n_added++] = rt;
        added[n_added++] = "-Wl,--no-whole-archive";
        added[n_added++] = concat("-Wl,--dynamic-list=", rt, ".syms");
        added[n_added++] = "-lpthread";
        added[n_added++] = "-ldl";
        added[n_added++] = "-lm";
        if (s.lang && dashdash < argc) {
          added[n_added++] = "-x"; /* for the inputs after "--" */
          added[n_added++] = s.lang;
        }
      }
      /* Before the user's arguments, so that a -Wl,--build-id=STYLE of
       * theirs wins (profiles name modules by build id, else by path). */
      build_id = "-Wl,--build-id";
    }
  }

  const char **out = malloc(((size_t)argc + MAX_ADDED_ARGS + 3) * sizeof *out);
  if (!out) {
    perror(prog);
    return 1;
  }
  int n = 0;
  out[n++] = clang;
  if (pre)
    out[n++] = pre;
  if (build_id)
    out[n++] = build_id;
  if (dir_obj)
    out[n++] = dir_obj;
  for (int i = 1; i < dashdash; i++)
    if (!drop[i])
      out[n++] = argv[i];
  for (int i = 0; i < n_added; i++)
    out[n++] = added[i];
  for (int i = dashdash; i < argc; i++)
    out[n++] = argv[i];
  out[n] = NULL;

  if (dir_obj)
    run_and_remove(clang, out, dir_obj);
  execvp(clang, (char *const *)out);
  fprintf(stderr, "%s: error: cannot run '%s': %s\n", prog, clang,
          strerror(errno));
  return 1;
}
