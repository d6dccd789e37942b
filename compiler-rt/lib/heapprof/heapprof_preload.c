/*===- heapprof_preload.c - what only the preloaded runtime needs -------===
 *
 * Part of heapprof; built only into libheapprof_rt.so, the runtime that
 * `heapprof run` preloads into a program that was not rebuilt (docs/run.md).
 *
 * The environment.  heapprof run starts the program with
 *   LD_PRELOAD=<this library>[:<the caller's LD_PRELOAD>]
 *   HEAPPROF_OPTIONS=<the caller's options>:profile_dir=DIR   (with -o DIR)
 *   HEAPPROF_RUN=1, or HEAPPROF_RUN=follow-exec
 *   HEAPPROF_RUN_SAVED_<VAR>=<VAR>=<the caller's value>  for each of the two
 *     variables the caller had set
 * Once the options are read (a constructor, before the program's main and
 * before any of its own constructors that run after this library's), the
 * program gets back the environment its caller gave it: the two variables
 * as they were (or absent) and no HEAPPROF_RUN*.  So its children run
 * without the profiler and see what they would have seen without heapprof.
 * HEAPPROF_RUN=follow-exec leaves everything in place: children that exec
 * load the runtime too and write their own profiles.  The edit is done on
 * environ's array in place (entries pointed at the saved strings, or
 * removed by moving the rest down), without allocating.
 *
 * C++.  The library has no libstdc++ dependency (a C program must not load
 * one: its start-up allocations would be profiled).  operator new's throw
 * takes libstdc++'s own std::__throw_bad_alloc, found when it is needed;
 * only a C++ program, which has libstdc++ loaded, calls operator new.
 *
 * A program that has the static runtime itself (built with -fheapprof)
 * exports __heapprof_* and the allocation functions from the executable:
 * they preempt this library's, so its runtime is the only one that runs.
 *===----------------------------------------------------------------------===*/
#include "heapprof_internal.h"

#include <dlfcn.h>
#include <link.h>

extern char **environ;

/* The entry of environ that defines name (NAME=...), or -1. */
static long env_index(const char *name, size_t n) {
  for (long i = 0; environ[i]; i++)
    if (!hp_strncmp(environ[i], name, n) && environ[i][n] == '=')
      return i;
  return -1;
}

static void env_remove(long i) {
  for (; environ[i]; i++)
    environ[i] = environ[i + 1];
}

static const char *const restored_vars[] = {"LD_PRELOAD", "HEAPPROF_OPTIONS"};
#define SAVED_PREFIX "HEAPPROF_RUN_SAVED_"

/* What heapprof run gave this image, kept for an exec
 * (hp_preload_exec_env).  Set by the constructor, before the restore when
 * HEAPPROF_RUN=1 (restoring), as found with HEAPPROF_RUN=follow-exec
 * (following); read-only afterwards.  Per variable: its value as heapprof
 * run set it, and the caller's value (HEAPPROF_RUN_SAVED_<VAR>), each NULL
 * when absent.  Copies (in given_buf, or a mapping when they do not fit),
 * not the strings where the kernel put them: a server that sets its
 * process title (nginx's ngx_setproctitle, PostgreSQL's ps_status) moves
 * its environment elsewhere and writes the title over that area, and an
 * exec then got heapprof run's variables from the title, or none
 * (test/heapprof/Run/follow-exec-own-environ.c). */
static struct {
  bool restoring, following;
  const char *set[2], *caller[2];
} given;
static char given_buf[4096];

/* The value of name in envp (NAME=value), or NULL. */
static const char *value_in(char *const *envp, const char *name) {
  size_t n = hp_strlen(name);
  for (u32 i = 0; envp && envp[i]; i++)
    if (!hp_strncmp(envp[i], name, n) && envp[i][n] == '=')
      return envp[i] + n + 1;
  return NULL;
}

static void remember_given(void) {
  for (u32 v = 0; v < HP_ARRAY_SIZE(restored_vars); v++) {
    char saved_name[64];
    hp_snprintf(saved_name, sizeof(saved_name), SAVED_PREFIX "%s",
                restored_vars[v]);
    given.set[v] = value_in(environ, restored_vars[v]);
    const char *c = value_in(environ, saved_name); /* "VAR=value" */
    size_t n = hp_strlen(restored_vars[v]);
    given.caller[v] = c && !hp_strncmp(c, restored_vars[v], n) && c[n] == '='
                          ? c + n + 1
                          : NULL;
  }
  /* Copied out of the environment's strings (above): all four in one
   * buffer; if no page can be had for a long one, they stay where they
   * are. */
  const char **str[] = {&given.set[0], &given.set[1], &given.caller[0],
                        &given.caller[1]};
  uptr bytes = 0;
  for (u32 i = 0; i < HP_ARRAY_SIZE(str); i++)
    bytes += *str[i] ? hp_strlen(*str[i]) + 1 : 0;
  char *buf = given_buf;
  if (bytes > sizeof(given_buf) &&
      !(buf = hp_mmap(HP_ROUND_UP(bytes, HP_PAGE_SIZE))))
    return;
  for (u32 i = 0; i < HP_ARRAY_SIZE(str); i++) {
    if (!*str[i])
      continue;
    uptr n = hp_strlen(*str[i]) + 1;
    hp_memcpy(buf, *str[i], n);
    *str[i] = buf;
    buf += n;
  }
}

static void restore_environment(void) {
  if (!environ)
    return;
  long run = env_index("HEAPPROF_RUN", 12);
  if (run < 0)
    return;
  remember_given();
  if (!hp_strcmp(environ[run] + 13, "follow-exec")) {
    given.following = true;
    return;
  }
  given.restoring = true;
  for (u32 v = 0; v < HP_ARRAY_SIZE(restored_vars); v++) {
    char saved_name[64];
    const char *var = restored_vars[v];
    size_t n = hp_strlen(var);
    hp_snprintf(saved_name, sizeof(saved_name), SAVED_PREFIX "%s", var);
    long s = env_index(saved_name, hp_strlen(saved_name));
    long i = env_index(var, n);
    /* The saved value is "VAR=value": the entry itself. */
    const char *saved =
        s >= 0 ? environ[s] + hp_strlen(saved_name) + 1 : NULL;
    if (saved && (hp_strncmp(saved, var, n) || saved[n] != '='))
      saved = NULL; /* not heapprof run's format: leave VAR alone */
    if (i >= 0 && saved)
      environ[i] = (char *)saved;
    else if (i >= 0 && s < 0)
      env_remove(i);
  }
  long i;
  while ((i = env_index("HEAPPROF_RUN", 12)) >= 0)
    env_remove(i);
  for (u32 v = 0; v < HP_ARRAY_SIZE(restored_vars); v++) {
    char saved_name[64];
    hp_snprintf(saved_name, sizeof(saved_name), SAVED_PREFIX "%s",
                restored_vars[v]);
    while ((i = env_index(saved_name, hp_strlen(saved_name))) >= 0)
      env_remove(i);
  }
}

/* --------------------------------------------------------------- exec */

/* heapprof run's part of a variable: LD_PRELOAD is set to "OURS:CALLER's",
 * HEAPPROF_OPTIONS to "CALLER's:OURS" (cmd_run.cpp); *len its length. */
static const char *our_part(u32 v, size_t *len) {
  const char *set = given.set[v], *caller = given.caller[v];
  if (!set) {
    *len = 0;
    return "";
  }
  size_t n = hp_strlen(set), c = caller ? hp_strlen(caller) : 0;
  /* The caller's value empty (LD_PRELOAD= set but empty): heapprof run
   * joins nothing to it, so the whole value is ours.  Taken for "changed
   * since", an exec of the program's own lost the runtime (and -o's
   * profile_dir) and its new image ran unprofiled. */
  if (caller && !c) {
    *len = n;
    return set;
  }
  if (caller && v == 0 && n > c && set[n - c - 1] == ':' &&
      !hp_strcmp(set + n - c, caller)) {
    *len = n - c - 1;
    return set;
  }
  if (caller && v == 1 && n > c && set[c] == ':' &&
      !hp_strncmp(set, caller, c)) {
    *len = n - c - 1;
    return set + c + 1;
  }
  if (caller) { /* changed since: nothing of ours to tell apart */
    *len = 0;
    return "";
  }
  *len = n;
  return set;
}

static char *put(char *p, const char *s, size_t n) {
  hp_memcpy(p, s, n);
  return p + n;
}

/* LD_PRELOAD's value t begins with our part (o, ol bytes; not empty) as a
 * whole entry. */
static bool starts_with_ours(const char *t, const char *o, size_t ol) {
  return ol && !hp_strncmp(t, o, ol) && (t[ol] == 0 || t[ol] == ':');
}

/* envp for a new image that is not to be followed: under a limit that its
 * runtime's reservations would exceed (hp_limits_refuse_start), it could
 * only abort the program, which runs without heapprof instead.  Restoring,
 * envp is the program's own: as it is.  Following, heapprof run's part of
 * LD_PRELOAD and HEAPPROF_OPTIONS comes out and HEAPPROF_RUN* go; what the
 * program or the caller put there stays. */
static char *const *unfollowed_env(char *const *envp, void *buf,
                                   uptr *bytes_out) {
  if (!given.following)
    return envp;
  u32 n = 0;
  uptr bytes = 64;
  for (; envp && envp[n]; n++)
    if (!hp_strncmp(envp[n], "LD_PRELOAD=", 11) ||
        !hp_strncmp(envp[n], "HEAPPROF_OPTIONS=", 17))
      bytes += hp_strlen(envp[n]) + 1;
  bytes = HP_ROUND_UP(bytes + (n + 1) * sizeof(char *), 16);
  if (!buf || *bytes_out < bytes) {
    *bytes_out = bytes;
    return NULL;
  }
  char **out = buf;
  char *str = (char *)(out + n + 1);
  u32 k = 0;
  for (u32 i = 0; i < n; i++) {
    const char *e = envp[i];
    if (!hp_strncmp(e, "HEAPPROF_RUN", 12))
      continue;
    size_t ol;
    if (!hp_strncmp(e, "LD_PRELOAD=", 11)) { /* OURS[:THEIRS] */
      const char *o = our_part(0, &ol), *t = e + 11;
      if (starts_with_ours(t, o, ol)) {
        const char *rest = t + ol + (t[ol] == ':');
        if (!*rest)
          continue;
        out[k++] = str;
        str = put(str, "LD_PRELOAD=", 11);
        str = put(str, rest, hp_strlen(rest) + 1);
        continue;
      }
    } else if (!hp_strncmp(e, "HEAPPROF_OPTIONS=", 17)) { /* [THEIRS:]OURS */
      const char *o = our_part(1, &ol), *t = e + 17;
      size_t tn = hp_strlen(t);
      if (ol && tn >= ol && !hp_strcmp(t + tn - ol, o) &&
          (tn == ol || t[tn - ol - 1] == ':')) {
        if (tn == ol)
          continue;
        out[k++] = str;
        str = put(str, e, 17 + tn - ol - 1);
        *str++ = 0;
        continue;
      }
    }
    out[k++] = (char *)e;
  }
  out[k] = NULL;
  return out;
}

/* Under heapprof run without --follow-exec, an exec by the image's own
 * process passes on envp (the program's choice) with heapprof run's
 * variables added again the way heapprof run adds them: our part of
 * LD_PRELOAD and HEAPPROF_OPTIONS joined to envp's values, those values
 * saved in HEAPPROF_RUN_SAVED_<VAR>, HEAPPROF_RUN=1.  The new image's
 * runtime then restores envp's values for its own children.
 *
 * With --follow-exec (heapprof_exec.c calls this for fork children too)
 * an envp whose LD_PRELOAD already starts with our part is passed as it
 * is: the program passed its environment on.  One without it (`env -i`,
 * an exec with an environment of the program's making) gets the same
 * additions, with HEAPPROF_RUN=follow-exec: every exec is followed. */
char *const *hp_preload_exec_env(char *const *envp, void *buf,
                                 uptr *bytes_out) {
  if (!given.restoring && !given.following)
    return envp;
  if (hp_limits_refuse_start())
    return unfollowed_env(envp, buf, bytes_out);
  if (given.following) {
    size_t ol;
    const char *o = our_part(0, &ol);
    const char *t = value_in(envp, "LD_PRELOAD");
    if (!ol || (t && starts_with_ours(t, o, ol)))
      return envp;
  }
  u32 n = 0;
  uptr bytes = 64;
  for (; envp && envp[n]; n++)
    ;
  const char *ours[2], *theirs[2];
  size_t our_len[2];
  for (u32 v = 0; v < 2; v++) {
    ours[v] = our_part(v, &our_len[v]);
    theirs[v] = value_in(envp, restored_vars[v]);
    size_t t = theirs[v] ? hp_strlen(theirs[v]) : 0;
    /* VAR=OURS:THEIRS and HEAPPROF_RUN_SAVED_VAR=VAR=THEIRS */
    bytes += 3 * hp_strlen(restored_vars[v]) + 2 * t + our_len[v] +
             hp_strlen(SAVED_PREFIX) + 8;
  }
  bytes += (n + 8) * sizeof(char *);
  bytes = HP_ROUND_UP(bytes, 16);
  if (!buf || *bytes_out < bytes) {
    *bytes_out = bytes;
    return NULL;
  }
  char **out = buf;
  char *str = (char *)(out + n + 8);
  u32 k = 0;
  for (u32 i = 0; i < n; i++) {
    const char *e = envp[i];
    if (!hp_strncmp(e, "HEAPPROF_RUN", 12) ||
        (!hp_strncmp(e, "LD_PRELOAD", 10) && e[10] == '=') ||
        (!hp_strncmp(e, "HEAPPROF_OPTIONS", 16) && e[16] == '='))
      continue;
    out[k++] = (char *)e;
  }
  for (u32 v = 0; v < 2; v++) {
    const char *var = restored_vars[v];
    size_t vn = hp_strlen(var), t = theirs[v] ? hp_strlen(theirs[v]) : 0;
    if (!our_len[v] && !theirs[v])
      continue;
    out[k++] = str;
    str = put(str, var, vn);
    *str++ = '=';
    if (v == 0) { /* LD_PRELOAD=OURS[:THEIRS] */
      str = put(str, ours[v], our_len[v]);
      if (our_len[v] && t)
        *str++ = ':';
      str = put(str, theirs[v] ? theirs[v] : "", t);
    } else { /* HEAPPROF_OPTIONS=[THEIRS:]OURS */
      str = put(str, theirs[v] ? theirs[v] : "", t);
      if (our_len[v] && t)
        *str++ = ':';
      str = put(str, ours[v], our_len[v]);
    }
    *str++ = 0;
    if (theirs[v]) {
      out[k++] = str;
      str = put(str, SAVED_PREFIX, hp_strlen(SAVED_PREFIX));
      str = put(str, var, vn);
      *str++ = '=';
      str = put(str, var, vn);
      *str++ = '=';
      str = put(str, theirs[v], t);
      *str++ = 0;
    }
  }
  out[k++] = given.following ? "HEAPPROF_RUN=follow-exec" : "HEAPPROF_RUN=1";
  out[k] = NULL;
  return out;
}

bool hp_preload_active(void) { return given.restoring || given.following; }

void *__heapprof_run_next_definition(const char *name) {
  return dlsym(RTLD_NEXT, name);
}

char *const *__heapprof_run_exec_environment(char *const *envp, void *buf,
                                             uptr *bytes) {
  return hp_preload_exec_env(envp, buf, bytes);
}

/* An allocator linked into the executable (Chromium's PartitionAlloc)
 * takes every malloc before this library could: heapprof run refuses such
 * a program, but an image that a followed program execs (a wrapper
 * script's exec) gets here, and would write an empty profile unexplained.
 * Not when the executable has heapprof's runtime itself: then this copy
 * never initialised. */
static void warn_if_malloc_elsewhere(void) {
  if (!hp_rtl.inited)
    return;
  Dl_info m, self;
  const ElfW(Sym) *sym = NULL;
  void *p = dlsym(RTLD_DEFAULT, "malloc");
  /* A non-PIE executable that takes malloc's address (node) has a
   * canonical PLT entry: an undefined symbol with a value, which dlsym
   * returns. Its calls still reach this library; only a definition takes
   * them. */
  if (p && dladdr1(p, &m, (void **)&sym, RTLD_DL_SYMENT) &&
      (!sym || sym->st_shndx != SHN_UNDEF) &&
      dladdr((void *)&env_index, &self) && m.dli_fbase != self.dli_fbase)
    hp_printf("HeapProf: WARNING: the program defines malloc itself (%s): "
              "its allocations bind there before heapprof's preloaded "
              "runtime, and its profile holds none of them; rebuild it "
              "with heapprof-clang -fheapprof, or without its own "
              "allocator%s\n",
              /* The executable run as /proc/self/exe: its file. */
              !m.dli_fname || !hp_strncmp(m.dli_fname, "/proc/", 6)
                  ? hp_exe_path()
                  : m.dli_fname,
              /* rustc, which links jemalloc, run through rustup's proxy:
               * what it runs (the linker) can still be had. */
              given.following ? ""
                              : " (heapprof run --follow-exec profiles the "
                                "programs it runs)");
}

/* After heapprof_rtl.c's constructor (101): the options are read. */
__attribute__((constructor(102))) static void heapprof_preload_ctor(void) {
  /* The executable's own runtime, if it has one (preempts this one). */
  hp_rtl_init();
  restore_environment();
  warn_if_malloc_elsewhere();
}

/* ------------------------------------------------------------------ C++ */

typedef void (*new_handler_t)(void);

HP_NORETURN void hp_throw_bad_alloc(void) {
  void (*thrower)(void) =
      (void (*)(void))dlsym(RTLD_DEFAULT, "_ZSt17__throw_bad_allocv");
  HP_CHECK(thrower && "operator new without libstdc++ loaded");
  thrower();
  __builtin_unreachable();
}

/* A nothrow new's new_handler.  C cannot catch: a handler that throws
 * std::bad_alloc here propagates out of the nothrow new instead of making
 * it return NULL (docs/run.md lists this difference). */
bool hp_call_new_handler_nothrow(new_handler_t handler) {
  handler();
  return true;
}
