/*===- heapprof_falseshare.c - false sharing on a simulated layout ------===
 *
 * Part of heapprof.  See heapprof_falseshare.h for the model.  Each slot
 * class keeps only its open line -- the last line of the object placed
 * last, which the next object may share -- with the (thread, context) of
 * the at most four objects on it, so the model's memory is fixed however
 * long the program runs.  Pairs of contexts go to one fixed table; a pair
 * that finds it full is counted in dropped_pairs.
 *===----------------------------------------------------------------------===*/
#include "heapprof_internal.h"
#include "heapprof_ext_sections.h"

#include <sys/syscall.h>
#include <unistd.h>

#define SLOT_ALIGN 16u
#define MAX_SLOT 1024u
#define NCLASSES (MAX_SLOT / SLOT_ALIGN)
#define PER_LINE (HP_GRANULE_SIZE / SLOT_ALIGN) /* objects on a line, at most */
#define MAX_LINE_PAIRS (PER_LINE * (PER_LINE - 1) / 2)
#define NPAIRS 4096u /* a power of two */

typedef struct occupant {
  u32 tid;
  u64 stack_id;
} occupant_t;

/* An object's place in the model, kept in its chunk header's
 * data_type_id: class index << POS_BITS | start in 16-byte units, + 1 (0:
 * not placed).  A class's positions wrap after 2^POS_BITS units (1 GiB of
 * it): lines that far apart then alias in the active-sharing table. */
#define POS_BITS 26u
static u32 make_pos(u32 ci, u64 next) {
  return (u32)((u64)ci << POS_BITS |
               ((next / SLOT_ALIGN) & ((1u << POS_BITS) - 1))) + 1;
}

/* One slot class; lock protects the rest.  Own cache lines: threads
 * allocating different sizes don't contend. */
typedef struct fs_class {
  hp_spinlock_t lock;
  u64 next;      /* bytes placed so far */
  u64 open_line; /* index + 1 of the open line; 0: none */
  u32 nocc;
  bool shared;   /* the open line already counted as shared */
  occupant_t occ[PER_LINE];
  u32 npairs;    /* pairs already counted on the open line */
  u64 pairs[MAX_LINE_PAIRS][2];
} __attribute__((aligned(64))) fs_class_t;

typedef struct pair {
  u64 a, b; /* context ids, a <= b; a == 0: empty */
  u64 lines;         /* passive: lines holding objects of both */
  u64 active_events; /* a write by another thread than the line's last */
  u64 active_lines;  /* lines whose first such event was this pair's */
} pair_t;
#define ROW_WORDS (sizeof(pair_t) / 8)

/* Totals since the start (or the fork).  dropped_pairs under pair_lock;
 * the rest with relaxed atomic adds, as different class locks and line
 * stripes add to them at once. */
static struct {
  u64 objects, unplaced, lines, shared_lines, dropped_pairs;
  u64 active_lines, active_events, same_object_events;
} totals;
static fs_class_t classes[NCLASSES];
static hp_spinlock_t pair_lock; /* protects pairs, npairs_used */
static pair_t *pairs;           /* mmap'd on first use, NPAIRS entries */
static u32 npairs_used;

/* Adds to the pair (a, b) (a <= b): lines, events, active lines. */
static void add_pair(u64 a, u64 b, u64 lines, u64 events, u64 alines) {
  hp_spin_lock(&pair_lock);
  if (!pairs)
    pairs = hp_mmap(NPAIRS * sizeof(pair_t));
  if (pairs) {
    u32 i = (u32)(((a * 31 + b) * 0x9E3779B97F4A7C15ull) >> 40) &
            (NPAIRS - 1);
    /* At most 3/4 full: the probe ends. */
    while (pairs[i].a && (pairs[i].a != a || pairs[i].b != b))
      i = (i + 1) & (NPAIRS - 1);
    if (!pairs[i].a && npairs_used * 4 + 4 <= NPAIRS * 3) {
      pairs[i].a = a;
      pairs[i].b = b;
      npairs_used++;
    }
    if (pairs[i].a) {
      pairs[i].lines += lines;
      pairs[i].active_events += events;
      pairs[i].active_lines += alines;
      hp_spin_unlock(&pair_lock);
      return;
    }
  }
  totals.dropped_pairs++;
  hp_spin_unlock(&pair_lock);
}

/* Object (tid, id) joins the open line of c; lock held. */
static void join_open_line(fs_class_t *c, u32 tid, u64 id) {
  bool cross = false;
  for (u32 k = 0; k < c->nocc; k++) {
    if (c->occ[k].tid == tid)
      continue;
    cross = true;
    u64 a = HP_MIN(c->occ[k].stack_id, id), b = HP_MAX(c->occ[k].stack_id, id);
    bool seen = false;
    for (u32 j = 0; j < c->npairs && !seen; j++)
      seen = c->pairs[j][0] == a && c->pairs[j][1] == b;
    if (seen)
      continue;
    if (c->npairs < MAX_LINE_PAIRS) {
      c->pairs[c->npairs][0] = a;
      c->pairs[c->npairs][1] = b;
      c->npairs++;
    }
    add_pair(a, b, 1, 0, 0);
  }
  if (cross && !c->shared) {
    c->shared = true;
    __atomic_fetch_add(&totals.shared_lines, 1, __ATOMIC_RELAXED);
  }
  if (c->nocc < PER_LINE)
    c->occ[c->nocc++] = (occupant_t){tid, id};
}

u32 hp_fshare_alloc(u32 tid, u64 stack_id, uptr size) {
  uptr slot = HP_ROUND_UP(size ? size : 1, SLOT_ALIGN);
  if (slot > MAX_SLOT) {
    __atomic_fetch_add(&totals.unplaced, 1, __ATOMIC_RELAXED);
    return 0;
  }
  u32 ci = (u32)(slot / SLOT_ALIGN - 1);
  fs_class_t *c = &classes[ci];
  hp_spin_lock(&c->lock);
  u32 pos = make_pos(ci, c->next);
  u64 first = c->next / HP_GRANULE_SIZE + 1; /* line indices + 1 */
  u64 last = (c->next + slot - 1) / HP_GRANULE_SIZE + 1;
  c->next += slot;
  u64 new_lines = last - first + 1;
  if (first == c->open_line) {
    join_open_line(c, tid, stack_id);
    new_lines--;
  }
  if (last != c->open_line) { /* the object's last line is the new open one */
    c->open_line = last;
    c->nocc = 1;
    c->occ[0] = (occupant_t){tid, stack_id};
    c->shared = false;
    c->npairs = 0;
  }
  hp_spin_unlock(&c->lock);
  __atomic_fetch_add(&totals.objects, 1, __ATOMIC_RELAXED);
  __atomic_fetch_add(&totals.lines, new_lines, __ATOMIC_RELAXED);
  return pos;
}

/* ------------------------------------------------------ active sharing */

/* Which thread wrote each simulated line last: a direct-mapped table of
 * NLINES entries (mmap'd on first use), a line evicting whichever other
 * line shares its entry (the evicted line starts over: an event may be
 * missed, never invented).  A stripe of spin locks guards the entries. */
#define NLINES (1u << 16)
#define NSTRIPES 64u
typedef struct line_state {
  u64 key;      /* class << 40 | line index, + 1; 0: empty */
  u64 obj;      /* user_beg of the object written last */
  u64 stack_id; /* its context */
  u32 tid;      /* the thread that wrote it */
  u32 active;   /* an event happened on this line */
} line_state_t;
static line_state_t *lines_tab;
static hp_spinlock_t line_locks[NSTRIPES];
static HP_TLS u32 my_tid;

void hp_fshare_store(u32 pos, uptr offset, u64 stack_id, uptr obj) {
  if (!lines_tab) {
    static hp_spinlock_t init_lock;
    hp_spin_lock(&init_lock);
    if (!lines_tab) {
      line_state_t *t = hp_mmap(NLINES * sizeof(line_state_t));
      __atomic_store_n(&lines_tab, t, __ATOMIC_RELEASE);
    }
    hp_spin_unlock(&init_lock);
    if (!lines_tab)
      return;
  }
  if (HP_UNLIKELY(!my_tid))
    my_tid = (u32)syscall(SYS_gettid);
  u64 cls = (pos - 1) >> POS_BITS;
  u64 at = (u64)((pos - 1) & ((1u << POS_BITS) - 1)) * SLOT_ALIGN + offset;
  u64 key = (cls << 40 | at / HP_GRANULE_SIZE) + 1;
  u32 i = (u32)((key * 0x9E3779B97F4A7C15ull) >> 48) & (NLINES - 1);
  line_state_t *l = &lines_tab[i];
  hp_spinlock_t *lock = &line_locks[i % NSTRIPES];
  hp_spin_lock(lock);
  if (l->key != key) {
    l->key = key;
    l->active = 0;
  } else if (l->tid != my_tid) {
    if (l->obj == obj) {
      __atomic_fetch_add(&totals.same_object_events, 1, __ATOMIC_RELAXED);
    } else {
      bool first = !l->active;
      l->active = 1;
      __atomic_fetch_add(&totals.active_events, 1, __ATOMIC_RELAXED);
      if (first)
        __atomic_fetch_add(&totals.active_lines, 1, __ATOMIC_RELAXED);
      add_pair(HP_MIN(l->stack_id, stack_id), HP_MAX(l->stack_id, stack_id),
               0, 1, first);
    }
  }
  l->obj = obj;
  l->stack_id = stack_id;
  l->tid = my_tid;
  hp_spin_unlock(lock);
}

void hp_fshare_section_write(hp_buf_t *b, const hp_profile_info_t *info) {
  if (!hp_flags.false_sharing)
    return;
  hp_spin_lock(&pair_lock);
  u64 row_words = ROW_WORDS, n = pairs ? npairs_used : 0;
  u64 head[HP_FSHARE_HEAD_WORDS] = {
      __atomic_load_n(&totals.objects, __ATOMIC_RELAXED),
      __atomic_load_n(&totals.unplaced, __ATOMIC_RELAXED),
      __atomic_load_n(&totals.lines, __ATOMIC_RELAXED),
      __atomic_load_n(&totals.shared_lines, __ATOMIC_RELAXED),
      __atomic_load_n(&totals.active_lines, __ATOMIC_RELAXED),
      __atomic_load_n(&totals.active_events, __ATOMIC_RELAXED),
      __atomic_load_n(&totals.same_object_events, __ATOMIC_RELAXED),
      totals.dropped_pairs, row_words, n};
  hp_buf_append(b, head, sizeof(head));
  for (u32 i = 0; pairs && i < NPAIRS; i++)
    if (pairs[i].a)
      hp_buf_append(b, &pairs[i], sizeof(pairs[i]));
  hp_spin_unlock(&pair_lock);
}

void hp_fshare_lock_all(void) {
  for (u32 i = 0; i < NCLASSES; i++)
    hp_spin_lock(&classes[i].lock);
  for (u32 i = 0; i < NSTRIPES; i++)
    hp_spin_lock(&line_locks[i]);
  hp_spin_lock(&pair_lock);
}

void hp_fshare_unlock_all(bool reset) {
  if (reset) {
    hp_memset(&totals, 0, sizeof(totals));
    if (pairs)
      hp_memset(pairs, 0, NPAIRS * sizeof(pair_t));
    npairs_used = 0;
    if (lines_tab)
      hp_memset(lines_tab, 0, NLINES * sizeof(line_state_t));
    my_tid = 0; /* the forking thread's: the child's only thread */
    for (u32 i = 0; i < NCLASSES; i++) {
      fs_class_t *c = &classes[i];
      c->next = c->open_line = 0;
      c->nocc = c->npairs = 0;
      c->shared = false;
    }
  }
  hp_spin_unlock(&pair_lock);
  for (u32 i = NSTRIPES; i-- > 0;)
    hp_spin_unlock(&line_locks[i]);
  for (u32 i = NCLASSES; i-- > 0;)
    hp_spin_unlock(&classes[i].lock);
}
