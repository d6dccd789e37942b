/*===- heapprof_opclass.h - allocator cost by operation class -----------===
 *
 * Part of heapprof.  Every allocator call is counted in one operation
 * class, and one call in cycle_sample_every of each kind (per thread) has
 * its TSC cycles added to its class's sum and log2 histogram:
 *
 *   class = ((op * 2 + large) * 3 + block) * 2 + parallel
 *
 *   op        malloc calloc realloc memalign new free delete   (0..6)
 *   large     0 small (a size class of the primary), 1 large (own mmap)
 *   block     0 none (frees, realloc(p, 0)), 1 new: never handed out
 *             before (carved from a region, or just mapped), 2 reused:
 *             from a thread cache or a region's free list, or kept in
 *             place by realloc
 *   parallel  1 when more than one thread had heapprof state at the call
 *
 * The tables live in each thread's state (a counter increment per call, no
 * shared cache line); a dump adds them up and writes the change since the
 * previous dump as tagged section 2 (docs/formats.md).
 *===----------------------------------------------------------------------===*/
#ifndef HEAPPROF_OPCLASS_H
#define HEAPPROF_OPCLASS_H

enum {
  HP_OP_MALLOC,
  HP_OP_CALLOC,
  HP_OP_REALLOC,
  HP_OP_MEMALIGN, /* memalign, posix_memalign, aligned_alloc, valloc, ... */
  HP_OP_NEW,      /* every operator new and new[] */
  HP_OP_FREE,
  HP_OP_DELETE,   /* every operator delete and delete[] */
  HP_NUM_OPS,
  /* The allocating and freeing halves of a realloc that moves its chunk:
   * the realloc call is counted and timed as one operation. */
  HP_OP_IN_REALLOC = HP_NUM_OPS,
};

enum { HP_BLOCK_NONE, HP_BLOCK_NEW, HP_BLOCK_REUSED };

#define HP_OPC_CLASS(op, large, block, parallel)                             \
  ((((u32)(op) * 2 + (large)) * 3 + (block)) * 2 + (parallel))
#define HP_OPC_NUM_CLASSES (HP_NUM_OPS * 12)
/* Bucket b counts cycles in [2^b, 2^(b+1)); the last also everything
 * above. */
#define HP_OPC_BUCKETS 32

typedef struct hp_opc_row {
  u64 count;   /* every call of the class */
  u64 sampled; /* calls whose cycles were measured */
  u64 cycles;  /* their sum */
  u64 hist[HP_OPC_BUCKETS];
} hp_opc_row_t;

/* One per thread, inside hp_thread_t: written by its thread only (the
 * shared fallback state: under its lock), read by dumps. */
typedef struct hp_opc_table {
  hp_opc_row_t rows[HP_OPC_NUM_CLASSES];
} hp_opc_table_t;

/* The op of an hp_allocate call: new for operator new, calloc when it
 * zeroes, memalign when an alignment was asked for, else malloc. */
static HP_ALWAYS_INLINE u8 hp_op_of_alloc(u8 kind, uptr align, bool zero) {
  return kind != HP_ALLOC_MALLOC ? HP_OP_NEW
         : zero                  ? HP_OP_CALLOC
         : align                 ? HP_OP_MEMALIGN
                                 : HP_OP_MALLOC;
}

/* Every call: one increment in the calling thread's table. */
static HP_ALWAYS_INLINE void hp_opclass_count(hp_opc_table_t *t, u32 cls) {
  t->rows[cls].count++;
}

/* A measured call: cycles into the class's sum and histogram. */
void hp_opclass_sample(hp_opc_table_t *t, u32 cls, u64 cycles);

/* Thread exit (registry lock held): the thread's table into the totals of
 * exited threads. */
void hp_opclass_thread_exit(const hp_opc_table_t *t);

/* A fork's child handler (registry lock free, dump lock held): the totals
 * so far are the parent's to write, so the child's first dump counts from
 * here. */
void hp_opclass_fork_child(void);

/* Section 2's writer (heapprof_ext_sections.c). */
struct hp_profile_info;
void hp_opclass_write_section(hp_buf_t *b, const struct hp_profile_info *info);

#endif
