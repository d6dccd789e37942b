/* The heap over time (heapprof_timeline.h): a snapshot notes the heap at
 * the snapshot's own time, and a dump writes only the buckets that start
 * at or before its time.  A dump's note read the clock again after the
 * dump's time and fell a millisecond later at times; the chart's axis then
 * ended after the summary's time span (tools/html-timeline-span.test
 * failed once in CI that way). */
#include "hp_test.h"
#include "heapprof_peak.h"
#include "heapprof_profile_text.h"
#include "heapprof_timeline.h"
#include <stdlib.h>
#include <time.h>

typedef struct {
  u64 width, n;
  u64 set[HP_TIMELINE_BUCKETS];
  u64 last[HP_TIMELINE_BUCKETS];
} section_t;

/* The section a dump at ms writes, read back as tag 9's layout. */
static void read_section(u32 ms, section_t *s) {
  hp_memset(s, 0, sizeof(*s));
  hp_profile_info_t info = {"checkpoint", 1, ms, 1, 0};
  hp_buf_t b = {0};
  hp_timeline_write_section(&b, &info);
  if (b.len < 16) {
    hp_buf_free(&b);
    return;
  }
  u64 *w = (u64 *)b.data;
  s->width = w[0];
  s->n = w[1];
  EXPECT_EQ(b.len, 16 + s->n * 32);
  for (u64 k = 0; k < s->n && 16 + (k + 1) * 32 <= b.len; k++) {
    u64 *row = w + 2 + 4 * k;
    if (row[0] < HP_TIMELINE_BUCKETS) {
      s->set[row[0]] = 1;
      s->last[row[0]] = row[3];
    }
  }
  hp_buf_free(&b);
}

static void no_ctx(u64 id, u64 objects, u64 bytes, void *arg) {
  (void)id, (void)objects, (void)bytes, (void)arg;
}

int main(void) {
  __heapprof_init();
  EXPECT(hp_peak.on);
  /* 60 ms with no allocation: no snapshot, so no note, at 20 ms. */
  while (hp_now_ms() < 60) {
    struct timespec t = {0, 2000000};
    nanosleep(&t, NULL);
  }
  static section_t s;
  read_section(hp_now_ms(), &s);
  EXPECT(s.width <= 1); /* 0: no note yet, no section */
  EXPECT(!s.set[20]);

  /* A dump's snapshot at 20 ms, taken now (60 ms or later), is noted in
   * the bucket of 20 ms, not of the clock read now. */
  char *volatile p = malloc(1000);
  hp_peak_dump_take(20);
  hp_peak_dump(no_ctx, NULL); /* releases the tracker, as a dump does */
  u32 now = hp_now_ms();
  read_section(now, &s);
  EXPECT_EQ(s.width, 1);
  EXPECT(s.set[20]);
  EXPECT(s.last[20] >= 1000); /* the 1000 bytes live at the snapshot */
  for (u32 i = 21; i <= now && i < HP_TIMELINE_BUCKETS; i++)
    EXPECT(!s.set[i]);
  free(p);

  /* A note after a dump's time (another thread's free while the dump is
   * written) is not in that dump: its axis would end after the dump.  The
   * next dump, at or after it, has it. */
  hp_timeline_note(777, 40);
  read_section(30, &s);
  EXPECT(s.set[20]);
  EXPECT(!s.set[40]);
  read_section(40, &s);
  EXPECT(s.set[40]);
  EXPECT_EQ(s.last[40], 777);
  return hp_test_done("timeline_test");
}
