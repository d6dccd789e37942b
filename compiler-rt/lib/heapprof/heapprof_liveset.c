/*===- heapprof_liveset.c - live objects sorted by address --------------===
 *
 * Part of heapprof.  See heapprof_liveset.h.
 *===----------------------------------------------------------------------===*/
#include "heapprof_liveset.h"

void hp_liveset_add(hp_live_set_t *s, uptr beg, uptr size, u32 stack_id,
                    u32 aux) {
  if (s->n == s->cap &&
      (s->failed || !hp_array_try_grow((void **)&s->v, &s->cap, s->n,
                                       sizeof(*s->v), 4096))) {
    s->failed = true;
    return;
  }
  s->v[s->n++] = (hp_live_obj_t){beg, beg + size, stack_id, aux};
}

/* A least-significant-digit radix sort, a byte at a time, through a
 * scratch array, skipping the bytes all addresses share (a heap sort's
 * random accesses cost a cache miss per step on a large heap). */
static bool sort(hp_live_set_t *s) {
  if (s->n < 2)
    return true;
  hp_live_obj_t *a = s->v;
  hp_live_obj_t *tmp = hp_mmap(s->cap * sizeof(*tmp));
  if (!tmp)
    return false;
  u64 count[256];
  u64 all_or = 0, all_and = ~0ull;
  for (u64 i = 0; i < s->n; i++) {
    all_or |= a[i].beg;
    all_and &= a[i].beg;
  }
  for (u32 shift = 0; shift < 64; shift += 8) {
    if (!(((all_or ^ all_and) >> shift) & 0xff))
      continue; /* every address has the same byte here */
    hp_memset(count, 0, sizeof(count));
    for (u64 i = 0; i < s->n; i++)
      count[(a[i].beg >> shift) & 0xff]++;
    u64 at = 0;
    for (u32 d = 0; d < 256; d++) {
      u64 c = count[d];
      count[d] = at;
      at += c;
    }
    for (u64 i = 0; i < s->n; i++)
      tmp[count[(a[i].beg >> shift) & 0xff]++] = a[i];
    hp_live_obj_t *t = a;
    a = tmp;
    tmp = t;
  }
  s->v = a; /* the other one is the scratch */
  hp_munmap(tmp, s->cap * sizeof(*tmp));
  return true;
}

static u64 ntop(u64 n) {
  return (n + HP_LIVESET_FANOUT - 1) / HP_LIVESET_FANOUT;
}

bool hp_liveset_sort(hp_live_set_t *s) {
  if (!sort(s))
    return false;
  if (!s->n)
    return true;
  s->begs = hp_mmap(s->n * sizeof(u64));
  s->top = s->begs ? hp_mmap(ntop(s->n) * sizeof(u64)) : NULL;
  if (!s->top)
    return false;
  for (u64 i = 0; i < s->n; i++)
    s->begs[i] = s->v[i].beg;
  for (u64 k = 0; k < ntop(s->n); k++)
    s->top[k] = s->begs[k * HP_LIVESET_FANOUT];
  return true;
}

/* The last i in [lo, hi) with b[i] <= a, given b[lo] <= a. */
static u64 last_at_most(const u64 *b, u64 lo, u64 hi, uptr a) {
  while (hi - lo > 1) {
    u64 mid = lo + (hi - lo) / 2;
    if (b[mid] <= a)
      lo = mid;
    else
      hi = mid;
  }
  return lo;
}

s64 hp_liveset_find(const hp_live_set_t *s, uptr a) {
  if (!s->n || a < s->begs[0])
    return -1;
  u64 k = last_at_most(s->top, 0, ntop(s->n), a) * HP_LIVESET_FANOUT;
  u64 i = last_at_most(s->begs, k, HP_MIN(s->n, k + HP_LIVESET_FANOUT), a);
  return a < hp_live_obj_end(&s->v[i]) ? (s64)i : -1;
}

void hp_liveset_free(hp_live_set_t *s) {
  if (s->v)
    hp_munmap(s->v, s->cap * sizeof(*s->v));
  if (s->begs)
    hp_munmap(s->begs, s->n * sizeof(u64));
  if (s->top)
    hp_munmap(s->top, ntop(s->n) * sizeof(u64));
  hp_memset(s, 0, sizeof(*s));
}
