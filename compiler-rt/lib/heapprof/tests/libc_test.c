/* The allocation-free formatter, parsers and sort. */
#include "hp_test.h"
#include <stdlib.h>
#include <unistd.h>

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
  return hp_test_done("libc_test");
}
