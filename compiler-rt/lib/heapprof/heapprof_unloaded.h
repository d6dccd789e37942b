/*===- heapprof_unloaded.h - modules dlclose unloaded -------------------===
 *
 * Part of heapprof.  A stack captured while a shared object was loaded may
 * outlive the object: a plugin allocates, then is dlclose'd, and at the
 * dump its code is no longer in the process map.  dlclose is interposed:
 * the modules loaded before the call and gone after it are remembered
 * (path, load bias, build id, executable segments, when), and every
 * profile carries them -- the text profile's map and section 11 of the raw
 * profile (docs/formats.md) -- so the tools still symbolize their frames.
 * The module map (heapprof_procmap.h) lists them after the loaded ones, so
 * an address a loaded module holds now is taken as that module's.
 *===----------------------------------------------------------------------===*/
#ifndef HEAPPROF_UNLOADED_H
#define HEAPPROF_UNLOADED_H

#include "heapprof_internal.h"

/* The most modules remembered; later ones are counted as dropped. */
#define HP_UNLOADED_MAX 1024

/* Appends the remembered modules to m, the latest unloaded first. */
void hp_unloaded_append(hp_procmap_t *m);
/* Held across fork (heapprof_signals.c). */
void hp_unloaded_lock(void);
void hp_unloaded_unlock(void);
/* Section 11's payload: nothing when no module was unloaded. */
void hp_unloaded_write_section(hp_buf_t *b, const hp_profile_info_t *info);

#endif
