/*===- heapprof_procmap.h - the process's loaded modules ----------------===
 *
 * Part of heapprof.  The modules (main program first, then shared objects)
 * with their load bias, executable segments and GNU build ids, read through
 * dl_iterate_phdr when a profile is written.  The text profile prints this
 * map; the raw profile's segment section is built from it; the symbolizer
 * uses it to turn PCs into (module, offset).
 *===----------------------------------------------------------------------===*/
#ifndef HEAPPROF_PROCMAP_H
#define HEAPPROF_PROCMAP_H

#define HP_MAX_BUILD_ID 32

typedef struct hp_segment {
  uptr start, end; /* load bias + p_vaddr, + p_memsz */
} hp_segment_t;

typedef struct hp_module {
  char path[512];
  uptr bias;
  u32 nsegs;
  hp_segment_t segs[4]; /* executable PT_LOADs */
  u32 build_id_size;
  u8 build_id[HP_MAX_BUILD_ID];
} hp_module_t;

typedef struct hp_procmap {
  hp_module_t *mods;
  u64 n, cap;
} hp_procmap_t;

/* Fills m (mmap'd storage); free with hp_procmap_free. */
void hp_procmap_read(hp_procmap_t *m);
void hp_procmap_free(hp_procmap_t *m);
/* The module whose executable segment holds pc, or NULL. */
const hp_module_t *hp_procmap_find(const hp_procmap_t *m, uptr pc);
/* Appends the text form: one line per executable segment. */
void hp_procmap_print(const hp_procmap_t *m, hp_buf_t *out);

#endif
