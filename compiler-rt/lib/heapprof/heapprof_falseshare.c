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
#include "heapprof_liveset.h"

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

/* Adds to the pair (a, b) (a <= b) of the table tab (NPAIRS entries, used
 * of them taken): lines, events, active lines.  False if it was full. */
static bool pair_add(pair_t *tab, u32 *used, u64 a, u64 b, u64 lines,
                     u64 events, u64 alines) {
  u32 i = (u32)(((a * 31 + b) * 0x9E3779B97F4A7C15ull) >> 40) & (NPAIRS - 1);
  /* At most 3/4 full: the probe ends. */
  while (tab[i].a && (tab[i].a != a || tab[i].b != b))
    i = (i + 1) & (NPAIRS - 1);
  if (!tab[i].a && *used * 4 + 4 <= NPAIRS * 3) {
    tab[i].a = a;
    tab[i].b = b;
    ++*used;
  }
  if (!tab[i].a)
    return false;
  tab[i].lines += lines;
  tab[i].active_events += events;
  tab[i].active_lines += alines;
  return true;
}

/* The same on the table of the totals, under its lock. */
static void add_pair(u64 a, u64 b, u64 lines, u64 events, u64 alines) {
  hp_spin_lock(&pair_lock);
  if (!pairs)
    pairs = hp_mmap(NPAIRS * sizeof(pair_t));
  if (!pairs || !pair_add(pairs, &npairs_used, a, b, lines, events, alines))
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

/* The calling thread's id: its tid, but in the program's seccomp sandbox,
 * whose filter may kill for gettid (glibc's malloc and thread start make
 * none), a number from its thread pointer, above every tid (pid_max is at
 * most 2^22): it only has to differ between threads, and nothing after
 * the filter is written. */
static u32 thread_id(void) {
  if (hp_in_sandbox())
    return (u32)(hp_thread_pointer() >> 12) | 0x80000000u;
  return (u32)syscall(SYS_gettid);
}

/* A store by the calling thread to the object obj (context stack_id) on
 * the line key (a simulated line, or a real one with REAL_LINE set). */
static void store_line(u64 key, u64 stack_id, uptr obj) {
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
    my_tid = thread_id();
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

void hp_fshare_store(u32 pos, uptr offset, u64 stack_id, uptr obj) {
  u64 cls = (pos - 1) >> POS_BITS;
  u64 at = (u64)((pos - 1) & ((1u << POS_BITS) - 1)) * SLOT_ALIGN + offset;
  store_line((cls << 40 | at / HP_GRANULE_SIZE) + 1, stack_id, obj);
}

/* ------------------------------------------- the real layout (foreign) */

/* With allocator=system|PATH the objects have real addresses.  For active
 * sharing a store must find its object: an index of every live object by
 * its first and last line (its edge lines, the only ones another object
 * can share), in EDGE_STRIPES open-addressing tables keyed by line (one
 * line has a record per object on it: a multimap; linear probing,
 * backward-shift deletion), kept by the foreign path's allocations and
 * frees while false_sharing=1.  A line strictly inside an object holds no
 * other object, so it is not indexed and a store there is not followed. */
#define REAL_LINE (1ull << 63) /* in a line key: a real line */
#define EDGE_STRIPES 64u
#define EDGE_INITIAL 1024u

/* A record: the line (index + 1, 52 bits: any user address), and the
 * object's bytes on it, [lo, hi) of 64, in one word; 0: an empty slot.
 * On its line an object is known by lo, the offset of its first byte
 * there: two objects cannot share one.  16 bytes per record, two records
 * for an object over two lines or more. */
typedef struct edge {
  u64 key;
  u64 stack_id;
} edge_t;
#define EDGE_KEY(line1, lo, hi) ((line1) << 12 | (u64)(lo) << 6 | ((hi) - 1))
#define EDGE_LINE(k) ((k) >> 12)
#define EDGE_LO(k) (((k) >> 6) & 63)
#define EDGE_HI(k) (((k) & 63) + 1)

typedef struct edge_stripe {
  hp_spinlock_t lock;
  edge_t *slots;
  u64 cap, n;
} __attribute__((aligned(64))) edge_stripe_t;

static edge_stripe_t edge_stripes[EDGE_STRIPES];
/* Edges the index had no memory for (their stores are not followed). */
static u64 edges_dropped;

static HP_ALWAYS_INLINE u64 hash_line(u64 line) {
  return line * 0x9E3779B97F4A7C15ull;
}
static HP_ALWAYS_INLINE u64 edge_home(u64 h, u64 cap) {
  return (h >> 16) & (cap - 1);
}

static void edge_put(edge_t *slots, u64 cap, const edge_t *e) {
  u64 i = edge_home(hash_line(EDGE_LINE(e->key)), cap);
  while (slots[i].key)
    i = (i + 1) & (cap - 1);
  slots[i] = *e;
}

static void edge_insert(const edge_t *e) {
  edge_stripe_t *s = &edge_stripes[hash_line(EDGE_LINE(e->key)) >> 58];
  hp_spin_lock(&s->lock);
  if ((s->n + 1) * 4 > s->cap * 3) {
    u64 cap = s->cap ? s->cap * 2 : EDGE_INITIAL;
    edge_t *slots = hp_mmap(cap * sizeof(edge_t));
    if (!slots) {
      hp_spin_unlock(&s->lock);
      __atomic_fetch_add(&edges_dropped, 1, __ATOMIC_RELAXED);
      return;
    }
    for (u64 i = 0; i < s->cap; i++)
      if (s->slots[i].key)
        edge_put(slots, cap, &s->slots[i]);
    if (s->slots)
      hp_munmap(s->slots, s->cap * sizeof(edge_t));
    s->slots = slots;
    s->cap = cap;
  }
  edge_put(s->slots, s->cap, e);
  s->n++;
  hp_spin_unlock(&s->lock);
}

/* Takes out the record of the object whose bytes on line1 start at lo. */
static void edge_remove(u64 line1, u64 lo) {
  u64 h = hash_line(line1);
  edge_stripe_t *s = &edge_stripes[h >> 58];
  hp_spin_lock(&s->lock);
  if (!s->n) {
    hp_spin_unlock(&s->lock);
    return;
  }
  u64 mask = s->cap - 1, i = edge_home(h, s->cap);
  while (EDGE_LINE(s->slots[i].key) != line1 ||
         EDGE_LO(s->slots[i].key) != lo) {
    if (!s->slots[i].key) {
      hp_spin_unlock(&s->lock); /* not there (the index was full) */
      return;
    }
    i = (i + 1) & mask;
  }
  for (u64 j = (i + 1) & mask; s->slots[j].key; j = (j + 1) & mask) {
    u64 k = edge_home(hash_line(EDGE_LINE(s->slots[j].key)), s->cap);
    bool stays = i <= j ? (i < k && k <= j) : (i < k || k <= j);
    if (!stays) {
      s->slots[i] = s->slots[j];
      i = j;
    }
  }
  s->slots[i].key = 0;
  s->n--;
  hp_spin_unlock(&s->lock);
}

/* The indexed object holding the byte at addr: its context and the
 * address of its first byte on addr's line. */
static bool edge_find(uptr addr, u64 *stack_id, uptr *obj) {
  u64 line1 = addr / HP_GRANULE_SIZE + 1, off = addr % HP_GRANULE_SIZE;
  u64 h = hash_line(line1);
  edge_stripe_t *s = &edge_stripes[h >> 58];
  bool found = false;
  hp_spin_lock(&s->lock);
  if (s->n)
    for (u64 i = edge_home(h, s->cap); s->slots[i].key;
         i = (i + 1) & (s->cap - 1)) {
      u64 k = s->slots[i].key;
      if (EDGE_LINE(k) == line1 && EDGE_LO(k) <= off && off < EDGE_HI(k)) {
        *stack_id = s->slots[i].stack_id;
        *obj = (line1 - 1) * HP_GRANULE_SIZE + EDGE_LO(k);
        found = true;
        break;
      }
    }
  hp_spin_unlock(&s->lock);
  return found;
}


void hp_fshare_real_alloc(uptr beg, uptr size, u64 stack_id) {
  uptr last_byte = hp_obj_end(beg, size) - 1;
  u64 first = beg / HP_GRANULE_SIZE + 1, last = last_byte / HP_GRANULE_SIZE + 1;
  u64 lo = beg % HP_GRANULE_SIZE, hi = last_byte % HP_GRANULE_SIZE + 1;
  edge_t e = {EDGE_KEY(first, lo, first == last ? hi : HP_GRANULE_SIZE),
              stack_id};
  edge_insert(&e);
  if (last != first) {
    e.key = EDGE_KEY(last, 0, hi);
    edge_insert(&e);
  }
}

void hp_fshare_real_free(uptr beg, uptr size) {
  u64 first = beg / HP_GRANULE_SIZE + 1;
  u64 last = (hp_obj_end(beg, size) - 1) / HP_GRANULE_SIZE + 1;
  edge_remove(first, beg % HP_GRANULE_SIZE);
  if (last != first)
    edge_remove(last, 0);
}

void hp_fshare_store_real(uptr addr) {
  u64 stack_id;
  uptr obj;
  if (edge_find(addr, &stack_id, &obj))
    store_line(REAL_LINE | (addr / HP_GRANULE_SIZE), stack_id, obj);
}

/* Passive sharing on the real layout, measured at a dump over the live
 * objects: sorted by address, each object's first line is the line the
 * previous objects may have left open, as in the simulated model, but
 * with the objects the real allocator placed there (heapprof_liveset.h;
 * an object's thread is its aux word). */
static void collect(uptr addr, uptr size, u64 stack_id, u32 thread,
                    void *arg) {
  hp_liveset_add(arg, addr, size, stack_id, thread);
}

/* A real line: the objects on it (a line of 64 bytes holds at most 8
 * objects of 8 bytes and the tail of one more; REAL_PER_LINE is room to
 * spare) and the pairs already counted for it. */
#define REAL_PER_LINE 16u
typedef struct real_line {
  u64 line; /* index + 1; 0: none */
  u32 nocc, npairs;
  bool shared;
  occupant_t occ[REAL_PER_LINE];
  u64 pairs[REAL_PER_LINE * (REAL_PER_LINE - 1) / 2][2];
} real_line_t;

typedef struct real_totals {
  u64 objects, lines, shared_lines, dropped_pairs;
} real_totals_t;

static void real_join(real_line_t *l, const hp_live_obj_t *o, pair_t *tab,
                      u32 *used, real_totals_t *t) {
  bool cross = false;
  for (u32 k = 0; k < l->nocc; k++) {
    if (l->occ[k].tid == o->aux)
      continue;
    cross = true;
    u64 a = HP_MIN(l->occ[k].stack_id, o->stack_id);
    u64 b = HP_MAX(l->occ[k].stack_id, o->stack_id);
    bool seen = false;
    for (u32 j = 0; j < l->npairs && !seen; j++)
      seen = l->pairs[j][0] == a && l->pairs[j][1] == b;
    if (seen)
      continue;
    l->pairs[l->npairs][0] = a;
    l->pairs[l->npairs][1] = b;
    l->npairs++;
    if (!pair_add(tab, used, a, b, 1, 0, 0))
      t->dropped_pairs++;
  }
  if (cross && !l->shared) {
    l->shared = true;
    t->shared_lines++;
  }
  if (l->nocc < REAL_PER_LINE)
    l->occ[l->nocc++] = (occupant_t){(u32)o->aux, o->stack_id};
}

/* The live objects' lines and shared lines into *t, their pairs into tab. */
static void real_passive(const hp_live_set_t *ls, pair_t *tab, u32 *used,
                         real_totals_t *t) {
  static real_line_t l; /* under pair_lock: one dump at a time */
  hp_memset(&l, 0, sizeof(l));
  for (u64 i = 0; i < ls->n; i++) {
    const hp_live_obj_t *o = &ls->v[i];
    u64 first = o->beg / HP_GRANULE_SIZE + 1;
    u64 last = (hp_live_obj_end(o) - 1) / HP_GRANULE_SIZE + 1;
    u64 nlines = last - first + 1;
    t->objects++;
    if (first == l.line) {
      real_join(&l, o, tab, used, t);
      nlines--;
    }
    t->lines += nlines;
    if (last != l.line) {
      l.line = last;
      l.nocc = 1;
      l.occ[0] = (occupant_t){(u32)o->aux, o->stack_id};
      l.shared = false;
      l.npairs = 0;
    }
  }
}

/* Section 6 for the real layout: passive over the live objects now,
 * active since the start. */
static void real_section_write(hp_buf_t *b) {
  hp_live_set_t ls = {0};
  hp_foreign_for_each_object(collect, &ls);
  pair_t *tab = hp_mmap(NPAIRS * sizeof(pair_t));
  if (tab && !ls.failed && hp_liveset_sort(&ls)) {
    hp_spin_lock(&pair_lock);
    u32 used = 0;
    real_totals_t t = {0};
    t.dropped_pairs = totals.dropped_pairs;
    for (u32 i = 0; pairs && i < NPAIRS; i++)
      if (pairs[i].a && !pair_add(tab, &used, pairs[i].a, pairs[i].b, 0,
                                  pairs[i].active_events,
                                  pairs[i].active_lines))
        t.dropped_pairs++;
    real_passive(&ls, tab, &used, &t);
    u64 head[HP_FSHARE_HEAD_WORDS] = {
        t.objects,
        0,
        t.lines,
        t.shared_lines,
        __atomic_load_n(&totals.active_lines, __ATOMIC_RELAXED),
        __atomic_load_n(&totals.active_events, __ATOMIC_RELAXED),
        __atomic_load_n(&totals.same_object_events, __ATOMIC_RELAXED),
        t.dropped_pairs,
        ROW_WORDS,
        used};
    hp_buf_append(b, head, sizeof(head));
    for (u32 i = 0; i < NPAIRS; i++)
      if (tab[i].a)
        hp_buf_append(b, &tab[i], sizeof(tab[i]));
    u64 layout = HP_FSHARE_LAYOUT_REAL;
    hp_buf_append(b, &layout, 8);
    hp_spin_unlock(&pair_lock);
  }
  if (tab)
    hp_munmap(tab, NPAIRS * sizeof(pair_t));
  hp_liveset_free(&ls);
}

void hp_fshare_section_write(hp_buf_t *b, const hp_profile_info_t *info) {
  if (!hp_flags.false_sharing)
    return;
  if (hp_foreign_state == HP_FOREIGN_ON) {
    real_section_write(b);
    return;
  }
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
  u64 layout = HP_FSHARE_LAYOUT_SIMULATED;
  hp_buf_append(b, &layout, 8);
  hp_spin_unlock(&pair_lock);
}

void hp_fshare_lock_all(void) {
  for (u32 i = 0; i < NCLASSES; i++)
    hp_spin_lock(&classes[i].lock);
  for (u32 i = 0; i < NSTRIPES; i++)
    hp_spin_lock(&line_locks[i]);
  for (u32 i = 0; i < EDGE_STRIPES; i++)
    hp_spin_lock(&edge_stripes[i].lock);
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
  /* The index stays: the child's heap is the parent's. */
  for (u32 i = EDGE_STRIPES; i-- > 0;)
    hp_spin_unlock(&edge_stripes[i].lock);
  for (u32 i = NSTRIPES; i-- > 0;)
    hp_spin_unlock(&line_locks[i]);
  for (u32 i = NCLASSES; i-- > 0;)
    hp_spin_unlock(&classes[i].lock);
}
