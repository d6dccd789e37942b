/*===- heapprof_profile_text.h - the human-readable profile -------------===
 *
 * Part of heapprof.  Layout (\t is a TAB):
 *
 *   HeapProf profile: <path run by> pid <pid>, <reason>, dump <seq>, <ms> ms
 *   Process memory map:                                 (print_module_map)
 *   \t0xSTART-0xEND\t<module path> (BuildId: <hex>)
 *   Recorded MIBs (incl. live on exit):
 *   Memory allocation stack id = <id>                   one block per context
 *   \talloc_count N, size (ave/min/max) A.AA / MIN / MAX
 *   \taccess_count (ave/min/max): A.AA / MIN / MAX
 *   \tlifetime (ave/min/max): A.AA / MIN / MAX
 *   \tnum migrated: N, num lifetime overlaps: N, num same alloc cpu: N, num same dealloc_cpu: N
 *   \taccess density (ave/min/max): A.AA / MIN / MAX
 *   \ttouched per object: lines P.PP% (T of G), pages P.PP% (T of G)
 *   \tlive utilization: lines P.PP% (B live bytes on T touched of L lines), pages P.PP% (B live bytes on T touched of P pages)
 *   \tallocator cycles (ave): malloc A.AA, free A.AA
 *   \tlive at dump: N, continued from earlier dumps: N
 *   \tat the peak: N objects, B bytes                   (if it held any)
 *   Stack for id <id>:                                  after all blocks
 *   \    #k 0xPC in func file:line:col
 *   Heap utilization: lines P.PP% (B live bytes on T touched of L lines), pages ...   (heap_utilization)
 *   Peak: B bytes (K bytes of blocks), ...               (peak=1)
 *   Summary: ...
 *
 * The first five lines of a block are upstream MemProf's text shape; the
 * rest are heapprof's.  print_terse gives one line per context instead of
 * the block: upstream's terse form plus live-at-dump, all 16 fields numbers:
 *
 *   MIB:<id>/<count>/<ave size>/<min>/<max>/<ave acc>/<min>/<max>/
 *       <ave life>/<min>/<max>/<migrated>/<overlaps>/<same alloc cpu>/
 *       <same dealloc cpu>/<live at dump>
 *===----------------------------------------------------------------------===*/
#ifndef HEAPPROF_PROFILE_TEXT_H
#define HEAPPROF_PROFILE_TEXT_H

typedef struct hp_profile_info hp_profile_info_t;

struct hp_profile_info {
  const char *reason;  /* "exit", "checkpoint", "error", ... */
  u32 seq;
  u32 now_ms;
  u32 pid;
  u64 evictions;
  /* The dump's number in this process image (1, 2, ...): the raw profile
   * is made again for each destination write_profile tries, and a section
   * of what changed since the previous dump (2, 3, 4) makes the same rows
   * each time for the same dump. */
  u64 dump;
};

void hp_profile_text_write(hp_buf_t *out, const hp_profile_info_t *info,
                           const hp_hib_t *const *hibs, u32 n,
                           const hp_procmap_t *map, const hp_symbols_t *syms);

/* "lines P% (B live bytes on T touched of N lines), pages ...\n": the
 * utilization line of a context and of the whole heap (heapprof_util.c). */
void hp_text_utilization(hp_buf_t *b, u64 line_bytes, u64 touched_lines,
                         u64 lines, u64 page_bytes, u64 touched_pages,
                         u64 pages);

#endif
