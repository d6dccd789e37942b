/*===- heapprof_symbolize.h - PCs to functions and lines ----------------===
 *
 * Part of heapprof.  All PCs of a profile are symbolized in one batch when
 * the profile is written, never on the allocation path, by one
 * llvm-symbolizer process that lives for the whole run (dumps and error
 * reports share it).
 *===----------------------------------------------------------------------===*/
#ifndef HEAPPROF_SYMBOLIZE_H
#define HEAPPROF_SYMBOLIZE_H

typedef struct hp_symbols {
  uptr *pcs;      /* sorted, unique */
  u32 *offs;      /* frames of pcs[i]: text.data + offs[i], NUL-terminated,
                     "func file:line:col" lines, innermost inlined first */
  u32 n, cap;
  hp_buf_t text;
  bool ok;        /* the symbolizer ran */
} hp_symbols_t;

/* Symbolizes the unique PCs among pcs[0..n). */
void hp_symbolize(const uptr *pcs, u32 n, const hp_procmap_t *map,
                  hp_symbols_t *out);
void hp_symbols_free(hp_symbols_t *s);
/* Appends "    #k 0xPC in func file:line:col" lines for a stack. */
void hp_format_stack(hp_buf_t *b, const uptr *pcs, u32 n,
                     const hp_symbols_t *syms, const hp_procmap_t *map);
/* Symbolizes one stack on its own and formats it (error reports). */
void hp_symbolize_stack_text(hp_buf_t *b, const uptr *pcs, u32 n);
void hp_sort_uptr(uptr *a, u32 n);
/* At init: keeps PATH as the process started with it, where the
 * symbolizer is looked for later. */
void hp_symbolize_note_path(void);
/* pthread_atfork child handler: forget the parent's symbolizer. */
void hp_symbolizer_fork_child(void);

#endif
