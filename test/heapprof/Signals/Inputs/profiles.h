/* The profiles a test waits for, in the profile_dir its HEAPPROF_OPTIONS
 * names.  A finished profile's name ends in `suffix` (".txt" for any text
 * profile, ".1.txt" for the first checkpoint); the temporary file it is
 * written to first, NAME.tmp.<pid>.<random>, does not, so a half-written
 * profile never counts.  (A test binary's own name ends in ".tmp", so
 * "contains .tmp" would leave out every profile of it.) */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int finished_profiles(const char *suffix) {
  const char *d = strstr(getenv("HEAPPROF_OPTIONS"), "profile_dir=") + 12;
  char dir[4096];
  snprintf(dir, sizeof(dir), "%.*s", (int)strcspn(d, ":"), d);
  size_t sl = strlen(suffix);
  int n = 0;
  DIR *dd = opendir(dir);
  for (struct dirent *e; dd && (e = readdir(dd));) {
    size_t l = strlen(e->d_name);
    n += l >= sl && !strcmp(e->d_name + l - sl, suffix);
  }
  if (dd)
    closedir(dd);
  return n;
}

/* Waits (at most 10 s) until `want` profiles ending in suffix are there;
 * returns how many are. */
static int wait_for_profiles(const char *suffix, int want) {
  int n = finished_profiles(suffix);
  for (int i = 0; i < 1000 && n < want; i++) {
    usleep(10000);
    n = finished_profiles(suffix);
  }
  return n;
}
