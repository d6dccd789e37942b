/*===- heapprof_timeline.c - the heap over time -------------------------===
 *
 * Part of heapprof.  See heapprof_timeline.h.
 *
 *   bucket i: [i x width, (i + 1) x width) ms  { set, lo, hi, last }
 *   a note past the last bucket: merge 2i and 2i+1 into i, width x 2
 *===----------------------------------------------------------------------===*/
#include "heapprof_internal.h"

typedef struct bucket {
  u64 set; /* 1: a note fell in this bucket */
  u64 lo, hi, last;
} bucket_t;

static struct {
  hp_spinlock_t lock;
  u64 width_ms; /* 0 until the first note: then 1 */
  bucket_t b[HP_TIMELINE_BUCKETS];
} tl;

static bucket_t merged(const bucket_t *x, const bucket_t *y) {
  if (!x->set)
    return *y;
  if (!y->set)
    return *x;
  return (bucket_t){1, HP_MIN(x->lo, y->lo), HP_MAX(x->hi, y->hi), y->last};
}

/* Halves the resolution: bucket i takes 2i and 2i+1. */
static void coarsen(void) {
  for (u32 i = 0; i < HP_TIMELINE_BUCKETS / 2; i++)
    tl.b[i] = merged(&tl.b[2 * i], &tl.b[2 * i + 1]);
  hp_memset(&tl.b[HP_TIMELINE_BUCKETS / 2], 0,
            HP_TIMELINE_BUCKETS / 2 * sizeof(bucket_t));
  tl.width_ms *= 2;
}

void hp_timeline_note(s64 live, u32 ms) {
  u64 v = live > 0 ? (u64)live : 0;
  if (!hp_spin_trylock(&tl.lock))
    return;
  if (!tl.width_ms)
    tl.width_ms = 1;
  while (ms / tl.width_ms >= HP_TIMELINE_BUCKETS)
    coarsen();
  bucket_t *x = &tl.b[ms / tl.width_ms];
  if (!x->set)
    *x = (bucket_t){1, v, v, v};
  else
    *x = (bucket_t){1, HP_MIN(x->lo, v), HP_MAX(x->hi, v), v};
  hp_spin_unlock(&tl.lock);
}

void hp_timeline_write_section(hp_buf_t *b, const hp_profile_info_t *info) {
  if (!hp_peak.on)
    return;
  hp_spin_lock(&tl.lock);
  /* Buckets that start after the dump's time hold notes of frees other
   * threads made while it was written: they belong to the next dump (the
   * timeline is the run's so far), and a chart ending at this one would
   * end after its span. */
  u64 end = tl.width_ms ? info->now_ms / tl.width_ms : 0;
  u64 n = 0;
  for (u32 i = 0; i < HP_TIMELINE_BUCKETS && i <= end; i++)
    n += tl.b[i].set != 0;
  if (n) {
    u64 head[2] = {tl.width_ms, n};
    hp_buf_append(b, head, sizeof(head));
    for (u32 i = 0; i < HP_TIMELINE_BUCKETS && i <= end; i++) {
      if (!tl.b[i].set)
        continue;
      u64 row[4] = {i, tl.b[i].lo, tl.b[i].hi, tl.b[i].last};
      hp_buf_append(b, row, sizeof(row));
    }
  }
  hp_spin_unlock(&tl.lock);
}

void hp_timeline_fork_child(void) {
  /* Another thread may have held the lock at the fork: it is gone. */
  hp_memset(&tl, 0, sizeof(tl));
}
