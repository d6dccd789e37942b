/*===- heapprof_procmap.h - the process's loaded modules ----------------===
 *
 * Part of heapprof.  The modules (main program first, then shared objects)
 * with their load bias, executable segments and GNU build ids, read through
 * dl_iterate_phdr when a profile is written, then the modules dlclose
 * unloaded before (heapprof_unloaded.h), the latest first.  The text
 * profile prints this map; the raw profile's segment section is built from
 * its loaded part; the symbolizer uses it to turn PCs into (module,
 * offset).
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
  bool unloaded;   /* dlclose unloaded it, at unloaded_ms since start */
  u32 unloaded_ms;
} hp_module_t;

typedef struct hp_procmap {
  hp_module_t *mods;
  u64 n, cap;
  u64 nloaded; /* mods[0, nloaded) are loaded, the rest unloaded */
  bool failed; /* a mapping was refused: modules are missing */
} hp_procmap_t;

/* Fills m (mmap'd storage) with the loaded modules, then the unloaded
 * ones; free with hp_procmap_free. */
void hp_procmap_read(hp_procmap_t *m);
/* The loaded modules only. */
void hp_procmap_read_loaded(hp_procmap_t *m);
void hp_procmap_free(hp_procmap_t *m);
/* The module whose executable segment holds pc, or NULL: a loaded one
 * before an unloaded one, the latest unloaded before an earlier one. */
const hp_module_t *hp_procmap_find(const hp_procmap_t *m, uptr pc);
/* Appends the text form: one line per executable segment, an unloaded
 * module's marked "(unloaded at N ms)". */
void hp_procmap_print(const hp_procmap_t *m, hp_buf_t *out);

#endif
