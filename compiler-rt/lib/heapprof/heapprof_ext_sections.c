/*===- heapprof_ext_sections.c - tagged sections of the extension -------===
 *
 * Part of heapprof.  See heapprof_ext_sections.h.
 *===----------------------------------------------------------------------===*/
#include "heapprof_ext_sections.h"
#include "heapprof_leaks.h"
#include "heapprof_unloaded.h"

/* Section 14: u64 flags (bit 0: the command line was longer than the
 * runtime keeps), u64 argc, u64 length L, then the L bytes of the
 * arguments (each ending in a NUL), NULs to 8 bytes.  Left out when
 * /proc/self/cmdline could not be read. */
static void write_command(hp_buf_t *b, const hp_profile_info_t *info) {
  (void)info;
  u64 len, argc;
  bool truncated;
  const char *cmd = hp_exe_command(&len, &argc, &truncated);
  if (!argc)
    return;
  u64 head[3] = {truncated ? 1 : 0, argc, len};
  hp_buf_append(b, head, sizeof(head));
  hp_buf_append(b, cmd, len);
  static const char pad[8];
  if (len % 8)
    hp_buf_append(b, pad, 8 - len % 8);
}

/* Section 15: u64 length L, the L bytes of the path the program was run
 * by, a NUL, NULs to 8 bytes.  Left out when that is the executable's own
 * path (hp_exe_run_path_differs): readers then name the program by the
 * main module's path. */
static void write_run_path(hp_buf_t *b, const hp_profile_info_t *info) {
  (void)info;
  if (!hp_exe_run_path_differs())
    return;
  const char *path = hp_exe_run_path();
  u64 len = hp_strlen(path);
  hp_buf_append(b, &len, 8);
  hp_buf_append(b, path, len);
  static const char pad[8];
  hp_buf_append(b, pad, 8 - len % 8);
}

/* One row per section, in ascending tag order.  A feature adds its row and
 * its writer; the list ends with the {0, NULL} sentinel. */
static const struct {
  u64 tag;
  hp_ext_section_writer_t *write;
} sections[] = {
    {HP_EXT_SEC_PEAK, hp_peak_write_section},
    {HP_EXT_SEC_OP_CLASSES, hp_opclass_write_section},
    {HP_EXT_SEC_SYSCALLS, hp_syscalls_write_section},
    {HP_EXT_SEC_PMU, hp_pmu_write_section},
    {HP_EXT_SEC_OVERHEAD, hp_peak_write_overhead},
    {HP_EXT_SEC_FALSE_SHARING, hp_fshare_section_write},
    {HP_EXT_SEC_UTILIZATION, hp_util_section_write},
    {HP_EXT_SEC_SAMPLED, hp_sample_write_section},
    {HP_EXT_SEC_TIMELINE, hp_timeline_write_section},
    {HP_EXT_SEC_LEAKS, hp_leaks_write_section},
    {HP_EXT_SEC_UNLOADED, hp_unloaded_write_section},
    {HP_EXT_SEC_STACKS, hp_stack_write_section},
    {HP_EXT_SEC_ALLOCATOR, hp_foreign_write_section},
    {HP_EXT_SEC_COMMAND, write_command},
    {HP_EXT_SEC_RUN_PATH, write_run_path},
    {0, NULL},
};

void hp_ext_sections_write(hp_buf_t *b, const hp_profile_info_t *info) {
  size_t count_at = b->len;
  u64 n = 0, zero = 0;
  hp_buf_append(b, &zero, 8);
  for (u32 i = 0; sections[i].write; i++) {
    size_t start = b->len;
    hp_buf_append(b, &sections[i].tag, 8);
    hp_buf_append(b, &zero, 8);
    sections[i].write(b, info);
    if (b->failed)
      return;
    u64 size = b->len - start - 16;
    HP_CHECK(size % 8 == 0);
    if (!size) {
      b->len = start; /* nothing to say: leave the section out */
      continue;
    }
    hp_memcpy(b->data + start + 8, &size, 8);
    n++;
  }
  if (!b->failed)
    hp_memcpy(b->data + count_at, &n, 8);
}
