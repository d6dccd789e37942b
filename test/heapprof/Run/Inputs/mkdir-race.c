/* A preloaded mkdir that plays the race heapprof run's -o must survive:
 * right after it makes a directory named "race", it puts a link to
 * $RACE_TARGET in its place, as someone who can write the parent could
 * between heapprof run's mkdir and its chmod. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int mkdir(const char *path, mode_t mode) {
  int (*real)(const char *, mode_t) =
      (int (*)(const char *, mode_t))dlsym(RTLD_NEXT, "mkdir");
  int r = real(path, mode);
  const char *target = getenv("RACE_TARGET");
  size_t n = strlen(path);
  if (r == 0 && target && n >= 5 && !strcmp(path + n - 5, "/race") &&
      rmdir(path) == 0 && symlink(target, path) != 0)
    abort();
  return r;
}
