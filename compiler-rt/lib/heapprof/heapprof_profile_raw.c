/*===- heapprof_profile_raw.c - MemProf raw version 4 writer ------------===
 *
 * Part of heapprof.  See heapprof_profile_raw.h for the layout.
 *===----------------------------------------------------------------------===*/
#include "heapprof_internal.h"
#include "heapprof_ext_sections.h"

static void put64(hp_buf_t *b, u64 v) { hp_buf_append(b, &v, 8); }
_Static_assert(sizeof(uptr) == 8, "section 3's frames are the depot's pcs");

_Static_assert(0
#define HP_MIB_FIELD(type, name, raw) + sizeof(type)
#include "heapprof_mib_fields.inc"
#undef HP_MIB_FIELD
                   == HP_MEMPROF_MIB_SIZE,
               "MemInfoBlock must be 144 packed bytes (LLVM 19, raw v4)");

/* A record of section 2: the stack id, then the block's fields packed,
 * assembled here and appended once (a dump of 100,000 contexts made 2.8
 * million appends of 4 and 8 bytes). */
static void put_mib_record(hp_buf_t *b, u64 stack_id, const hp_mib_t *m) {
  u8 rec[8 + HP_MEMPROF_MIB_SIZE];
  u8 *at = rec;
  hp_memcpy(at, &stack_id, 8);
  at += 8;
#define HP_MIB_FIELD(type, name, raw)                                          \
  {                                                                            \
    type v = m->name;                                                          \
    hp_memcpy(at, &v, sizeof(v));                                              \
    at += sizeof(v);                                                           \
  }
#include "heapprof_mib_fields.inc"
#undef HP_MIB_FIELD
  HP_CHECK(at == rec + sizeof(rec));
  hp_buf_append(b, rec, sizeof(rec));
}

/* Extension version 2's per-dump sections: the modules, then the non-empty
 * size bins. */
static void put_modules_and_bins(hp_buf_t *b, const hp_procmap_t *map,
                                 const hp_size_bins_t *bins) {
  put64(b, map->nloaded);
  for (u32 i = 0; i < map->nloaded; i++) {
    const hp_module_t *m = &map->mods[i];
    u8 id[HP_MAX_BUILD_ID] = {0};
    hp_memcpy(id, m->build_id, m->build_id_size);
    put64(b, m->bias);
    put64(b, m->build_id_size);
    hp_buf_append(b, id, sizeof(id));
    u64 len = hp_strlen(m->path);
    static const u8 zeros[8];
    put64(b, len);
    hp_buf_append(b, m->path, len);
    hp_buf_append(b, zeros, HP_ROUND_UP(len, 8) - len);
  }
  u64 nbins = 0;
  for (u32 i = 0; i < HP_NUM_SIZE_BINS; i++)
    nbins += bins->allocs[i] || bins->frees[i];
  put64(b, nbins);
  for (u32 i = 0; i < HP_NUM_SIZE_BINS; i++) {
    if (!bins->allocs[i] && !bins->frees[i])
      continue;
    put64(b, i);
    put64(b, bins->allocs[i]);
    put64(b, hp_size_bins_bytes(bins, i, false));
    put64(b, bins->frees[i]);
    put64(b, hp_size_bins_bytes(bins, i, true));
  }
}

void hp_profile_raw_write(hp_buf_t *b, const hp_hib_t *const *hibs, u32 n,
                          const hp_procmap_t *map, const hp_size_bins_t *bins,
                          const hp_profile_info_t *info, bool with_ext) {
  /* Positions (hp_buf_pos): b may be streamed, drained between records. */
  u64 start = hp_buf_pos(b);
  /* Header, patched at the end. */
  for (int i = 0; i < 6; i++)
    put64(b, 0);
  u64 seg_off = hp_buf_pos(b) - start;
  /* The loaded modules: the unloaded ones are section 11's, where
   * llvm-profdata does not look (their addresses may be a loaded
   * module's now). */
  u64 nsegs = 0;
  for (u32 i = 0; i < map->nloaded; i++)
    nsegs += map->mods[i].nsegs;
  put64(b, nsegs);
  for (u32 i = 0; i < map->nloaded; i++) {
    const hp_module_t *m = &map->mods[i];
    for (u32 s = 0; s < m->nsegs; s++) {
      u8 id[HP_MAX_BUILD_ID] = {0};
      hp_memcpy(id, m->build_id, m->build_id_size);
      put64(b, m->segs[s].start);
      put64(b, m->segs[s].end);
      put64(b, m->bias);
      put64(b, m->build_id_size);
      hp_buf_append(b, id, sizeof(id));
    }
  }
  u64 mib_off = hp_buf_pos(b) - start;
  put64(b, n);
  for (u32 i = 0; i < n; i++) {
    hp_buf_drain_if_full(b);
    hp_mib_t m;
    hp_memcpy(&m, &hibs[i]->mib, sizeof(m));
    m.access_histogram_size = 0;
    m.access_histogram = 0;
    put_mib_record(b, hibs[i]->stack_id, &m);
  }
  u64 stack_off = hp_buf_pos(b) - start;
  put64(b, n);
  for (u32 i = 0; i < n; i++) {
    hp_buf_drain_if_full(b);
    u32 k = 0;
    uptr pcs[HP_MAX_STACK_DEPTH];
    bool known = hp_stackdepot_get((u32)hibs[i]->stack_id, pcs, &k);
    u64 head[2] = {hibs[i]->stack_id, known ? k : 0};
    hp_buf_append(b, head, sizeof(head));
    if (known)
      hp_buf_append(b, pcs, (size_t)k * sizeof(uptr));
  }
  if (with_ext) {
    u64 ext_start = hp_buf_pos(b);
    u64 nfields = 0;
#define X(name, desc) nfields++;
    HP_HIB_EXT_FIELDS(X)
#undef X
    put64(b, HP_EXT_MAGIC);
    put64(b, HP_EXT_VERSION);
    put64(b, 0); /* size, patched below */
    put64(b, info->seq);
    put64(b, info->now_ms);
    put64(b, info->pid);
    put64(b, info->evictions);
    put64(b, nfields);
    put64(b, n);
    for (u32 i = 0; i < n; i++) {
      u64 rec[] = {hibs[i]->stack_id,
#define X(name, desc) hibs[i]->ext.name,
                   HP_HIB_EXT_FIELDS(X)
#undef X
      };
      hp_buf_append(b, rec, sizeof(rec));
      hp_buf_drain_if_full(b);
    }
    /* The rest is written whole into b (the sections leave out an empty
     * one by cutting b back): not drained until it is all there. */
    put_modules_and_bins(b, map, bins);
    hp_ext_sections_write(b, info);
    if (!b->failed) {
      u64 size = hp_buf_pos(b) - ext_start;
      hp_buf_patch(b, ext_start + 16, &size, 8);
    }
  }
  if (b->failed)
    return;
  u64 header[6] = {HP_MEMPROF_RAW_MAGIC, HP_MEMPROF_RAW_VERSION,
                   hp_buf_pos(b) - start, seg_off, mib_off, stack_off};
  hp_buf_patch(b, start, header, sizeof(header));
}
