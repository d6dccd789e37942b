/*===- heapprof_symbolize.c - PCs to functions and lines ----------------===
 *
 * Part of heapprof.  Talks to `llvm-symbolizer --inlining --demangle`:
 * "CODE <module> 0x<offset>" lines on its stdin; each answer is pairs of
 * "function" / "file:line:column" lines ending with an empty line.
 *===----------------------------------------------------------------------===*/
#include "heapprof_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
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

/* PATH as the process started with it, noted by hp_symbolize_note_path
 * at init and read-only after: the lookup happens at the first dump or
 * report, when a server may have cleared or replaced its environment
 * (clearenv, PATH=/nonexistent, nginx's environment of its own), and
 * then found no llvm-symbolizer but in the fallback directory
 * (test/heapprof/TestCases/symbolizer_start_path.c).  A PATH longer than
 * this keeps its whole leading directories. */
static char start_path[4096];

void hp_symbolize_note_path(void) {
  const char *path = hp_getenv("PATH");
  if (!path)
    return;
  size_t len = hp_strlen(path);
  if (len >= sizeof(start_path)) {
    len = sizeof(start_path) - 1;
    while (len && path[len] != ':')
      len--;
  }
  hp_memcpy(start_path, path, len);
  start_path[len] = 0;
}

/* Finds llvm-symbolizer: the flag, else the start's PATH, else LLVM 19's
 * directory. */
static bool find_symbolizer(char *out, size_t size) {
  if (hp_flags.symbolizer_path[0]) {
    hp_strlcpy(out, hp_flags.symbolizer_path, size);
    return executable(out);
  }
  static const char *const names[] = {"llvm-symbolizer-19", "llvm-symbolizer"};
  const char *path = start_path;
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

/* ------------------------------------------------- the symbolizer process
 *
 * One llvm-symbolizer serves the whole run: started at the first dump or
 * report that needs it, kept for every later one (a start costs ~0.1 s of
 * loading debug info), started again if it died.  It talks over a socket
 * pair rather than two pipes: send(MSG_NOSIGNAL) to a dead symbolizer is
 * an error, where a write to a pipe would raise SIGPIPE in the program.
 *
 * It is not the program's child: a first vfork child vforks the
 * symbolizer and exits at once, so the symbolizer is re-parented to init
 * (or the nearest subreaper).  A program that waits for all of its
 * children (wait() until ECHILD) or counts SIGCHLDs never sees it.  When
 * the program exits (or a conversation fails) our end of the socket
 * closes; the symbolizer reads end of file and exits, and init reaps it.
 *
 * vfork (not fork): no atfork handlers run -- the caller holds locks they
 * take -- and no copy of a big heap's page tables.  Not posix_spawn with
 * file actions: those malloc (the action list, a strdup of "/dev/null"),
 * and the runtime's own allocations would show up as program contexts in
 * the next profile.  The children only make system calls, with every
 * signal blocked until the symbolizer's handlers are back to default. */

#define HP_SYMBOLIZER_TIMEOUT_MS 30000

/* sym_lock protects the rest: dumps (under the profile lock) and error
 * reports (under the report lock) would otherwise share it at once. */
static hp_spinlock_t sym_lock;
static int sym_fd = -1;    /* our end of the socket; -1: not running */
static hp_fd_id_t sym_id;  /* and what it is: the program may close the
                              descriptor and reuse the number for its own */
static pid_t sym_pid;      /* the symbolizer, to kill it if it hangs */
static bool sym_disabled;  /* could not be started, hung, or died twice in
                              one batch: stop trying */
static volatile pid_t spawned_pid; /* written by the vfork child */
/* Set while this thread holds sym_lock: a deadly signal that arrives then
 * writes its profile unsymbolized instead of waiting for itself. */
static HP_TLS bool in_symbolizer;

static void close_fds_from(int lowest) {
  if (syscall(SYS_close_range, lowest, ~0u, 0) == 0)
    return;
  for (int fd = lowest; fd < 4096; fd++)
    close(fd);
}

/* In the vforked grandchild: becomes the symbolizer or exits. */
HP_NORETURN static void exec_symbolizer(int sock, const char *exe,
                                        char *const *argv, char *const *envp,
                                        const sigset_t *mask) {
  dup2(sock, 0);
  dup2(sock, 1);
  int devnull = open("/dev/null", O_WRONLY);
  if (devnull >= 0 && devnull != 2)
    dup2(devnull, 2);
  /* Nothing of the program's: a pipe it shares with another process must
   * not stay open for as long as the symbolizer lives. */
  close_fds_from(3);
  /* This process has its own handler table (no CLONE_SIGHAND): the
   * program's handlers must not run here before execve. */
  for (int sig = 1; sig < 65; sig++) {
    struct sigaction sa;
    if (hp_real_sigaction(sig, NULL, &sa) == 0 && sa.sa_handler != SIG_DFL &&
        sa.sa_handler != SIG_IGN) {
      sa.sa_handler = SIG_DFL;
      sa.sa_flags = 0;
      hp_real_sigaction(sig, &sa, NULL);
    }
  }
  sigprocmask(SIG_SETMASK, mask, NULL);
  /* The system call: not heapprof's own execve (heapprof_exec.c). */
  syscall(SYS_execve, exe, argv, envp);
  hp_exit_group(127);
}

static bool sym_start(void) {
  char exe[1024];
  if (!find_symbolizer(exe, sizeof(exe)))
    return false;
  /* The symbolizer must not be profiled itself if heapprof was preloaded. */
  char *envp[256];
  u32 n = 0;
  for (char **e = environ; e && *e && n < HP_ARRAY_SIZE(envp) - 1; e++)
    if (hp_strncmp(*e, "LD_PRELOAD=", 11) &&
        hp_strncmp(*e, "HEAPPROF_OPTIONS=", 17))
      envp[n++] = *e;
  envp[n] = NULL;
  char *argv[] = {exe, "--inlining", "--demangle", "--output-style=LLVM",
                  NULL};
  /* At its descriptor limit the program would lose symbolized profiles
   * for the rest of the run (two failures turn the symbolizer off): the
   * socket pair gets the soft limit raised for the start. */
  int sv[2];
  struct rlimit saved;
  bool raised = false;
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0 &&
      (errno != EMFILE ||
       !(raised = hp_fd_limit_raise(HP_FD_HEADROOM, &saved)) ||
       socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)) {
    if (raised)
      hp_fd_limit_restore(&saved);
    return false;
  }
  /* Our end never on 0, 1 or 2: with the program's stdout closed (>&-),
   * its writes there, which fail with EBADF without heapprof, went to the
   * symbolizer, and its answers to them spoiled the next batch (a later
   * dump's stacks unsymbolized); log_path=stdout's profile went there too,
   * and no warning said it was lost. */
  sv[0] = hp_fd_above_stdio(sv[0]);
  if (sv[0] < 0) {
    close(sv[1]);
    if (raised)
      hp_fd_limit_restore(&saved);
    return false;
  }
  sigset_t all, old;
  sigfillset(&all);
  pthread_sigmask(SIG_BLOCK, &all, &old);
  spawned_pid = -1;
  pid_t mid = vfork();
  if (mid == 0) {
    pid_t g = vfork();
    if (g == 0)
      exec_symbolizer(sv[1], exe, argv, envp, &old);
    spawned_pid = g;
    hp_exit_group(0);
  }
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  close(sv[1]);
  if (raised)
    hp_fd_limit_restore(&saved);
  if (mid > 0) {
    /* ECHILD: the program's SIGCHLD handler reaped it first; fine. */
    int status;
    while (waitpid(mid, &status, 0) < 0 && errno == EINTR) {
    }
  }
  if (mid < 0 || spawned_pid <= 0) {
    close(sv[0]);
    return false;
  }
  if (!hp_fd_id_take(sv[0], &sym_id)) {
    close(sv[0]);
    return false;
  }
  sym_fd = sv[0];
  sym_pid = spawned_pid;
  if (hp_flags.verbosity >= 2)
    hp_printf("HeapProf: started symbolizer %s (pid %d)\n", exe,
              (int)sym_pid);
  return true;
}

/* Whether sym_fd is still our socket.  A program that closes every
 * descriptor it did not open (a daemon does) closes ours too, and its next
 * open file, socket or pipe may get the number: heapprof must then neither
 * write requests into it nor close it.  The symbolizer read end of file
 * when ours closed, and exited. */
static bool sym_fd_ours(void) {
  if (sym_fd >= 0 && !hp_fd_id_is(sym_fd, &sym_id)) {
    sym_fd = -1;
    sym_pid = 0;
  }
  return sym_fd >= 0;
}

static void sym_stop(bool hung) {
  if (!sym_fd_ours())
    return;
  if (hung)
    kill(sym_pid, SIGKILL);
  close(sym_fd);
  sym_fd = -1;
  sym_pid = 0;
}

/* Sends every request and collects n answers (each ends with an empty
 * line) into *ans, writing and reading as the socket allows, so neither
 * side blocks on a full buffer.  false if the symbolizer died or stopped
 * answering; *hung in the second case. */
static bool sym_converse(const hp_buf_t *req, u32 n, hp_buf_t *ans,
                         bool *hung) {
  size_t sent = 0;
  u32 got = 0;
  char prev = 0;
  *hung = false;
  while (got < n) {
    struct pollfd p = {sym_fd, (short)(POLLIN | (sent < req->len ? POLLOUT : 0)),
                       0};
    int r = poll(&p, 1, HP_SYMBOLIZER_TIMEOUT_MS);
    if (r < 0 && errno == EINTR)
      continue;
    if (r <= 0) {
      *hung = r == 0;
      return false;
    }
    if ((p.revents & POLLOUT) && sent < req->len) {
      ssize_t w = send(sym_fd, req->data + sent, req->len - sent,
                       MSG_NOSIGNAL | MSG_DONTWAIT);
      if (w > 0)
        sent += (size_t)w;
      else if (w < 0 && errno != EAGAIN && errno != EINTR)
        return false;
    }
    if (p.revents & (POLLIN | POLLHUP | POLLERR)) {
      char chunk[8192];
      ssize_t got_bytes = recv(sym_fd, chunk, sizeof(chunk), MSG_DONTWAIT);
      if (got_bytes == 0)
        return false; /* it exited */
      if (got_bytes < 0) {
        if (errno == EAGAIN || errno == EINTR)
          continue;
        return false;
      }
      hp_buf_append(ans, chunk, (size_t)got_bytes);
      if (ans->failed)
        return false;
      for (ssize_t i = 0; i < got_bytes; i++) {
        if (chunk[i] == '\n' && prev == '\n')
          got++;
        prev = chunk[i];
      }
    }
  }
  return true;
}

/* One batch: the running symbolizer, or a new one if it died; a second
 * failure in a row turns symbolization off for the rest of the run (a
 * missing or broken symbolizer must not cost a start per report). */
static bool sym_run(const hp_buf_t *req, u32 n, hp_buf_t *ans) {
  if (sym_disabled)
    return false;
  for (int attempt = 0; attempt < 2; attempt++) {
    if (!sym_fd_ours() && !sym_start())
      break;
    bool hung;
    if (sym_converse(req, n, ans, &hung))
      return true;
    sym_stop(hung);
    ans->len = 0;
    ans->failed = false;
    if (hung)
      break; /* 30 s is enough to wait once */
  }
  sym_disabled = true;
  if (hp_flags.verbosity)
    hp_printf("HeapProf: the symbolizer failed; stacks are not symbolized "
              "from now on\n");
  return false;
}

void hp_symbolizer_fork_child(void) {
  /* The socket is the parent's conversation: forget it; the child starts
   * its own symbolizer when it first needs one.  The lock may have been
   * held by a thread that does not exist here. */
  if (sym_fd_ours())
    close(sym_fd);
  sym_fd = -1;
  sym_pid = 0;
  /* Released, not unlocked: this thread did not count the lock as one it
   * holds (hp_locks_held), and the count going to -1 in every fork child
   * made a deadly signal that came during a lock section run at once, or a
   * deferred one run inside the exit dump, which then waited for itself
   * until deadly_signal_timeout_s (SIGTERM to a Python pool's workers with
   * handle_term=1: 30 s, no profile). */
  hp_spin_release(&sym_lock);
}

/* Fills out->text/offs from the symbolizer's answers, one block per PC. */
static void parse_answers(char *p, hp_symbols_t *out) {
  for (u32 i = 0; i < out->n && *p; i++) {
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

void hp_symbolize(const uptr *pcs_in, u32 n_in, const hp_procmap_t *map,
                  hp_symbols_t *out) {
  hp_memset(out, 0, sizeof(*out));
  if (!n_in)
    return;
  /* Without memory for the tables (a mapping refused), no symbols: the
   * frames show as module+offset, as without a symbolizer. */
  out->pcs = hp_mmap(n_in * sizeof(uptr));
  if (!out->pcs)
    return;
  out->cap = n_in;
  hp_memcpy(out->pcs, pcs_in, n_in * sizeof(uptr));
  hp_sort_uptr(out->pcs, n_in);
  u32 n = 0;
  for (u32 i = 0; i < n_in; i++)
    if (!n || out->pcs[n - 1] != out->pcs[i])
      out->pcs[n++] = out->pcs[i];
  out->offs = hp_mmap((n + 1) * sizeof(u32));
  if (!out->offs) {
    hp_munmap(out->pcs, n_in * sizeof(uptr));
    hp_memset(out, 0, sizeof(*out));
    return;
  }
  out->n = n;
  for (u32 i = 0; i < n; i++)
    out->offs[i] = UINT32_MAX;
  /* Secure mode: no program of the caller's choosing (PATH,
   * symbolizer_path) runs with the process's privileges; the text profile
   * and reports show module+offset frames instead. */
  if (!hp_flags.symbolize || hp_secure_mode() || in_symbolizer)
    return;
  /* Inputs the symbolizer can't use (no module, or a path that would break
   * the quoting) still get a line, so the answers stay in step with pcs. */
  hp_buf_t req = {0}, ans = {0};
  for (u32 i = 0; i < n; i++) {
    const hp_module_t *m = hp_procmap_find(map, out->pcs[i]);
    if (m && m->path[0] == '/' && !hp_strchr(m->path, '"') &&
        !hp_strchr(m->path, '\n'))
      hp_buf_printf(&req, "CODE \"%s\" 0x%zx\n", m->path,
                    (size_t)(out->pcs[i] - m->bias));
    else
      hp_buf_printf(&req, "CODE \"/nonexistent\" 0x0\n");
  }
  if (!req.failed) {
    hp_spin_lock(&sym_lock);
    in_symbolizer = true;
    bool ok = sym_run(&req, n, &ans);
    in_symbolizer = false;
    hp_spin_unlock(&sym_lock);
    hp_buf_append(&ans, "", 1);
    if (ok && !ans.failed)
      parse_answers(ans.data, out);
  }
  hp_buf_free(&req);
  hp_buf_free(&ans);
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
