/*===- heapprof_procmap.c - the process's loaded modules ----------------===
 *
 * Part of heapprof.
 *===----------------------------------------------------------------------===*/
#include "heapprof_internal.h"
#include "heapprof_unloaded.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <unistd.h>

static void add_build_id(hp_module_t *mod, const struct dl_phdr_info *info,
                         const ElfW(Phdr) *ph) {
  const char *p = (const char *)(info->dlpi_addr + ph->p_vaddr);
  const char *end = p + ph->p_memsz;
  while (p + sizeof(ElfW(Nhdr)) <= end) {
    const ElfW(Nhdr) *n = (const ElfW(Nhdr) *)p;
    const char *name = p + sizeof(*n);
    const char *desc = name + HP_ROUND_UP(n->n_namesz, 4);
    if (n->n_type == NT_GNU_BUILD_ID && n->n_namesz == 4 &&
        !hp_memcmp(name, "GNU", 4) && n->n_descsz <= HP_MAX_BUILD_ID) {
      mod->build_id_size = n->n_descsz;
      hp_memcpy(mod->build_id, desc, n->n_descsz);
      return;
    }
    p = desc + HP_ROUND_UP(n->n_descsz, 4);
  }
}

/* One line of /proc/self/maps, "start-end perms offset dev inode path":
 * its path into out when the line's range holds addr and the path is a
 * file's (absolute). */
static bool map_line_path(const char *l, uptr addr, char *out, size_t size) {
  const char *p = l;
  uptr lo = hp_parse_hex_prefix(&p);
  if (*p++ != '-')
    return false;
  uptr hi = hp_parse_hex_prefix(&p);
  if (addr < lo || addr >= hi)
    return false;
  const char *path = hp_strchr(p, '/'); /* the fields before hold none */
  if (!path)
    return false;
  hp_strlcpy(out, path, size);
  return true;
}

/* The path of the file mapped at addr, as the kernel's map of the process
 * gives it (absolute), into out; false, out untouched, if there is none.
 * Reads without allocating (dl_iterate_phdr's callback, dlclose). */
static bool mapped_path(uptr addr, char *out, size_t size) {
  int saved = errno;
  int fd = hp_open_proc_self("maps", O_RDONLY | O_CLOEXEC);
  bool found = false;
  if (fd >= 0) {
    char buf[4096], line[1024];
    size_t len = 0;
    bool too_long = false;
    while (!found) {
      ssize_t r = read(fd, buf, sizeof(buf));
      if (r < 0 && errno == EINTR)
        continue;
      if (r <= 0)
        break;
      for (ssize_t i = 0; i < r && !found; i++) {
        if (buf[i] != '\n') {
          if (len < sizeof(line) - 1)
            line[len++] = buf[i];
          else
            too_long = true;
          continue;
        }
        line[len] = 0;
        found = !too_long && map_line_path(line, addr, out, size);
        len = 0;
        too_long = false;
      }
    }
    close(fd);
  }
  errno = saved;
  return found;
}

static int visit(struct dl_phdr_info *info, size_t size, void *arg) {
  (void)size;
  hp_procmap_t *m = arg;
  if (m->n == m->cap &&
      !hp_array_try_grow((void **)&m->mods, &m->cap, m->n,
                         sizeof(hp_module_t), 32)) {
    m->failed = true;
    return 1; /* no room: the walk stops */
  }
  hp_module_t *mod = &m->mods[m->n];
  hp_memset(mod, 0, sizeof(*mod));
  const char *name = info->dlpi_name;
  if (m->n == 0 && (!name || !name[0]))
    name = hp_exe_path();
  hp_strlcpy(mod->path, name ? name : "", sizeof(mod->path));
  mod->bias = info->dlpi_addr;
  for (int i = 0; i < info->dlpi_phnum; i++) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X) &&
        mod->nsegs < HP_ARRAY_SIZE(mod->segs)) {
      mod->segs[mod->nsegs].start = info->dlpi_addr + ph->p_vaddr;
      mod->segs[mod->nsegs].end = info->dlpi_addr + ph->p_vaddr + ph->p_memsz;
      mod->nsegs++;
    } else if (ph->p_type == PT_NOTE && !mod->build_id_size) {
      add_build_id(mod, info, ph);
    }
  }
  /* dlopen("./libx.so") leaves the name relative to the directory the
   * program was in then: useless to a report run elsewhere, and wrong once
   * the program changes directory. The kernel's map names the file. (The
   * vDSO, "linux-vdso.so.1", is no file and keeps its name.) */
  if (mod->path[0] && mod->path[0] != '/' && mod->nsegs)
    mapped_path(mod->segs[0].start, mod->path, sizeof(mod->path));
  m->n++;
  return 0;
}

void hp_procmap_read_loaded(hp_procmap_t *m) {
  hp_memset(m, 0, sizeof(*m));
  dl_iterate_phdr(visit, m);
  m->nloaded = m->n;
}

void hp_procmap_read(hp_procmap_t *m) {
  hp_procmap_read_loaded(m);
  hp_unloaded_append(m);
}

void hp_procmap_free(hp_procmap_t *m) {
  if (m->mods)
    hp_munmap(m->mods, m->cap * sizeof(hp_module_t));
  hp_memset(m, 0, sizeof(*m));
}

const hp_module_t *hp_procmap_find(const hp_procmap_t *m, uptr pc) {
  for (u32 i = 0; i < m->n; i++)
    for (u32 s = 0; s < m->mods[i].nsegs; s++)
      if (pc >= m->mods[i].segs[s].start && pc < m->mods[i].segs[s].end)
        return &m->mods[i];
  return NULL;
}

void hp_procmap_print(const hp_procmap_t *m, hp_buf_t *out) {
  for (u32 i = 0; i < m->n; i++) {
    const hp_module_t *mod = &m->mods[i];
    for (u32 s = 0; s < mod->nsegs; s++) {
      hp_buf_printf(out, "\t0x%zx-0x%zx\t%s", (size_t)mod->segs[s].start,
                    (size_t)mod->segs[s].end,
                    mod->path[0] ? mod->path : "[anonymous]");
      if (mod->build_id_size) {
        hp_buf_printf(out, " (BuildId: ");
        for (u32 b = 0; b < mod->build_id_size; b++)
          hp_buf_printf(out, "%02x", mod->build_id[b]);
        hp_buf_printf(out, ")");
      }
      if (mod->unloaded)
        hp_buf_printf(out, " (unloaded at %u ms)", mod->unloaded_ms);
      hp_buf_printf(out, "\n");
    }
  }
}
