/* Secure mode is off in an ordinary process, where the environment is read
 * as before; profile_mode values; the profile-file helpers on a scratch
 * directory (a fresh temporary name each time, links at the final name
 * refused by the append reader). */
#include "hp_test.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int main(void) {
  /* Not setuid: the environment counts. */
  EXPECT(!hp_secure_mode());
  setenv("HEAPPROF_SECURE_TEST", "env=yes", 1);
  EXPECT(hp_env_is_set("HEAPPROF_SECURE_TEST"));
  const char *v = hp_getenv("HEAPPROF_SECURE_TEST");
  EXPECT(v && !hp_strcmp(v, "env=yes"));
  EXPECT(hp_getenv("HEAPPROF_NO_SUCH_VARIABLE") == NULL);
  EXPECT(!hp_env_is_set("HEAPPROF_NO_SUCH_VARIABLE"));

  /* Octal digits in a decimal flag. */
  EXPECT_EQ(hp_profile_mode_bits(600), 0600);
  EXPECT_EQ(hp_profile_mode_bits(640), 0640);
  EXPECT_EQ(hp_profile_mode_bits(644), 0644);
  EXPECT_EQ(hp_profile_mode_bits(660), 0660);
  EXPECT_EQ(hp_profile_mode_bits(664), 0664);
  EXPECT_EQ(hp_profile_mode_bits(666), 0); /* world-writable */
  EXPECT_EQ(hp_profile_mode_bits(700), 0); /* executable */
  EXPECT_EQ(hp_profile_mode_bits(400), 0); /* the owner cannot rewrite it */
  EXPECT_EQ(hp_profile_mode_bits(648), 0); /* not octal */
  EXPECT_EQ(hp_profile_mode_bits(0), 0);

  char dir[] = "heapprof-secure-test-XXXXXX"; /* in the working directory */
  if (!mkdtemp(dir)) {
    printf("mkdtemp failed\n");
    return 1;
  }
  char why[512] = "";
  int dfd = hp_profile_dir_open(dir, why, sizeof(why));
  EXPECT(dfd >= 0); /* mkdtemp makes it 0700 and ours */
  char t1[256], t2[256];
  int f1 = hp_profile_temp_create(dfd, "p.txt", 0640, t1, sizeof(t1));
  int f2 = hp_profile_temp_create(dfd, "p.txt", 0600, t2, sizeof(t2));
  EXPECT(f1 >= 0 && f2 >= 0);
  EXPECT(hp_strcmp(t1, t2) != 0);
  EXPECT(!hp_strncmp(t1, "p.txt.tmp.", 10));
  struct stat st;
  EXPECT(fstat(f1, &st) == 0 && (st.st_mode & 07777) == 0640);
  close(f1);
  close(f2);
  /* No file yet: -1; a symbolic link: -2 with the reason. */
  EXPECT_EQ(hp_profile_open_old(dfd, "p.txt", why, sizeof(why)), -1);
  EXPECT(symlinkat(t1, dfd, "p.txt") == 0);
  EXPECT_EQ(hp_profile_open_old(dfd, "p.txt", why, sizeof(why)), -2);
  EXPECT(!hp_strncmp(why, "it is a symbolic link", 21));
  unlinkat(dfd, "p.txt", 0);
  /* A regular file of ours: read. */
  EXPECT(renameat(dfd, t2, dfd, "p.txt") == 0);
  int old = hp_profile_open_old(dfd, "p.txt", why, sizeof(why));
  EXPECT(old >= 0);
  close(old);
  /* Another user's file there (only root can make one): refused. */
  if (geteuid() == 0 && fchownat(dfd, "p.txt", 65534, 65534, 0) == 0) {
    EXPECT_EQ(hp_profile_open_old(dfd, "p.txt", why, sizeof(why)), -2);
    EXPECT(strstr(why, "owned by uid 65534, not by this user") != NULL);
  }
  /* World-writable without the sticky bit: refused; with it: fine. */
  close(dfd);
  chmod(dir, 0777);
  EXPECT_EQ(hp_profile_dir_open(dir, why, sizeof(why)), -1);
  EXPECT(strstr(why, "writable by others") != NULL);
  chmod(dir, 01777);
  dfd = hp_profile_dir_open(dir, why, sizeof(why));
  EXPECT(dfd >= 0);
  unlinkat(dfd, t1, 0);
  unlinkat(dfd, "p.txt", 0);
  close(dfd);
  rmdir(dir);
  return hp_test_done("secure_test");
}
