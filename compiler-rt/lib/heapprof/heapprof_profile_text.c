/*===- heapprof_profile_text.c - the human-readable profile -------------===
 *
 * Part of heapprof.  See heapprof_profile_text.h for the layout.  Averages
 * are integer arithmetic printed with two decimals (total * 100 / count),
 * as upstream does, so the text and the raw profile agree exactly.
 *===----------------------------------------------------------------------===*/
#include "heapprof_internal.h"

static void ave(hp_buf_t *b, u64 total, u64 count) {
  if (!count) {
    hp_buf_printf(b, "n/a");
    return;
  }
  u64 v = (u64)(((unsigned __int128)total * 100) / count);
  hp_buf_printf(b, "%llu.%02llu", (unsigned long long)(v / 100),
                (unsigned long long)(v % 100));
}

/* "n/a" alone when there is no whole: not "n/a%". */
static void percent(hp_buf_t *b, u64 part, u64 whole) {
  ave(b, part * 100, whole);
  if (whole)
    hp_buf_printf(b, "%%");
}

void hp_text_utilization(hp_buf_t *b, u64 line_bytes, u64 touched_lines,
                         u64 lines, u64 page_bytes, u64 touched_pages,
                         u64 pages) {
  hp_buf_printf(b, "lines ");
  percent(b, line_bytes, touched_lines * HP_GRANULE_SIZE);
  hp_buf_printf(b, " (%llu live bytes on %llu touched of %llu lines), pages ",
                (unsigned long long)line_bytes,
                (unsigned long long)touched_lines, (unsigned long long)lines);
  percent(b, page_bytes, touched_pages * HP_PAGE_SIZE);
  hp_buf_printf(b, " (%llu live bytes on %llu touched of %llu pages)\n",
                (unsigned long long)page_bytes,
                (unsigned long long)touched_pages, (unsigned long long)pages);
}

static void verbose_block(hp_buf_t *b, const hp_hib_t *h) {
  const hp_mib_t *m = &h->mib;
  const hp_hib_ext_t *x = &h->ext;
  u64 n = m->alloc_count;
  hp_buf_printf(b, "Memory allocation stack id = %llu\n",
                (unsigned long long)h->stack_id);
  hp_buf_printf(b, "\talloc_count %u, size (ave/min/max) ", m->alloc_count);
  ave(b, m->total_size, n);
  hp_buf_printf(b, " / %u / %u\n", m->min_size, m->max_size);
  hp_buf_printf(b, "\taccess_count (ave/min/max): ");
  ave(b, m->total_access_count, n);
  hp_buf_printf(b, " / %llu / %llu\n", (unsigned long long)m->min_access_count,
                (unsigned long long)m->max_access_count);
  hp_buf_printf(b, "\tlifetime (ave/min/max): ");
  ave(b, m->total_lifetime, n);
  hp_buf_printf(b, " / %u / %u\n", m->min_lifetime, m->max_lifetime);
  hp_buf_printf(b,
                "\tnum migrated: %u, num lifetime overlaps: %u, num same alloc "
                "cpu: %u, num same dealloc_cpu: %u\n",
                m->num_migrated_cpu, m->num_lifetime_overlaps,
                m->num_same_alloc_cpu, m->num_same_dealloc_cpu);
  hp_buf_printf(b, "\taccess density (ave/min/max): ");
  ave(b, m->total_access_density, n);
  hp_buf_printf(b, " / %u / %u\n", m->min_access_density, m->max_access_density);
  /* Summed per object: a page holding k of the context's objects counts k
   * times.  The next line counts each line and page once. */
  hp_buf_printf(b, "\ttouched per object: lines ");
  percent(b, x->touched_granules, x->granules);
  hp_buf_printf(b, " (%llu of %llu), pages ",
                (unsigned long long)x->touched_granules,
                (unsigned long long)x->granules);
  percent(b, x->touched_pages, x->pages);
  hp_buf_printf(b, " (%llu of %llu)\n", (unsigned long long)x->touched_pages,
                (unsigned long long)x->pages);
  hp_buf_printf(b, "\tlive utilization: ");
  hp_text_utilization(b, x->live_line_bytes, x->live_touched_lines,
                      x->live_lines, x->live_page_bytes,
                      x->live_touched_pages, x->live_pages);
  hp_buf_printf(b, "\tallocator cycles (ave of sampled calls): malloc ");
  ave(b, x->malloc_cycles, x->malloc_samples);
  hp_buf_printf(b, " (%llu sampled), free ", (unsigned long long)x->malloc_samples);
  ave(b, x->free_cycles, x->free_samples);
  hp_buf_printf(b, " (%llu sampled)", (unsigned long long)x->free_samples);
  hp_buf_printf(b, "\n\tlive at dump: %llu, continued from earlier dumps: "
                   "%llu, live bytes: %llu",
                (unsigned long long)x->live_at_dump,
                (unsigned long long)x->continuations,
                (unsigned long long)x->live_bytes);
  /* Sampled mode sees only the sampled allocations: no temporaries. */
  if (!hp_sample_bytes)
    hp_buf_printf(b, ", temporary: %llu", (unsigned long long)x->temporary);
  hp_buf_printf(b, "\n");
  if (x->peak_objects)
    hp_buf_printf(b, "\tat the peak: %llu objects, %llu bytes\n",
                  (unsigned long long)x->peak_objects,
                  (unsigned long long)x->peak_bytes);
}

/* The terse line is for scripts: every one of its 16 fields is a number.
 * An average over no objects (a context whose objects an earlier checkpoint
 * already counted: alloc_count 0) is 0.00 there, not n/a. */
static void terse_ave(hp_buf_t *b, u64 total, u64 count) {
  if (count)
    ave(b, total, count);
  else
    hp_buf_printf(b, "0.00");
}

static void terse_line(hp_buf_t *b, const hp_hib_t *h) {
  const hp_mib_t *m = &h->mib;
  u64 n = m->alloc_count;
  hp_buf_printf(b, "MIB:%llu/%u/", (unsigned long long)h->stack_id,
                m->alloc_count);
  terse_ave(b, m->total_size, n);
  hp_buf_printf(b, "/%u/%u/", m->min_size, m->max_size);
  terse_ave(b, m->total_access_count, n);
  hp_buf_printf(b, "/%llu/%llu/", (unsigned long long)m->min_access_count,
                (unsigned long long)m->max_access_count);
  terse_ave(b, m->total_lifetime, n);
  hp_buf_printf(b, "/%u/%u/%u/%u/%u/%u/%llu\n", m->min_lifetime,
                m->max_lifetime, m->num_migrated_cpu, m->num_lifetime_overlaps,
                m->num_same_alloc_cpu, m->num_same_dealloc_cpu,
                (unsigned long long)h->ext.live_at_dump);
}

void hp_profile_text_write(hp_buf_t *b, const hp_profile_info_t *info,
                           const hp_hib_t *const *hibs, u32 n,
                           const hp_procmap_t *map, const hp_symbols_t *syms) {
  hp_buf_printf(b, "HeapProf profile: %s pid %u, %s, dump %u, %u ms\n",
                hp_exe_run_path(), info->pid, info->reason, info->seq,
                info->now_ms);
  if (hp_sample_bytes)
    hp_buf_printf(b, "Estimated, sampled at %llu bytes (sample_bytes): counts, "
                     "sizes and lifetimes estimate the whole program's; "
                     "accesses were counted on the sampled objects only\n",
                  (unsigned long long)hp_sample_bytes);
  if (hp_flags.print_module_map) {
    hp_buf_printf(b, "Process memory map:\n");
    hp_procmap_print(map, b);
  }
  if (!hp_flags.print_terse)
    hp_buf_printf(b, "Recorded MIBs (incl. live on exit):\n");
  u64 allocs = 0, bytes = 0, accesses = 0;
  for (u32 i = 0; i < n; i++) {
    if (hp_flags.print_terse)
      terse_line(b, hibs[i]);
    else
      verbose_block(b, hibs[i]);
    allocs += hibs[i]->mib.alloc_count;
    bytes += hibs[i]->mib.total_size;
    accesses += hibs[i]->mib.total_access_count;
  }
  for (u32 i = 0; i < n; i++) {
    u32 size;
    uptr pcs[HP_MAX_STACK_DEPTH];
    bool known = hp_stackdepot_get((u32)hibs[i]->stack_id, pcs, &size);
    hp_buf_printf(b, "Stack for id %llu:\n",
                  (unsigned long long)hibs[i]->stack_id);
    if (known)
      hp_format_stack(b, pcs, size, syms, map);
    hp_buf_printf(b, "\n");
  }
  hp_util_text(b);
  hp_peak_print_text(b);
  hp_buf_printf(b,
                "Summary: %u contexts, %llu allocations, %llu bytes, %llu "
                "accesses, %llu HIB table evictions\n",
                n, (unsigned long long)allocs, (unsigned long long)bytes,
                (unsigned long long)accesses,
                (unsigned long long)info->evictions);
}
