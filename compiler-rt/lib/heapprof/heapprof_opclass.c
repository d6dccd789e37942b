/*===- heapprof_opclass.c - allocator cost by operation class -----------===
 *
 * Part of heapprof.  See heapprof_opclass.h for the classes.  The counting
 * is in the allocator's hooks (an increment in the calling thread's
 * table); this file adds up the tables at a dump and writes section 2:
 *
 *   u64 nbuckets (HP_OPC_BUCKETS), u64 nrows,
 *   nrows x { u64 class, count, sampled, cycle sum, nbuckets x u64 }
 *
 * rows in ascending class order, only classes with calls since the
 * previous dump; every number is the change since that dump.
 *===----------------------------------------------------------------------===*/
#include "heapprof_internal.h"

/* Exited threads' tables, added up: under the thread registry lock. */
static hp_opc_table_t dead;
/* The totals at the previous dump and the scratch sum of this one: under
 * the dump lock (section writers run only inside a dump).  base and
 * made_for: the dump whose section was made last, and its previous
 * dump's totals, for the same rows when it is made again (write_profile
 * makes the raw profile once for each destination it tries). */
static hp_opc_table_t last, sum, base;
static u64 made_for;

static void add_table(hp_opc_table_t *dst, const hp_opc_table_t *src) {
  u64 *d = (u64 *)dst;
  const u64 *s = (const u64 *)src;
  for (uptr i = 0; i < sizeof(*dst) / 8; i++)
    d[i] += s[i];
}

void hp_opclass_sample(hp_opc_table_t *t, u32 cls, u64 cycles) {
  hp_opc_row_t *r = &t->rows[cls];
  r->sampled++;
  r->cycles += cycles;
  u32 b = 63 - (u32)__builtin_clzll(cycles | 1);
  r->hist[b < HP_OPC_BUCKETS ? b : HP_OPC_BUCKETS - 1]++;
}

void hp_opclass_thread_exit(const hp_opc_table_t *t) { add_table(&dead, t); }

typedef struct sum_ctx {
  hp_opc_table_t *out;
  bool dead_added;
} sum_ctx_t;

static void add_thread(hp_thread_t *t, void *arg) {
  sum_ctx_t *c = arg;
  if (!c->dead_added) {
    add_table(c->out, &dead); /* under the same registry lock */
    c->dead_added = true;
  }
  add_table(c->out, &t->opc);
}

/* The change of a counter since the last dump.  A forked child lost its
 * parent's other threads, so a total may go down: that is no change. */
static u64 delta(u64 now, u64 before) { return now > before ? now - before : 0; }

/* sum: every thread's table and the exited threads'. */
static void add_all(void) {
  hp_memset(&sum, 0, sizeof(sum));
  sum_ctx_t c = {&sum, false};
  hp_thread_for_each(add_thread, &c);
}

void hp_opclass_fork_child(void) {
  if (!hp_flags.op_classes)
    return;
  add_all();
  hp_memcpy(&last, &sum, sizeof(last));
}

void hp_opclass_write_section(hp_buf_t *b,
                              const struct hp_profile_info *info) {
  if (!hp_flags.op_classes)
    return;
  if (info->dump != made_for) {
    add_all();
    hp_memcpy(&base, &last, sizeof(base));
    hp_memcpy(&last, &sum, sizeof(last));
    made_for = info->dump;
  }
  u64 nrows = 0;
  for (u32 k = 0; k < HP_OPC_NUM_CLASSES; k++)
    nrows += delta(sum.rows[k].count, base.rows[k].count) ||
             delta(sum.rows[k].sampled, base.rows[k].sampled);
  if (nrows) {
    u64 head[2] = {HP_OPC_BUCKETS, nrows};
    hp_buf_append(b, head, sizeof(head));
    for (u32 k = 0; k < HP_OPC_NUM_CLASSES; k++) {
      const hp_opc_row_t *n = &sum.rows[k], *o = &base.rows[k];
      if (!delta(n->count, o->count) && !delta(n->sampled, o->sampled))
        continue;
      u64 row[4 + HP_OPC_BUCKETS] = {k, delta(n->count, o->count),
                                     delta(n->sampled, o->sampled),
                                     delta(n->cycles, o->cycles)};
      for (u32 i = 0; i < HP_OPC_BUCKETS; i++)
        row[4 + i] = delta(n->hist[i], o->hist[i]);
      hp_buf_append(b, row, sizeof(row));
    }
  }
}
