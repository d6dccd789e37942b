/*===- heapprof_files.c - the tools' inputs, outputs and messages -------===
 *
 * Part of heapprof.  See heapprof_files.h.
 *===----------------------------------------------------------------------===*/
#include "heapprof_files.h"
#include "heapprof_rawreader.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static bool ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), k = strlen(suffix);
  return n > k && !strcmp(s + n - k, suffix);
}

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* "DIR/NAME" (one slash between), malloc'd. */
static char *join(const char *dir, size_t dir_len, const char *name) {
  bool slash = dir_len && dir[dir_len - 1] == '/';
  size_t len = dir_len + !slash + strlen(name) + 1;
  char *p = malloc(len);
  if (p)
    snprintf(p, len, "%.*s%s%s", (int)dir_len, dir, slash ? "" : "/", name);
  return p;
}

bool hpf_list_profiles(const char *dir, char ***names, size_t *n, char *err,
                       size_t err_size) {
  *names = NULL;
  *n = 0;
  DIR *d = opendir(dir);
  if (!d) {
    snprintf(err, err_size, "cannot read the directory: %s", strerror(errno));
    return false;
  }
  size_t cap = 0;
  struct dirent *e;
  while ((e = readdir(d))) {
    if (!ends_with(e->d_name, ".profraw"))
      continue;
    char *path = join(dir, strlen(dir), e->d_name);
    struct stat st;
    /* Not a FIFO or a device someone named *.profraw: opening a FIFO
     * would wait for a writer. */
    if (!path || stat(path, &st) != 0 || !S_ISREG(st.st_mode)) {
      free(path);
      continue;
    }
    if (*n == cap) {
      char **more = realloc(*names, (cap = cap ? 2 * cap : 16) * sizeof(char *));
      if (!more) {
        free(path);
        break;
      }
      *names = more;
    }
    (*names)[(*n)++] = path;
  }
  closedir(d);
  if (!*n) {
    snprintf(err, err_size, "no raw profiles (*.profraw) in this directory");
    return false;
  }
  qsort(*names, *n, sizeof(char *), cmp_str);
  return true;
}

void hpf_free_list(char **names, size_t n) {
  for (size_t i = 0; i < n; i++)
    free(names[i]);
  free(names);
}

static char *dir_of(const char *path);

/* Whether the entry PATH (ST, not followed) is another user's in a shared
 * sticky directory (/tmp): the kernel's rule for links it will not follow
 * and FIFOs it will not open there (fs.protected_symlinks,
 * protected_fifos), in a place anyone can plant a name for someone else's
 * output.  An entry of this user, or of the directory's owner, is not. */
static bool planted(const char *path, const struct stat *st) {
  if (st->st_uid == geteuid())
    return false;
  char *dir = dir_of(path);
  struct stat dst;
  bool shared = dir && stat(dir, &dst) == 0 && (dst.st_mode & S_ISVTX) &&
                (dst.st_mode & S_IWOTH) && st->st_uid != dst.st_uid;
  free(dir);
  return shared;
}

/* The file a chain of symbolic links at PATH ends in (it need not exist),
 * malloc'd; PATH itself when it is not a link.  With *PLANTED (if
 * given) the uid of a link on the way that planted() refuses, followed
 * no further: the kernel would not follow it, and readlink must not
 * either. */
static char *link_target_checked(const char *path, long *planted_uid) {
  char *cur = strdup(path);
  for (int hops = 0; cur && hops < 40; hops++) {
    struct stat st;
    if (lstat(cur, &st) != 0 || !S_ISLNK(st.st_mode))
      return cur;
    if (planted_uid && planted(cur, &st)) {
      *planted_uid = (long)st.st_uid;
      return cur;
    }
    char to[PATH_MAX];
    ssize_t len = readlink(cur, to, sizeof(to) - 1);
    if (len <= 0)
      return cur;
    to[len] = 0;
    char *next;
    const char *slash = strrchr(cur, '/');
    if (to[0] == '/' || !slash)
      next = strdup(to);
    else
      next = join(cur, (size_t)(slash - cur), to);
    free(cur);
    cur = next;
  }
  return cur; /* a loop: open reports ELOOP */
}

static char *link_target(const char *path) {
  return link_target_checked(path, NULL);
}

/* PATH's directory ("." for a bare name). */
static char *dir_of(const char *path) {
  const char *slash = strrchr(path, '/');
  if (!slash)
    return strdup(".");
  if (slash == path)
    return strdup("/");
  return strndup(path, (size_t)(slash - path));
}

static bool same_file(const struct stat *a, const struct stat *b) {
  return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

/* Whether PATH, named *.profraw, is in the directory DIR_ST. */
static bool profile_in_dir(const char *path, const struct stat *dir_st) {
  if (!ends_with(path, ".profraw"))
    return false;
  char *dir = dir_of(path);
  struct stat st;
  bool in = dir && stat(dir, &st) == 0 && same_file(&st, dir_st);
  free(dir);
  return in;
}

/* The descriptor a stream's name stands for, or -1. */
static int stream_fd(const char *path) {
  if (!*path || !strcmp(path, "-") || !strcmp(path, "/dev/stdout"))
    return 1;
  if (!strcmp(path, "/dev/stderr"))
    return 2;
  const char *num = !strncmp(path, "/dev/fd/", 8)         ? path + 8
                    : !strncmp(path, "/proc/self/fd/", 14) ? path + 14
                                                           : NULL;
  if (!num || !*num || strspn(num, "0123456789") != strlen(num) ||
      strlen(num) > 9)
    return -1;
  return atoi(num);
}

bool hpf_conflict(const char *out, const char *const *inputs, size_t ninputs,
                  char *err, size_t err_size) {
  if (stream_fd(out) >= 0)
    return false;
  struct stat out_st;
  bool exists = stat(out, &out_st) == 0;
  char *target = link_target(out);
  bool found = false;
  for (size_t i = 0; i < ninputs && !found; i++) {
    char *split = NULL;
    uint64_t up_to;
    const char *in = hpr_split_checkpoint(inputs[i], &split, &up_to) > 0
                         ? split
                         : inputs[i];
    /* "-" is the standard input: what it was opened on. */
    struct stat st;
    if (!strcmp(in, "-") ? fstat(0, &st) != 0 : stat(in, &st) != 0) {
      /* (The load says what is wrong with it.) */
    } else if (S_ISDIR(st.st_mode)) {
      found = profile_in_dir(out, &st) ||
              (target && profile_in_dir(target, &st));
      if (found)
        snprintf(err, err_size,
                 "is a raw profile's name in the input directory %s, which "
                 "would read it back as one more profile: write it "
                 "elsewhere",
                 in);
    } else if (exists && same_file(&st, &out_st)) {
      found = true;
      snprintf(err, err_size,
               "is the input %s: writing it would replace that profile", in);
    }
    free(split);
  }
  free(target);
  return found;
}

static bool write_all(int fd, const void *data, size_t len) {
  const char *p = data;
  while (len) {
    ssize_t n = write(fd, p, len);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0) {
      if (n == 0)
        errno = EIO;
      return false;
    }
    p += n;
    len -= (size_t)n;
  }
  return true;
}

static bool fail(char *err, size_t err_size, int e) {
  snprintf(err, err_size, "%s", strerror(e));
  return false;
}

/* An output being written: to a stream, device or FIFO where it is, as it
 * comes; to a regular file through a temporary (tmp) renamed to target by
 * hpf_close. */
struct hpf_out {
  int fd;
  bool close_fd;   /* opened by hpf_open */
  bool failed;     /* a write failed: with errno e */
  int e;
  char *tmp, *target;
  bool exists;     /* target did: st is its, the mode and owner it keeps */
  struct stat st;
};

hpf_out_t *hpf_open(const char *path, unsigned mode, char *err,
                    size_t err_size) {
  hpf_out_t *o = calloc(1, sizeof(*o));
  if (!o) {
    fail(err, err_size, ENOMEM);
    return NULL;
  }
  int sfd = stream_fd(path);
  if (sfd >= 0) {
    if (fcntl(sfd, F_GETFD) < 0) {
      fail(err, err_size, errno);
      free(o);
      return NULL;
    }
    o->fd = sfd;
    return o;
  }
  long planted_uid = -1;
  char *target = link_target_checked(path, &planted_uid);
  if (!target) {
    free(o);
    fail(err, err_size, ENOMEM);
    return NULL;
  }
  if (planted_uid >= 0) {
    snprintf(err, err_size,
             "%s is a symbolic link of another user (uid %ld) in a shared "
             "sticky directory: not followed",
             strcmp(target, path) ? target : "it", planted_uid);
    free(target);
    free(o);
    return NULL;
  }
  struct stat st;
  bool exists = stat(target, &st) == 0;
  if (exists && S_ISDIR(st.st_mode)) {
    free(target);
    free(o);
    fail(err, err_size, EISDIR);
    return NULL;
  }
  if (exists && !S_ISREG(st.st_mode) && planted(target, &st)) {
    snprintf(err, err_size,
             "%s is a FIFO or device of another user (uid %u) in a shared "
             "sticky directory: not written",
             strcmp(target, path) ? target : "it", (unsigned)st.st_uid);
    free(target);
    free(o);
    return NULL;
  }
  if (exists && !S_ISREG(st.st_mode)) {
    o->fd = open(target, O_WRONLY | O_NOCTTY | O_CLOEXEC);
    int e = errno;
    free(target);
    if (o->fd < 0) {
      free(o);
      fail(err, err_size, e);
      return NULL;
    }
    o->close_fd = true;
    return o;
  }
  /* A name of its own beside the target, never an existing file's (no
   * link followed, nothing truncated): TARGET.tmp.PID.N. */
  size_t tlen = strlen(target) + 48;
  char *tmp = malloc(tlen);
  int fd = -1;
  for (unsigned n = 0; tmp && fd < 0 && n < 1000; n++) {
    snprintf(tmp, tlen, "%s.tmp.%d.%u", target, (int)getpid(), n);
    fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
              exists ? 0600 : mode);
    if (fd < 0 && errno != EEXIST)
      break;
  }
  if (fd < 0) {
    int e = tmp ? errno : ENOMEM;
    /* The file itself may well exist (/proc/version): say which failed. */
    if (tmp)
      snprintf(err, err_size, "%s (creating the temporary file %s)",
               strerror(e), tmp);
    else
      fail(err, err_size, e);
    free(tmp);
    free(target);
    free(o);
    return NULL;
  }
  o->fd = fd;
  o->close_fd = true;
  o->tmp = tmp;
  o->target = target;
  o->exists = exists;
  o->st = st;
  return o;
}

bool hpf_put(hpf_out_t *o, const void *data, size_t len) {
  if (!o->failed && !write_all(o->fd, data, len)) {
    o->failed = true;
    o->e = errno;
  }
  return !o->failed;
}

bool hpf_close(hpf_out_t *o, bool keep, char *err, size_t err_size) {
  bool ok = !o->failed;
  int e = o->e;
  if (!keep) {
    ok = false;
    e = ECANCELED;
  }
  /* An existing file keeps its permissions (and, for root, its owner). */
  if (ok && o->tmp && o->exists) {
    if (fchmod(o->fd, o->st.st_mode & 07777) != 0) {
      ok = false;
      e = errno;
    } else if (geteuid() == 0) {
      (void)!fchown(o->fd, o->st.st_uid, o->st.st_gid);
    }
  }
  if (o->close_fd && close(o->fd) != 0 && ok) {
    ok = false;
    e = errno;
  }
  if (o->tmp) {
    if (ok && rename(o->tmp, o->target) != 0) {
      ok = false;
      e = errno;
    }
    if (!ok)
      unlink(o->tmp);
    free(o->tmp);
    free(o->target);
  }
  free(o);
  return ok || fail(err, err_size, e);
}

bool hpf_write(const char *path, const void *data, size_t len, unsigned mode,
               char *err, size_t err_size) {
  hpf_out_t *o = hpf_open(path, mode, err, err_size);
  if (!o)
    return false;
  hpf_put(o, data, len);
  return hpf_close(o, true, err, err_size);
}
