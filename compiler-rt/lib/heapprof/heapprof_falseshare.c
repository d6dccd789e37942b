/*===- heapprof_falseshare.c - passive false sharing --------------------===
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
  u64 lines;
} pair_t;

/* Totals; written under the class locks (objects, lines, shared_lines:
 * atomically, as different classes add to them) and pair_lock (the rest). */
static struct {
  u64 objects, unplaced, lines, shared_lines, dropped_pairs;
} totals;
static fs_class_t classes[NCLASSES];
static hp_spinlock_t pair_lock; /* protects pairs, npairs_used */
static pair_t *pairs;           /* mmap'd on first use, NPAIRS entries */
static u32 npairs_used;

static void add_pair(u64 a, u64 b) {
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
      pairs[i].lines++;
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
    add_pair(a, b);
  }
  if (cross && !c->shared) {
    c->shared = true;
    __atomic_fetch_add(&totals.shared_lines, 1, __ATOMIC_RELAXED);
  }
  if (c->nocc < PER_LINE)
    c->occ[c->nocc++] = (occupant_t){tid, id};
}

void hp_fshare_alloc(u32 tid, u64 stack_id, uptr size) {
  uptr slot = HP_ROUND_UP(size ? size : 1, SLOT_ALIGN);
  if (slot > MAX_SLOT) {
    __atomic_fetch_add(&totals.unplaced, 1, __ATOMIC_RELAXED);
    return;
  }
  fs_class_t *c = &classes[slot / SLOT_ALIGN - 1];
  hp_spin_lock(&c->lock);
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
}

void hp_fshare_section_write(hp_buf_t *b, const hp_profile_info_t *info) {
  if (!hp_flags.false_sharing)
    return;
  hp_spin_lock(&pair_lock);
  u64 row_words = 3, n = pairs ? npairs_used : 0;
  u64 head[7] = {
      __atomic_load_n(&totals.objects, __ATOMIC_RELAXED),
      __atomic_load_n(&totals.unplaced, __ATOMIC_RELAXED),
      __atomic_load_n(&totals.lines, __ATOMIC_RELAXED),
      __atomic_load_n(&totals.shared_lines, __ATOMIC_RELAXED),
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
  hp_spin_lock(&pair_lock);
}

void hp_fshare_unlock_all(bool reset) {
  if (reset) {
    hp_memset(&totals, 0, sizeof(totals));
    if (pairs)
      hp_memset(pairs, 0, NPAIRS * sizeof(pair_t));
    npairs_used = 0;
    for (u32 i = 0; i < NCLASSES; i++) {
      fs_class_t *c = &classes[i];
      c->next = c->open_line = 0;
      c->nocc = c->npairs = 0;
      c->shared = false;
    }
  }
  hp_spin_unlock(&pair_lock);
  for (u32 i = NCLASSES; i-- > 0;)
    hp_spin_unlock(&classes[i].lock);
}
