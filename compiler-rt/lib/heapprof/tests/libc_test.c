/* The allocation-free formatter, parsers and sort. */
#include "hp_test.h"
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A field of /proc/self/status, in KiB; -1 if absent. */
static long status_kib(const char *field) {
  char text[4096];
  int fd = open("/proc/self/status", O_RDONLY);
  if (fd < 0)
    return -1;
  ssize_t n = read(fd, text, sizeof(text) - 1);
  close(fd);
  if (n <= 0)
    return -1;
  text[n] = 0;
  const char *p = strstr(text, field);
  return p ? strtol(p + strlen(field), NULL, 10) : -1;
}

int main(void) {
  char b[64];
  hp_snprintf(b, sizeof(b), "%d|%5u|%-4s|%08x|%c", -5, 42u, "ab", 0xbeefu, 'z');
  EXPECT_STREQ(b, "-5|   42|ab  |0000beef|z");
  hp_snprintf(b, sizeof(b), "%lld %llu", (long long)INT64_MIN,
              (unsigned long long)UINT64_MAX);
  EXPECT_STREQ(b, "-9223372036854775808 18446744073709551615");
  hp_snprintf(b, sizeof(b), "%p %zx %.3s %.*s %%", (void *)0x1234, (size_t)255,
              "abcdef", 2, "xyz");
  EXPECT_STREQ(b, "0x1234 ff abc xy %");
  hp_snprintf(b, sizeof(b), "%02llu.%02llu", 7ull, 5ull);
  EXPECT_STREQ(b, "07.05");
  /* Truncation keeps a terminator and reports the full length. */
  char small[5];
  EXPECT_EQ(hp_snprintf(small, sizeof(small), "%s", "abcdefgh"), 8);
  EXPECT_STREQ(small, "abcd");

  u64 u;
  s64 s;
  EXPECT(hp_parse_u64("18446744073709551615", 20, &u) && u == UINT64_MAX);
  EXPECT(!hp_parse_u64("18446744073709551616", 20, &u));
  EXPECT(!hp_parse_u64("", 0, &u));
  EXPECT(!hp_parse_u64("1a", 2, &u));
  EXPECT(hp_parse_s64("-9223372036854775808", 20, &s) && s == INT64_MIN);
  EXPECT(!hp_parse_s64("9223372036854775808", 19, &s));
  EXPECT(hp_parse_s64("-0", 2, &s) && s == 0);

  uptr a[] = {5, 3, 9, 1, 5, 0, 7};
  hp_sort_uptr(a, 7);
  int sorted = 1;
  for (int i = 1; i < 7; i++)
    sorted &= a[i - 1] <= a[i];
  EXPECT(sorted);
  EXPECT_EQ(a[0], 0);
  EXPECT_EQ(a[6], 9);

  char m[16] = "0123456789";
  hp_memmove(m + 2, m, 8); /* overlapping, destination above */
  EXPECT_STREQ(m, "0101234567");
  hp_memmove(m, m + 2, 8); /* overlapping, destination below */
  EXPECT(!hp_memcmp(m, "01234567", 8));
  EXPECT_EQ(hp_strlen(""), 0);
  EXPECT(hp_strcmp("abc", "abd") < 0);
  EXPECT_EQ(hp_strlcpy(b, "hello", 3), 5);
  EXPECT_STREQ(b, "he");

  /* hp_buf: grown past its first 64 KiB several times (by mremap), every
   * byte written is kept; a formatted line longer than the 512-byte fast
   * path is whole. */
  hp_buf_t buf = {0};
  for (u32 i = 0; i < 300000; i++) {
    u32 v = i * 2654435761u;
    hp_buf_append(&buf, &v, sizeof(v));
  }
  EXPECT(!buf.failed);
  EXPECT_EQ(buf.len, 1200000);
  u32 bad = 0;
  for (u32 i = 0; i < 300000; i++) {
    u32 v;
    hp_memcpy(&v, buf.data + 4 * (uptr)i, sizeof(v));
    bad += v != i * 2654435761u;
  }
  EXPECT_EQ(bad, 0);
  hp_buf_printf(&buf, "%0700d|", 7);
  EXPECT_EQ(buf.len, 1200000 + 701);
  EXPECT(buf.data[1200000 + 699] == '7' && buf.data[1200000 + 700] == '|');
  hp_buf_free(&buf);
  EXPECT(!buf.data && !buf.len);
  /* hp_buf_read_fd: a file longer than the buffer's first mapping (64
   * KiB) read whole, 100,000 bytes of a known pattern, a NUL after them;
   * an empty file reads as 0 bytes, the NUL there too. */
  {
    char path[] = "/tmp/libc_test.XXXXXX";
    int fd = mkstemp(path);
    EXPECT(fd >= 0);
    static char data[100000];
    for (u32 i = 0; i < sizeof(data); i++)
      data[i] = (char)('a' + i % 26);
    EXPECT_EQ(write(fd, data, sizeof(data)), sizeof(data));
    EXPECT_EQ(lseek(fd, 0, SEEK_SET), 0);
    hp_buf_t b = {0};
    EXPECT(hp_buf_read_fd(&b, fd));
    EXPECT_EQ(b.len, sizeof(data));
    EXPECT(b.data && !hp_memcmp(b.data, data, sizeof(data)));
    EXPECT(b.data && b.data[b.len] == 0);
    hp_buf_free(&b);
    EXPECT_EQ(ftruncate(fd, 0), 0);
    EXPECT_EQ(lseek(fd, 0, SEEK_SET), 0);
    EXPECT(hp_buf_read_fd(&b, fd));
    EXPECT_EQ(b.len, 0);
    EXPECT(b.data && b.data[0] == 0);
    hp_buf_free(&b);
    close(fd);
    unlink(path);
  }
  /* A streamed hp_buf (hp_buf_stream_to): 3,000,000 u32s of a known
   * sequence (12,000,000 bytes) appended to a file from offset 100 (as
   * after append_dumps' old contents), drained when full: two drains of
   * 4 MiB, the other 3,611,392 bytes held to the end.  Patches: 8 bytes at
   * position 0 (drained: written into the file), 8 across the end of the
   * second drain (2 * 4 MiB - 4: half into the file, half into the bytes
   * held), and 8 in the bytes held (11,000,000).  The file then reads as the sequence with the three
   * patches, from offset 100; the buffer never held more than a drain's
   * worth and its append. */
  {
    char path[] = "/tmp/libc_test.XXXXXX";
    int fd = mkstemp(path);
    EXPECT(fd >= 0);
    char pad[100] = {0};
    EXPECT_EQ(write(fd, pad, sizeof(pad)), sizeof(pad));
    hp_buf_t b = {0};
    hp_buf_stream_to(&b, fd, sizeof(pad));
    u64 most = 0;
    for (u32 i = 0; i < 3000000; i++) {
      u32 v = i * 2654435761u;
      hp_buf_append(&b, &v, sizeof(v));
      most = HP_MAX(most, (u64)b.len);
      hp_buf_drain_if_full(&b);
    }
    EXPECT_EQ(b.flushed, 2 * HP_BUF_DRAIN_BYTES);
    EXPECT_EQ(hp_buf_pos(&b), 12000000);
    EXPECT_EQ(most, HP_BUF_DRAIN_BYTES);
    u64 p0 = 0x1111111111111111ull, p1 = 0x2222222222222222ull,
        p2 = 0x3333333333333333ull;
    u64 at1 = 2 * HP_BUF_DRAIN_BYTES - 4, at2 = 11000000;
    hp_buf_patch(&b, 0, &p0, 8);
    hp_buf_patch(&b, at1, &p1, 8);
    hp_buf_patch(&b, at2, &p2, 8);
    EXPECT(hp_buf_drain(&b));
    EXPECT_EQ(b.write_errno, 0);
    EXPECT_EQ(b.len, 0);
    hp_buf_free(&b);
    static u32 want[3000000], got[3000000];
    for (u32 i = 0; i < 3000000; i++)
      want[i] = i * 2654435761u;
    hp_memcpy((char *)want, &p0, 8);
    hp_memcpy((char *)want + at1, &p1, 8);
    hp_memcpy((char *)want + at2, &p2, 8);
    EXPECT_EQ(pread(fd, got, sizeof(got), sizeof(pad)), sizeof(got));
    EXPECT(!hp_memcmp(got, want, sizeof(got)));
    close(fd);
    unlink(path);
  }
  /* A streamed hp_buf whose file refuses every write (/dev/full: ENOSPC):
   * 64 MiB appended, drained when full.  The first drain fails, and what
   * comes after goes nowhere: the buffer holds no more than a drain's
   * worth (it had kept all 60 MiB after the failure), the position still
   * counts every byte, and every drain says the write failed. */
  {
    int fd = open("/dev/full", O_WRONLY);
    EXPECT(fd >= 0);
    hp_buf_t b = {0};
    hp_buf_stream_to(&b, fd, 0);
    static char chunk[65536];
    for (u32 i = 0; i < 1024; i++) {
      hp_buf_append(&b, chunk, sizeof(chunk));
      hp_buf_drain_if_full(&b);
    }
    EXPECT_EQ(b.write_errno, ENOSPC);
    EXPECT_EQ(hp_buf_pos(&b), 64ull << 20);
    EXPECT(b.cap <= 2 * HP_BUF_DRAIN_BYTES);
    EXPECT(!b.failed);
    EXPECT(!hp_buf_drain(&b));
    hp_buf_free(&b);
    close(fd);
  }
  /* hp_array_try_grow moves the pages instead of copying them: a 64 MiB
   * array written whole, doubled, holds its bytes, and the peak resident
   * set (reset first: clear_refs 5) rises by far less than the copy's 64
   * MiB (a copy faults in the new mapping's 64 MiB while the old is still
   * resident). */
  {
    u64 cap = 0, len = (64ull << 20) / sizeof(u64);
    u64 *v = NULL;
    EXPECT(hp_array_try_grow((void **)&v, &cap, 0, sizeof(u64), len));
    for (u64 i = 0; i < len; i++)
      v[i] = i * 3;
    int fd = open("/proc/self/clear_refs", O_WRONLY);
    EXPECT(fd >= 0 && write(fd, "5", 1) == 1);
    close(fd);
    long before = status_kib("VmRSS:");
    EXPECT(hp_array_try_grow((void **)&v, &cap, len, sizeof(u64), 0));
    long added = status_kib("VmHWM:") - before;
    EXPECT_EQ(cap, 2 * len);
    u64 bad = 0;
    for (u64 i = 0; i < len; i++)
      bad += v[i] != i * 3;
    EXPECT_EQ(bad, 0);
    EXPECT(before > 0 && added < 8 * 1024);
    hp_munmap(v, cap * sizeof(u64));
  }
  return hp_test_done("libc_test");
}
