/*===- heapprof_symbolize.c - PCs to functions and lines ----------------===
 *
 * Part of heapprof.  Runs `llvm-symbolizer --inlining --demangle` with
 * "CODE <module> 0x<offset>" lines on stdin; each answer is pairs of
 * "function" / "file:line:column" lines ending with an empty line.
 *===----------------------------------------------------------------------===*/
#include "heapprof_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

static void sift_down(uptr *a, u32 root, u32 end) {
  for (;;) {
    u32 child = 2 * root + 1;
    if (child >= end)
      return;
    if (child + 1 < end && a[child] < a[child + 1])
      child++;
    if (a[root] >= a[child])
      return;
    uptr t = a[root];
    a[root] = a[child];
    a[child] = t;
    root = child;
  }
}

void hp_sort_uptr(uptr *a, u32 n) {
  /* Heap sort: no recursion, no allocation. */
  for (u32 start = n / 2; start-- > 0;)
    sift_down(a, start, n);
  for (u32 end = n; end-- > 1;) {
    uptr t = a[0];
    a[0] = a[end];
    a[end] = t;
    sift_down(a, 0, end);
  }
}

static bool executable(const char *p) { return access(p, X_OK) == 0; }

/* Finds llvm-symbolizer: the flag, else PATH, else LLVM 19's directory. */
static bool find_symbolizer(char *out, size_t size) {
  if (hp_flags.symbolizer_path[0]) {
    hp_strlcpy(out, hp_flags.symbolizer_path, size);
    return executable(out);
  }
  static const char *const names[] = {"llvm-symbolizer-19", "llvm-symbolizer"};
  const char *path = hp_getenv("PATH");
  for (u32 i = 0; i < HP_ARRAY_SIZE(names) && path; i++) {
    for (const char *p = path; *p;) {
      const char *e = hp_strchr(p, ':');
      size_t len = e ? (size_t)(e - p) : hp_strlen(p);
      if (len && len + hp_strlen(names[i]) + 2 < size) {
        hp_memcpy(out, p, len);
        out[len] = '/';
        hp_strlcpy(out + len + 1, names[i], size - len - 1);
        if (executable(out))
          return true;
      }
      p += len + (e ? 1 : 0);
    }
  }
  hp_strlcpy(out, "/usr/lib/llvm-19/bin/llvm-symbolizer", size);
  return executable(out);
}

static u32 find_pc(const hp_symbols_t *s, uptr pc) {
  u32 lo = 0, hi = s->n;
  while (lo < hi) {
    u32 mid = (lo + hi) / 2;
    if (s->pcs[mid] < pc)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < s->n && s->pcs[lo] == pc ? lo : UINT32_MAX;
}

/* Runs the symbolizer on in_fd, output to out_fd.  false on failure.
 * vfork (not fork): no atfork handlers run -- the caller holds the profile
 * lock they take -- and no copy of a big heap's page tables.  Not
 * posix_spawn with file actions: those malloc (the action list, a strdup of
 * "/dev/null"), and the runtime's own allocations would show up as program
 * contexts in the next profile.  The child only makes system calls. */
static bool run_symbolizer(const char *exe, int in_fd, int out_fd) {
  /* The symbolizer must not be profiled itself if heapprof was preloaded. */
  char *envp[256];
  u32 n = 0;
  for (char **e = environ; e && *e && n < HP_ARRAY_SIZE(envp) - 1; e++)
    if (hp_strncmp(*e, "LD_PRELOAD=", 11) &&
        hp_strncmp(*e, "HEAPPROF_OPTIONS=", 17))
      envp[n++] = *e;
  envp[n] = NULL;
  char *argv[] = {(char *)exe, "--inlining", "--demangle",
                  "--output-style=LLVM", NULL};
  pid_t pid = vfork();
  if (pid < 0)
    return false;
  if (pid == 0) {
    dup2(in_fd, 0);
    dup2(out_fd, 1);
    int devnull = open("/dev/null", O_WRONLY);
    if (devnull >= 0)
      dup2(devnull, 2);
    execve(exe, argv, envp);
    _exit(127);
  }
  int status;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR)
      return false;
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

void hp_symbolize(const uptr *pcs_in, u32 n_in, const hp_procmap_t *map,
                  hp_symbols_t *out) {
  hp_memset(out, 0, sizeof(*out));
  if (!n_in)
    return;
  out->cap = n_in;
  out->pcs = hp_mmap_or_die(n_in * sizeof(uptr), "symbolizer");
  hp_memcpy(out->pcs, pcs_in, n_in * sizeof(uptr));
  hp_sort_uptr(out->pcs, n_in);
  u32 n = 0;
  for (u32 i = 0; i < n_in; i++)
    if (!n || out->pcs[n - 1] != out->pcs[i])
      out->pcs[n++] = out->pcs[i];
  out->n = n;
  out->offs = hp_mmap_or_die((n + 1) * sizeof(u32), "symbolizer");
  for (u32 i = 0; i < n; i++)
    out->offs[i] = UINT32_MAX;
  char exe[1024];
  /* Secure mode: no program of the caller's choosing (PATH,
   * symbolizer_path) runs with the process's privileges; the text profile
   * and reports show module+offset frames instead. */
  if (!hp_flags.symbolize || hp_secure_mode() ||
      !find_symbolizer(exe, sizeof(exe)))
    return;
  int in_fd = memfd_create("heapprof-sym-in", 0);
  int out_fd = memfd_create("heapprof-sym-out", 0);
  if (in_fd < 0 || out_fd < 0)
    goto done;
  {
    hp_buf_t in = {0};
    /* Inputs the symbolizer can't use (no module) still get a line, so the
     * answers stay in step with pcs. */
    for (u32 i = 0; i < n; i++) {
      const hp_module_t *m = hp_procmap_find(map, out->pcs[i]);
      if (m && m->path[0] && m->path[0] == '/')
        hp_buf_printf(&in, "CODE \"%s\" 0x%zx\n", m->path,
                      (size_t)(out->pcs[i] - m->bias));
      else
        hp_buf_printf(&in, "CODE \"/nonexistent\" 0x0\n");
    }
    bool wrote = !in.failed && hp_write_all(in_fd, in.data, in.len);
    hp_buf_free(&in);
    if (!wrote)
      goto done;
  }
  lseek(in_fd, 0, SEEK_SET);
  if (!run_symbolizer(exe, in_fd, out_fd))
    goto done;
  {
    off_t size = lseek(out_fd, 0, SEEK_END);
    if (size <= 0)
      goto done;
    char *raw = hp_mmap_or_die((size_t)size + 1, "symbolizer");
    ssize_t got = pread(out_fd, raw, (size_t)size, 0);
    if (got == size) {
      raw[size] = 0;
      /* Blocks separated by empty lines, one per input line. */
      char *p = raw;
      for (u32 i = 0; i < n && *p; i++) {
        out->offs[i] = (u32)out->text.len;
        bool any = false;
        while (*p && *p != '\n') {
          char *fn = p;
          char *nl = hp_strchr(p, '\n');
          if (!nl)
            break;
          *nl = 0;
          char *loc = nl + 1;
          char *nl2 = hp_strchr(loc, '\n');
          if (!nl2)
            break;
          *nl2 = 0;
          p = nl2 + 1;
          if (!hp_strcmp(fn, "??") && !hp_strncmp(loc, "??", 2))
            continue;
          if (any)
            hp_buf_append(&out->text, "\n", 1);
          hp_buf_printf(&out->text, "%s %s", fn, loc);
          any = true;
        }
        if (*p == '\n')
          p++;
        if (any)
          hp_buf_append(&out->text, "", 1);
        else
          out->offs[i] = UINT32_MAX;
        if (any)
          out->text.data[out->text.len - 1] = 0;
      }
      out->ok = !out->text.failed;
    }
    hp_munmap(raw, (size_t)size + 1);
  }
done:
  if (in_fd >= 0)
    close(in_fd);
  if (out_fd >= 0)
    close(out_fd);
}

void hp_symbols_free(hp_symbols_t *s) {
  if (s->pcs)
    hp_munmap(s->pcs, s->cap * sizeof(uptr));
  if (s->offs)
    hp_munmap(s->offs, (s->n + 1) * sizeof(u32));
  hp_buf_free(&s->text);
  hp_memset(s, 0, sizeof(*s));
}

void hp_format_stack(hp_buf_t *b, const uptr *pcs, u32 n,
                     const hp_symbols_t *syms, const hp_procmap_t *map) {
  u32 k = 0;
  for (u32 i = 0; i < n; i++) {
    u32 idx = syms ? find_pc(syms, pcs[i]) : UINT32_MAX;
    if (idx != UINT32_MAX && syms->offs[idx] != UINT32_MAX) {
      const char *t = syms->text.data + syms->offs[idx];
      /* One frame per line of the answer (inlined frames first). */
      for (;;) {
        const char *nl = hp_strchr(t, '\n');
        size_t len = nl ? (size_t)(nl - t) : hp_strlen(t);
        hp_buf_printf(b, "    #%u 0x%zx in %.*s\n", k++, (size_t)pcs[i],
                      (int)len, t);
        if (!nl)
          break;
        t = nl + 1;
      }
      continue;
    }
    const hp_module_t *m = map ? hp_procmap_find(map, pcs[i]) : NULL;
    if (m)
      hp_buf_printf(b, "    #%u 0x%zx  (%s+0x%zx)\n", k++, (size_t)pcs[i],
                    m->path, (size_t)(pcs[i] - m->bias));
    else
      hp_buf_printf(b, "    #%u 0x%zx\n", k++, (size_t)pcs[i]);
  }
}

void hp_symbolize_stack_text(hp_buf_t *b, const uptr *pcs, u32 n) {
  hp_procmap_t map;
  hp_procmap_read(&map);
  hp_symbols_t syms;
  hp_symbolize(pcs, n, &map, &syms);
  hp_format_stack(b, pcs, n, &syms, &map);
  hp_symbols_free(&syms);
  hp_procmap_free(&map);
}
