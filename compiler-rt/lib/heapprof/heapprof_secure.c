/*===- heapprof_secure.c - privileged runs and safe profile files -------===
 *
 * Part of heapprof.
 *
 * Secure mode follows the sanitizers: when the kernel sets AT_SECURE
 * (setuid, setgid or file capabilities) the caller's environment is not
 * trusted.  hp_getenv answers NULL, so HEAPPROF_OPTIONS and PATH are
 * ignored; profiles go only where the program was built to put them; no
 * symbolizer runs (see heapprof_flags.c, heapprof_rtl.c,
 * heapprof_symbolize.c).
 *
 * Profile files, in every mode: a profile is written into a directory that
 * only its owner (this user or root) can change, or one with the sticky
 * bit; through a directory descriptor, so the directory checked is the
 * directory written; to a temporary file created with O_EXCL|O_NOFOLLOW
 * under an unpredictable name, so nothing planted there is followed or
 * truncated; then renamed, which replaces whatever is at the final name
 * without following it.  append_dumps reads the previous file only if it
 * is a regular file of ours with no other links.
 *===----------------------------------------------------------------------===*/
#include "heapprof_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/auxv.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

bool hp_secure_mode(void) {
  /* 0 = not read yet, 1 = no, 2 = yes.  Racing first readers agree. */
  static int state;
  int s = __atomic_load_n(&state, __ATOMIC_RELAXED);
  if (!s) {
    s = getauxval(AT_SECURE) ? 2 : 1;
    __atomic_store_n(&state, s, __ATOMIC_RELAXED);
  }
  return s == 2;
}

const char *hp_file_errno_text(int e) {
  switch (e) {
  case EACCES: return "permission denied";
  case EPERM: return "operation not permitted";
  case ENOENT: return "no such file or directory";
  case ENOTDIR: return "a path component is not a directory";
  case EROFS: return "read-only file system";
  case ENOSPC: return "no space left on device";
  case EFBIG: return "file too large (the file size limit, ulimit -f)";
  case EMFILE:
    return "too many open files (the process's descriptor limit, ulimit -n)";
  case ENFILE: return "too many open files in the system";
  case EISDIR: return "is a directory";
  case ENAMETOOLONG: return "file name too long";
  case EDQUOT: return "disk quota exceeded";
  case ELOOP: return "too many symbolic links";
  case EEXIST: return "temporary names kept colliding";
  case EPIPE: return "broken pipe (nothing reads it any more)";
  case EBADF: return "not open for writing (closed)";
  default: return "I/O error";
  }
}

int hp_profile_dir_open(const char *dir, char *why, size_t why_size) {
  int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) {
    hp_strlcpy(why, hp_file_errno_text(errno), why_size);
    return -1;
  }
  struct stat st;
  if (fstat(fd, &st) != 0) {
    hp_strlcpy(why, hp_file_errno_text(errno), why_size);
    close(fd);
    return -1;
  }
  /* Whoever can add or rename entries here could put a file of theirs in
   * the profile's place after it is written: the directory must be ours
   * (or root's), and shared only with the sticky bit, which lets nobody
   * replace another user's files.  A group-writable directory of our own
   * group is accepted: with user private groups (umask 002) every
   * directory a user makes is one. */
  bool sticky = st.st_mode & S_ISVTX;
  if (st.st_uid != geteuid() && st.st_uid != 0)
    hp_snprintf(why, why_size,
                "directory '%s' is owned by uid %u, not by this user or root",
                dir, (unsigned)st.st_uid);
  else if ((st.st_mode & S_IWOTH) && !sticky)
    hp_snprintf(why, why_size,
                "directory '%s' is writable by others and not sticky", dir);
  else if ((st.st_mode & S_IWGRP) && !sticky && st.st_gid != getegid())
    hp_snprintf(why, why_size,
                "directory '%s' is writable by group %u and not sticky", dir,
                (unsigned)st.st_gid);
  else
    return fd;
  close(fd);
  return -1;
}

static u32 random_u32(void) {
  u32 r;
  if (getrandom(&r, sizeof(r), GRND_NONBLOCK) == (ssize_t)sizeof(r))
    return r;
  static u32 counter;
  u64 x = hp_rdtsc() ^ ((u64)__atomic_add_fetch(&counter, 1, __ATOMIC_RELAXED)
                        * 0x9E3779B97F4A7C15ull);
  return (u32)(x ^ (x >> 29));
}

int hp_profile_temp_create(int dirfd, const char *name, u32 mode, char *tmp,
                           size_t tmp_size) {
  for (int attempt = 0; attempt < 8; attempt++) {
    if ((size_t)hp_snprintf(tmp, tmp_size, "%s.tmp.%u.%08x", name,
                            (u32)getpid(), random_u32()) >= tmp_size) {
      errno = ENAMETOOLONG;
      return -1;
    }
    int fd = openat(dirfd, tmp,
                    O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
                    0600);
    if (fd >= 0) {
      /* Exactly the mode asked for, whatever the umask (one that takes
       * the owner's bits, 0277 say, makes even 0600 something else). */
      if (fchmod(fd, mode) != 0) {
        int e = errno;
        close(fd);
        unlinkat(dirfd, tmp, 0);
        errno = e;
        return -1;
      }
      return fd;
    }
    if (errno != EEXIST)
      return -1;
  }
  errno = EEXIST;
  return -1;
}

int hp_profile_open_old(int dirfd, const char *name, char *why,
                        size_t why_size) {
  /* O_NONBLOCK: a FIFO planted there must not hang the dump. */
  int fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT)
      return -1;
    hp_strlcpy(why,
               errno == ELOOP ? "it is a symbolic link (append_dumps reads "
                                "the file before replacing it)"
                              : hp_file_errno_text(errno),
               why_size);
    return -2;
  }
  struct stat st;
  if (fstat(fd, &st) != 0)
    hp_strlcpy(why, hp_file_errno_text(errno), why_size);
  else if (!S_ISREG(st.st_mode))
    hp_strlcpy(why, "it is not a regular file", why_size);
  else if (st.st_uid != geteuid())
    hp_snprintf(why, why_size, "it is owned by uid %u, not by this user",
                (unsigned)st.st_uid);
  else if (st.st_nlink != 1)
    hp_snprintf(why, why_size, "it has %u hard links",
                (unsigned)st.st_nlink);
  else
    return fd;
  close(fd);
  return -2;
}

u32 hp_profile_mode_bits(s64 v) {
  /* Written as octal digits in a decimal flag: 640 means 0640. */
  if (v < 600 || v > 666)
    return 0;
  u32 g = (u32)(v / 10 % 10), o = (u32)(v % 10);
  if ((g != 0 && g != 4 && g != 6) || (o != 0 && o != 4))
    return 0;
  return 0600 | g << 3 | o;
}
