/* Shadow counters: the range rule, scans, and the allocator's guarantees
 * (cleared at allocation, never shared with a neighbouring chunk). */
#include "hp_test.h"
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

static char buf[8192] __attribute__((aligned(4096)));

/* The scan's definition, one granule at a time. */
static void scan_reference(uptr beg, uptr size, hp_shadow_scan_t *r) {
  hp_memset(r, 0, sizeof(*r));
  if (!size)
    size = 1;
  uptr last_page = (uptr)-1;
  bool page_touched = false;
  for (uptr g = HP_ROUND_DOWN(beg, HP_GRANULE_SIZE); g < beg + size;
       g += HP_GRANULE_SIZE) {
    if (g / HP_PAGE_SIZE != last_page) {
      last_page = g / HP_PAGE_SIZE;
      r->pages++;
      page_touched = false;
    }
    u64 c = *hp_shadow_counter(g);
    r->granules++;
    r->accesses += c;
    if (c) {
      r->touched_granules++;
      if (!page_touched)
        r->touched_pages++;
      page_touched = true;
    }
  }
}

int main(void) {
  __heapprof_init();
  uptr p = (uptr)buf;
  hp_shadow_clear(p, p + sizeof(buf));
  hp_shadow_scan_t s;
  hp_shadow_scan(p, sizeof(buf), &s);
  EXPECT_EQ(s.accesses, 0);
  EXPECT_EQ(s.granules, 128);
  EXPECT_EQ(s.pages, 2);

  hp_shadow_record_range(p, 40);     /* words 0..4: 5 in granule 0 */
  EXPECT_EQ(*hp_shadow_counter(p), 5);
  hp_shadow_record_range(p + 60, 8); /* words 7 and 8: one per granule */
  EXPECT_EQ(*hp_shadow_counter(p), 6);
  EXPECT_EQ(*hp_shadow_counter(p + 64), 1);
  hp_shadow_record_range(p + 1, 1);  /* a byte: one word */
  EXPECT_EQ(*hp_shadow_counter(p), 7);
  hp_shadow_record_range(p + 4096, 4096); /* 512 words, 8 per granule */
  EXPECT_EQ(*hp_shadow_counter(p + 4096), 8);
  EXPECT_EQ(*hp_shadow_counter(p + 8191), 8);
  hp_shadow_scan(p, sizeof(buf), &s);
  EXPECT_EQ(s.accesses, 7 + 1 + 512);
  EXPECT_EQ(s.touched_granules, 2 + 64);
  EXPECT_EQ(s.touched_pages, 2);
  hp_shadow_scan(p + 64, 1, &s); /* one byte: one granule */
  EXPECT_EQ(s.granules, 1);
  EXPECT_EQ(s.accesses, 1);
  hp_shadow_clear(p, p + 1); /* clears granule 0 only */
  EXPECT_EQ(*hp_shadow_counter(p), 0);
  EXPECT_EQ(*hp_shadow_counter(p + 64), 1);
  hp_shadow_clear(p, p + sizeof(buf)); /* 1 KiB of shadow */
  hp_shadow_scan(p, sizeof(buf), &s);
  EXPECT_EQ(s.accesses, 0);

  /* The preloaded runtime's scan of counters nobody can have written
   * (hp_shadow_in_use false) counts granules and pages from the address
   * alone: the same as the definition's on zero counters, at every offset
   * and size across the two pages' boundary, size 0 counting as 1. */
  u32 geometry_bad = 0;
  for (uptr off = 4096 - 130; off < 4096 + 2; off++)
    for (uptr size = 0; size <= 200; size++) {
      hp_shadow_scan_t u, r;
      hp_shadow_scan_unwritten(p + off, size, &u);
      scan_reference(p + off, size, &r);
      geometry_bad += u.granules != r.granules || u.pages != r.pages ||
                      u.accesses || u.touched_granules || u.touched_pages;
    }
  EXPECT_EQ(geometry_bad, 0);
  hp_shadow_scan_unwritten(p, sizeof(buf), &s);
  EXPECT_EQ(s.granules, 128);
  EXPECT_EQ(s.pages, 2);

  /* Neighbours: hammering chunk q never shows in chunk r allocated right
   * before it, whatever the size. */
  u32 leaks = 0, stale = 0;
  for (uptr size = 1; size <= 700; size++) {
    char *volatile r = malloc(size);
    char *volatile q = malloc(size);
    __heapprof_record_access(q);
    __heapprof_record_access(q + size - 1);
    __heapprof_record_access_range(q, size);
    hp_shadow_scan((uptr)r, size, &s);
    leaks += s.accesses != 0;
    /* Reuse: the freed block comes back with zero counters. */
    free(q);
    char *volatile q2 = malloc(size);
    hp_shadow_scan((uptr)q2, size, &s);
    stale += s.accesses != 0;
    free(q2);
    free(r);
  }
  EXPECT_EQ(leaks, 0);
  EXPECT_EQ(stale, 0);
  /* Scans of every small size and offset around page boundaries (the
   * one-page fast path and the page-by-page loop) agree with the
   * definition, on counters set at random. */
  {
    static char area[4 * 4096] __attribute__((aligned(4096)));
    uptr base = (uptr)area;
    int bad = 0;
    /* Counters mostly set, then mostly 0 (pages with and without an
     * access on either side of the boundary). */
    for (int sparse = 0; sparse < 2; sparse++) {
      hp_shadow_clear(base, base + sizeof(area));
      u64 x = 12345;
      for (uptr g = base; g < base + sizeof(area); g += 64) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        bool zero = sparse ? (x >> 58) != 0 : (x >> 60) < 6;
        *hp_shadow_counter(g) = zero ? 0 : 1 + ((x >> 40) & 0xff);
      }
      /* Up to 2200 bytes: the two-page pass of up to 32 granules and the
       * page-by-page loop past it. */
      for (uptr off = 4096 - 2300; off < 4096 + 100; off += 7)
        for (uptr size = 0; size < 2200; size += 13) {
          hp_shadow_scan_t got, want;
          hp_shadow_scan(base + off, size, &got);
          scan_reference(base + off, size, &want);
          bad += got.accesses != want.accesses ||
                 got.granules != want.granules ||
                 got.touched_granules != want.touched_granules ||
                 got.pages != want.pages ||
                 got.touched_pages != want.touched_pages;
        }
    }
    EXPECT_EQ(bad, 0);
    hp_shadow_clear(base, base + sizeof(area));
  }
  /* Clears of every length from 1 to 40 granules, at every granule
   * offset around a page boundary: exactly the counters of the granules
   * the range overlaps become 0, their neighbours keep their values. */
  {
    static char area[2 * 4096] __attribute__((aligned(4096)));
    uptr base = (uptr)area;
    int bad = 0;
    for (uptr off = 4096 - 45 * 64; off < 4096 + 3 * 64; off += 64)
      for (uptr len = 1; len <= 40 * 64; len += len < 64 ? 63 : 64) {
        for (uptr g = base; g < base + sizeof(area); g += 64)
          *hp_shadow_counter(g) = 1 + (g - base) / 64;
        for (uptr shift = 0; shift < 64; shift += 37) {
          uptr a = base + off + shift, e = a + len;
          hp_shadow_clear(a, e);
          for (uptr g = base; g < base + sizeof(area); g += 64) {
            bool in = g + 64 > a && g < e;
            bad += *hp_shadow_counter(g) != (in ? 0 : 1 + (g - base) / 64);
          }
          for (uptr g = base; g < base + sizeof(area); g += 64)
            *hp_shadow_counter(g) = 1 + (g - base) / 64;
        }
      }
    EXPECT_EQ(bad, 0);
    hp_shadow_clear(base, base + sizeof(area));
  }
  /* The range rule on every offset in a granule and lengths from one byte
   * to past three granules, against its definition word by word: each
   * 8-byte word the range overlaps is one access to the granule holding
   * it (a partial first and last granule, full ones in between). */
  {
    static char area[2 * 4096] __attribute__((aligned(4096)));
    static u64 want[2 * 4096 / 64];
    uptr base = (uptr)area;
    int bad = 0;
    for (uptr off = 0; off < 64; off++)
      for (uptr len = 1; len <= 260; len++) {
        hp_shadow_clear(base, base + sizeof(area));
        hp_memset(want, 0, sizeof(want));
        uptr a = base + 4096 - 128 + off; /* crosses the page at times */
        hp_shadow_record_range(a, len);
        for (uptr w = a / 8; w <= (a + len - 1) / 8; w++)
          want[(w * 8 - base) / 64]++;
        for (uptr g = 0; g < sizeof(area) / 64; g++)
          bad += *hp_shadow_counter(base + g * 64) != want[g];
      }
    EXPECT_EQ(bad, 0);
    /* Bytes 60..259 of a granule-aligned area: words 7..32, so 1, 8, 8,
     * 8 and 1 accesses in granules 0 to 4. */
    hp_shadow_clear(base, base + sizeof(area));
    hp_shadow_record_range(base + 60, 200);
    EXPECT_EQ(*hp_shadow_counter(base), 1);
    EXPECT_EQ(*hp_shadow_counter(base + 64), 8);
    EXPECT_EQ(*hp_shadow_counter(base + 192), 8);
    EXPECT_EQ(*hp_shadow_counter(base + 256), 1);
    EXPECT_EQ(*hp_shadow_counter(base + 320), 0);
    hp_shadow_clear(base, base + sizeof(area));
  }
  /* memcmp counts the bytes it compared, up to and including the first
   * difference, in both operands: for every length to 80 and every place
   * of a single differing byte (or none), the words of bytes 0..d (or all
   * n) in each, and the sign of the difference. */
  {
    static char x[128] __attribute__((aligned(64)));
    static char y[128] __attribute__((aligned(64)));
    int (*volatile cmp)(const void *, const void *, size_t) = memcmp;
    int bad = 0;
    for (uptr n = 1; n <= 80; n++)
      for (uptr d = 0; d <= n; d++) {
        hp_memset(x, 'a', sizeof(x));
        hp_memset(y, 'a', sizeof(y));
        if (d < n)
          y[d] = (d & 1) ? 'b' : 'A'; /* y above x at odd d, below at even */
        hp_shadow_clear((uptr)x, (uptr)x + sizeof(x));
        hp_shadow_clear((uptr)y, (uptr)y + sizeof(y));
        int r = cmp(x, y, n);
        int want_sign = d == n ? 0 : (d & 1) ? -1 : 1;
        bad += (r > 0) - (r < 0) != want_sign;
        uptr k = d < n ? d + 1 : n; /* bytes compared */
        for (uptr g = 0; g < 2; g++) {
          uptr words = (k + 7) / 8, lo = g * 8;
          uptr want = words > lo ? HP_MIN(words - lo, (uptr)8) : 0;
          bad += *hp_shadow_counter((uptr)x + g * 64) != want;
          bad += *hp_shadow_counter((uptr)y + g * 64) != want;
        }
      }
    EXPECT_EQ(bad, 0);
    /* Bytes compare as unsigned char, short and long. */
    hp_memset(x, 0, sizeof(x));
    hp_memset(y, 0, sizeof(y));
    x[3] = (char)0x80;
    y[3] = 0x01;
    EXPECT_EQ(cmp(x, y, 8) > 0, 1);
    EXPECT_EQ(cmp(x, y, 100) > 0, 1);
  }
  /* Compares long enough to ask libc first (256 bytes and more): equal,
   * all 300 bytes (38 words: 8 per full granule, 6 in the fifth); a
   * difference at byte 270, bytes 0..270 (34 words, 2 in the fifth); a
   * difference at byte 3, compared as unsigned. */
  {
    static char x[320] __attribute__((aligned(64)));
    static char y[320] __attribute__((aligned(64)));
    int (*volatile cmp)(const void *, const void *, size_t) = memcmp;
    hp_memset(x, 7, sizeof(x));
    hp_memset(y, 7, sizeof(y));
    hp_shadow_clear((uptr)x, (uptr)x + sizeof(x));
    EXPECT_EQ(cmp(x, y, 300), 0);
    EXPECT_EQ(*hp_shadow_counter((uptr)x), 8);
    EXPECT_EQ(*hp_shadow_counter((uptr)x + 256), 6); /* bytes 256..299 */
    y[270] = 9;
    hp_shadow_clear((uptr)x, (uptr)x + sizeof(x));
    hp_shadow_clear((uptr)y, (uptr)y + sizeof(y));
    EXPECT_EQ(cmp(x, y, 300) < 0, 1);
    EXPECT_EQ(*hp_shadow_counter((uptr)x + 256), 2); /* bytes 256..270 */
    EXPECT_EQ(*hp_shadow_counter((uptr)y + 256), 2);
    EXPECT_EQ(*hp_shadow_counter((uptr)y + 192), 8);
    x[3] = (char)0x80;
    y[3] = 0x01;
    EXPECT_EQ(cmp(x, y, 300) > 0, 1);
  }
  /* memcmp at every pair of offsets of its operands within a 16-byte
   * step, lengths 0 to 70 (the 16-byte steps, the overlapping last step,
   * the two words, bytes), a difference at every place or none: the
   * result's sign and each operand's word counts, against the definition
   * byte by byte. */
  {
    static char area[2][256] __attribute__((aligned(64)));
    static u64 want[2][256 / 64];
    int (*volatile cmp)(const void *, const void *, size_t) = memcmp;
    int bad = 0;
    for (uptr ox = 0; ox < 16; ox += 3)
      for (uptr oy = 0; oy < 16; oy += 5)
        for (uptr n = 0; n <= 70; n++)
          for (uptr d = 0; d <= n; d++) {
            char *x = area[0] + 60 + ox, *y = area[1] + 60 + oy;
            hp_memset(area, 'q', sizeof(area));
            if (d < n)
              y[d] = (char)((d & 1) ? 0xf0 : 0x01); /* unsigned order */
            hp_shadow_clear((uptr)area, (uptr)area + sizeof(area));
            hp_memset(want, 0, sizeof(want));
            int r = cmp(x, y, n);
            int want_sign = d == n ? 0 : (d & 1) ? -1 : 1;
            bad += (r > 0) - (r < 0) != want_sign;
            uptr k = d < n ? d + 1 : n; /* bytes compared */
            for (int o = 0; o < 2; o++) {
              uptr a = (uptr)(o ? y : x);
              for (uptr w = a / 8; k && w <= (a + k - 1) / 8; w++)
                want[o][(w * 8 - (uptr)area[o]) / 64]++;
              for (uptr g = 0; g < 256 / 64; g++)
                bad += *hp_shadow_counter((uptr)area[o] + g * 64) != want[o][g];
            }
          }
    EXPECT_EQ(bad, 0);
  }
  /* memcpy, memmove and memset at every offset of their operands in a
   * granule, lengths 0 to 140 (the inline path to 64 bytes, one or two
   * granules an operand, and the slow path past it): each word of each
   * range one access to its granule, no other counter touched, the bytes
   * copied or set. */
  {
    static char area[2][512] __attribute__((aligned(64)));
    static u64 want[2][512 / 64];
    void *(*volatile cpy)(void *, const void *, size_t) = memcpy;
    void *(*volatile mov)(void *, const void *, size_t) = memmove;
    void *(*volatile set)(void *, int, size_t) = memset;
    int bad = 0;
    for (int fn = 0; fn < 3; fn++)
      for (uptr off = 0; off < 64; off++)
        for (uptr n = 0; n <= 140; n++) {
          char *s = area[0] + 64 + (off * 7) % 64, *d = area[1] + 64 + off;
          for (uptr i = 0; i < sizeof(area[0]); i++)
            area[0][i] = (char)i, area[1][i] = 0;
          hp_shadow_clear((uptr)area, (uptr)area + sizeof(area));
          hp_memset(want, 0, sizeof(want));
          void *r = fn == 0 ? cpy(d, s, n) : fn == 1 ? mov(d, s, n)
                                                    : set(d, 0x5a, n);
          bad += r != d;
          for (uptr i = 0; i < n; i++)
            bad += d[i] != (fn == 2 ? 0x5a : s[i]);
          bad += d[n] != 0 || (d > area[1] && d[-1] != 0);
          for (int o = fn == 2 ? 1 : 0; o < 2; o++) {
            uptr a = (uptr)(o ? d : s);
            for (uptr w = a / 8; n && w <= (a + n - 1) / 8; w++)
              want[o][(w * 8 - (uptr)area[o]) / 64]++;
          }
          for (int o = 0; o < 2; o++)
            for (uptr g = 0; g < 512 / 64; g++)
              bad += *hp_shadow_counter((uptr)area[o] + g * 64) != want[o][g];
        }
    EXPECT_EQ(bad, 0);
  }
  /* strcmp reads up to and including the first difference or the NUL:
   * strings of 0 to 40 characters at every offset in a word, one of them
   * ending at the end of a page whose next page is unreadable (the
   * word-at-a-time search must not read past it), a difference at every
   * place or none; the sign, and each operand's word counts against the
   * definition byte by byte. */
  {
    u8 *pages = mmap(NULL, 3 * 4096, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    EXPECT_EQ(pages != MAP_FAILED, 1);
    EXPECT_EQ(mprotect(pages + 4096, 4096, PROT_NONE), 0);
    int (*volatile cmp)(const char *, const char *) = strcmp;
    static u64 want[2][3];
    int bad = 0;
    for (uptr len = 0; len <= 40; len++)
      for (uptr off = 0; off < 8; off++)
        for (uptr d = 0; d <= len; d++) {
          /* x ends (its NUL) at the last byte before the unreadable page;
           * y starts in the third page, off bytes into a word. */
          char *x = (char *)pages + 4096 - (len + 1);
          char *y = (char *)pages + 2 * 4096 + 64 + off;
          hp_memset(x, 'k', len);
          x[len] = 0;
          hp_memset(y, 'k', len);
          y[len] = 0;
          if (d < len)
            y[d] = (char)((d & 1) ? 0xf0 : 0x01); /* unsigned order */
          uptr areas[2] = {(uptr)pages + 4096 - 192, (uptr)y - off - 64};
          for (int o = 0; o < 2; o++)
            hp_shadow_clear(areas[o], areas[o] + 192);
          hp_memset(want, 0, sizeof(want));
          int r = cmp(x, y);
          int want_sign = d == len ? 0 : (d & 1) ? -1 : 1;
          bad += (r > 0) - (r < 0) != want_sign;
          uptr k = (d < len ? d : len) + 1; /* bytes read */
          for (int o = 0; o < 2; o++) {
            uptr a = (uptr)(o ? y : x);
            for (uptr w = a / 8; w <= (a + k - 1) / 8; w++)
              want[o][(w * 8 - areas[o]) / 64]++;
            for (uptr g = 0; g < 3; g++)
              bad += *hp_shadow_counter(areas[o] + g * 64) != want[o][g];
          }
        }
    EXPECT_EQ(bad, 0);
    munmap(pages, 3 * 4096);
  }
  /* A 64 MiB range with four counters set (its first and last granule,
   * and the two on either side of a boundary between pages of counters,
   * 32 KiB of heap each): the scan counts it exactly, and without swap it
   * reads none of the pages of counters nobody wrote -- each would be a
   * page fault, and on kernels without a shared zero page a page of
   * memory (8 MiB of counters here). */
  {
    const uptr size = 64ull << 20;
    char *area = mmap(NULL, size, PROT_NONE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    EXPECT(area != MAP_FAILED);
    uptr beg = (uptr)area, end = beg + size;
    hp_shadow_clear(beg, end); /* by MADV_DONTNEED: nothing resident */
    uptr sbeg = (uptr)hp_shadow_counter(beg), ssize = size >> HP_SHADOW_SCALE;
    EXPECT_EQ(hp_test_resident_pages(sbeg, ssize), 0);
    uptr mid = beg + (size / 2 & ~(uptr)(32768 - 1)); /* a counter page's first granule */
    *hp_shadow_counter(beg) = 3;
    *hp_shadow_counter(mid - 64) = 5;
    *hp_shadow_counter(mid) = 7;
    *hp_shadow_counter(end - 64) = 11;
    /* The counters of beg, mid - 64, mid and end - 64 lie on four pages. */
    EXPECT_EQ(hp_test_resident_pages(sbeg, ssize), 4);
    EXPECT(hp_shadow_holes_worth(beg, end));
    hp_shadow_holes_t h;
    hp_shadow_holes_init(&h);
    bool known = !hp_test_swap_on();
    EXPECT(!hp_shadow_holes_zero(&h, beg));
    EXPECT(!hp_shadow_holes_zero(&h, mid - 64));
    EXPECT(!hp_shadow_holes_zero(&h, mid));
    EXPECT(!hp_shadow_holes_zero(&h, end - 1));
    EXPECT_EQ(hp_shadow_holes_zero(&h, beg + 32768), known);
    EXPECT_EQ(hp_shadow_holes_zero(&h, mid - 32768 - 1), known);
    EXPECT_EQ(hp_shadow_holes_zero(&h, mid + 32768), known);
    hp_shadow_scan(beg, size, &s);
    EXPECT_EQ(s.accesses, 3 + 5 + 7 + 11);
    EXPECT_EQ(s.granules, size / 64);
    EXPECT_EQ(s.touched_granules, 4);
    EXPECT_EQ(s.pages, size / 4096);
    EXPECT_EQ(s.touched_pages, 4); /* mid - 64 and mid: two heap pages */
    if (known)
      EXPECT_EQ(hp_test_resident_pages(sbeg, ssize), 4);
    else
      printf("shadow_test: swap is on: the scan reads every counter\n");
    /* From an offset inside a granule to one inside the last: the same. */
    hp_shadow_scan(beg + 8, size - 16, &s);
    EXPECT_EQ(s.accesses, 26);
    EXPECT_EQ(s.granules, size / 64);
    EXPECT_EQ(s.touched_pages, 4);
    hp_shadow_clear(beg, end);
    munmap(area, size);
  }
  return hp_test_done("shadow_test");
}
