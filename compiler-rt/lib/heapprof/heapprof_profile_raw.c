/*===- heapprof_profile_raw.c - MemProf raw version 4 writer ------------===
 *
 * Part of heapprof.  See heapprof_profile_raw.h for the layout.
 *===----------------------------------------------------------------------===*/
#include "heapprof_internal.h"
#include "heapprof_ext_sections.h"

static void put64(hp_buf_t *b, u64 v) { hp_buf_append(b, &v, 8); }
static void put32(hp_buf_t *b, u32 v) { hp_buf_append(b, &v, 4); }
#define put_u64 put64
#define put_u32 put32

_Static_assert(0
#define HP_MIB_FIELD(type, name, raw) + sizeof(type)
#include "heapprof_mib_fields.inc"
#undef HP_MIB_FIELD
                   == HP_MEMPROF_MIB_SIZE,
               "MemInfoBlock must be 144 packed bytes (LLVM 19, raw v4)");

static void put_mib(hp_buf_t *b, const hp_mib_t *m) {
  size_t before = b->len;
#define HP_MIB_FIELD(type, name, raw) put_##type(b, m->name);
#include "heapprof_mib_fields.inc"
#undef HP_MIB_FIELD
  HP_CHECK(b->failed || b->len - before == HP_MEMPROF_MIB_SIZE);
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

void hp_profile_raw_write(hp_buf_t *b, const hp_hib_t *hibs, u32 n,
                          const hp_procmap_t *map, const hp_size_bins_t *bins,
                          const hp_profile_info_t *info, bool with_ext) {
  size_t start = b->len;
  /* Header, patched at the end. */
  for (int i = 0; i < 6; i++)
    put64(b, 0);
  size_t seg_off = b->len - start;
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
  size_t mib_off = b->len - start;
  put64(b, n);
  for (u32 i = 0; i < n; i++) {
    hp_mib_t m;
    hp_memcpy(&m, &hibs[i].mib, sizeof(m));
    m.access_histogram_size = 0;
    m.access_histogram = 0;
    put64(b, hibs[i].stack_id);
    put_mib(b, &m);
  }
  size_t stack_off = b->len - start;
  put64(b, n);
  for (u32 i = 0; i < n; i++) {
    u32 k = 0;
    const uptr *pcs = hp_stackdepot_get((u32)hibs[i].stack_id, &k);
    put64(b, hibs[i].stack_id);
    put64(b, pcs ? k : 0);
    for (u32 j = 0; pcs && j < k; j++)
      put64(b, pcs[j]);
  }
  if (with_ext) {
    size_t ext_start = b->len;
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
      put64(b, hibs[i].stack_id);
#define X(name, desc) put64(b, hibs[i].ext.name);
      HP_HIB_EXT_FIELDS(X)
#undef X
    }
    put_modules_and_bins(b, map, bins);
    hp_ext_sections_write(b, info);
    if (!b->failed) {
      u64 size = b->len - ext_start;
      hp_memcpy(b->data + ext_start + 16, &size, 8);
    }
  }
  if (b->failed)
    return;
  u64 header[6] = {HP_MEMPROF_RAW_MAGIC, HP_MEMPROF_RAW_VERSION,
                   b->len - start, seg_off, mib_off, stack_off};
  hp_memcpy(b->data + start, header, sizeof(header));
}
