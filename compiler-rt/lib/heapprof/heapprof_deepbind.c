/*===- heapprof_deepbind.c - libraries opened with RTLD_DEEPBIND --------===
 *
 * Part of heapprof.  dlopen(..., RTLD_DEEPBIND) binds the library, and every
 * object loaded with it, to its own dependencies before the global scope:
 * its malloc is glibc's, past heapprof's (preloaded, or exported by an
 * instrumented executable).  A block the library allocated and the program
 * freed was "not allocated by heapprof" (an invalid-free report, then an
 * abort), and a block of heapprof's the library freed went to glibc's free,
 * which takes heapprof's chunk header for its own.  On glibc alone both
 * work.  (ASan refuses such a dlopen outright.)
 *
 * So dlopen is interposed (both runtimes).  Without RTLD_DEEPBIND it is a
 * tail call: the loader sees the program's return address, which chooses
 * the namespace and, for a name without a slash or with $ORIGIN, the
 * caller's RPATH/RUNPATH.  With it:
 *  - the name is first resolved as from the caller (caller_path), since the
 *    call now comes from heapprof;
 *  - after the real dlopen, every object it loaded has its references to
 *    the functions heapprof replaces (heapprof_replaced.inc) that the
 *    global scope binds to heapprof pointed there, as they would be without
 *    RTLD_DEEPBIND; its other references keep the deep binding
 *    (redirect_object);
 *  - its constructors ran inside dlopen, before that, on glibc's malloc:
 *    once such a library was opened, a pointer outside every mapping of
 *    heapprof's that the program frees, reallocates or measures goes to
 *    glibc's (heapprof_allocator.c).  Those blocks are not in the profile.
 * A library opened into another namespace (dlmopen, or a caller that lives
 * in one) binds to that namespace's libc, as without heapprof; it is only
 * resolved, not redirected.
 *===----------------------------------------------------------------------===*/
#include "heapprof_internal.h"

#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <link.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

bool hp_deepbind_opened;

typedef void *(*dlopen_fn)(const char *, int);
static dlopen_fn real_dlopen;

/* ------------------------------------------------------ glibc's own calls */

static struct {
  void (*free)(void *);
  void *(*realloc)(void *, size_t);
  size_t (*usable_size)(void *);
  int (*dlclose)(void *); /* the probe's handle: not heapprof's dlclose */
} glibc;

void hp_deepbind_glibc_free(void *p) { glibc.free(p); }
void *hp_deepbind_glibc_realloc(void *p, uptr size) {
  return glibc.realloc(p, size);
}
uptr hp_deepbind_glibc_usable_size(void *p) { return glibc.usable_size(p); }

/* ------------------------------------------------- what heapprof replaces */

/* Each name's definition as the global scope binds it (an executable's
 * own first, then this runtime's): through the symbol itself, so that
 * finding it allocates nothing and leaves no dlerror behind.  Weak: the
 * static runtime of a C program has no operator new. */
#define HP_REPLACED(name)                                                    \
  extern const char hp_bound_##name[] __asm__(#name) __attribute__((weak));
#include "heapprof_replaced.inc"
#undef HP_REPLACED

typedef struct target {
  const char *name;
  uptr addr; /* heapprof's definition */
} target_t;

static const target_t bound[] = {
#define HP_REPLACED(name) {#name, (uptr)hp_bound_##name},
#include "heapprof_replaced.inc"
#undef HP_REPLACED
};

static target_t targets[HP_ARRAY_SIZE(bound)];
static u32 n_targets;
static uptr own_base;        /* this runtime's object (or the executable) */
static struct link_map *own_map;
static hp_spinlock_t setup_lock, redirect_lock;
static bool set_up;

/* Once, before the first deep-bound load: heapprof's definitions, glibc's
 * free/realloc/malloc_usable_size; then hp_deepbind_opened. */
static HP_WRAPPER void setup(void) {
  hp_spin_lock(&setup_lock);
  if (!set_up) {
    Dl_info di;
    void *extra;
    if (dladdr1((void *)setup, &di, &extra, RTLD_DL_LINKMAP)) {
      own_base = (uptr)di.dli_fbase;
      own_map = extra;
    }
    /* A name bound elsewhere (a string function under heapprof run, a
     * program's own definition) is left alone. */
    for (u32 i = 0; i < HP_ARRAY_SIZE(bound); i++)
      if (bound[i].addr && dladdr((void *)bound[i].addr, &di) &&
          (uptr)di.dli_fbase == own_base)
        targets[n_targets++] = bound[i];
    glibc.free = (void (*)(void *))hp_glibc_sym("free");
    glibc.realloc = (void *(*)(void *, size_t))hp_glibc_sym("realloc");
    glibc.usable_size = (size_t(*)(void *))hp_glibc_sym("malloc_usable_size");
    glibc.dlclose = (int (*)(void *))hp_glibc_sym("dlclose");
    HP_CHECK(glibc.free && glibc.realloc && glibc.usable_size &&
             glibc.dlclose && "glibc's allocator functions not found");
    set_up = true;
    __atomic_store_n(&hp_deepbind_opened, true, __ATOMIC_RELEASE);
  }
  hp_spin_unlock(&setup_lock);
}

static const target_t *find_target(const char *name) {
  for (u32 i = 0; i < n_targets; i++)
    if (targets[i].name[0] == name[0] && !hp_strcmp(targets[i].name, name))
      return &targets[i];
  return NULL;
}

/* ---------------------------------------------- the objects a load added */

/* The objects loaded before the call, by the address of their program
 * headers. */
typedef struct objset {
  uptr *keys;
  u32 n, cap;
  uptr map_bytes;
} objset_t;

static int count_object(struct dl_phdr_info *i, size_t size, void *arg) {
  (void)i;
  (void)size;
  ++*(u32 *)arg;
  return 0;
}

static int note_object(struct dl_phdr_info *i, size_t size, void *arg) {
  (void)size;
  objset_t *s = arg;
  if (s->n < s->cap)
    s->keys[s->n++] = (uptr)i->dlpi_phdr;
  return 0;
}

/* An object loaded meanwhile by another thread (beyond cap) counts as new:
 * redirecting an object the global scope bound changes nothing. */
static void objset_take(objset_t *s) {
  u32 n = 0;
  dl_iterate_phdr(count_object, &n);
  s->cap = n + 16;
  s->map_bytes = HP_ROUND_UP(s->cap * sizeof(uptr), HP_PAGE_SIZE);
  s->keys = hp_mmap(s->map_bytes);
  s->n = 0;
  if (s->keys)
    dl_iterate_phdr(note_object, s);
}

static bool objset_has(const objset_t *s, uptr key) {
  for (u32 i = 0; i < s->n; i++)
    if (s->keys[i] == key)
      return true;
  return false;
}

/* --------------------------------------------------------- redirection */

typedef struct object {
  uptr bias;
  const ElfW(Phdr) *ph;
  u32 phnum;
  uptr relro_beg, relro_end; /* read-only after relocation, page-aligned */
  bool unprotected;
} object_t;

/* Whether slot can be written: in a writable segment; the RELRO part is
 * made writable once (and read-only again in redirect_object). */
static bool writable(object_t *o, uptr slot) {
  bool in_w = false;
  for (u32 k = 0; k < o->phnum; k++) {
    const ElfW(Phdr) *p = &o->ph[k];
    if (p->p_type == PT_LOAD && (p->p_flags & PF_W) &&
        slot >= o->bias + p->p_vaddr &&
        slot + sizeof(uptr) <= o->bias + p->p_vaddr + p->p_memsz)
      in_w = true;
  }
  if (!in_w)
    return false;
  if (slot < o->relro_beg || slot >= o->relro_end || o->unprotected)
    return true;
  if (mprotect((void *)o->relro_beg, o->relro_end - o->relro_beg,
               PROT_READ | PROT_WRITE) != 0)
    return false;
  o->unprotected = true;
  return true;
}

static u32 redirect_table(object_t *o, const ElfW(Rela) *r, uptr bytes,
                          const ElfW(Sym) *symtab, const char *strtab) {
  u32 changed = 0;
  for (uptr k = 0; k < bytes / sizeof(*r); k++) {
    u32 type = ELF64_R_TYPE(r[k].r_info), sym = ELF64_R_SYM(r[k].r_info);
    if (!sym || (type != R_X86_64_JUMP_SLOT && type != R_X86_64_GLOB_DAT &&
                 type != R_X86_64_64))
      continue;
    const target_t *t = find_target(strtab + symtab[sym].st_name);
    if (!t)
      continue;
    uptr v = t->addr + (type == R_X86_64_64 ? (uptr)r[k].r_addend : 0);
    uptr slot = o->bias + r[k].r_offset;
    if (*(volatile uptr *)slot != v && writable(o, slot)) {
      __atomic_store_n((uptr *)slot, v, __ATOMIC_RELAXED);
      changed++;
    }
  }
  return changed;
}

/* The loader rewrites the dynamic section's addresses in place (x86-64);
 * one it left as a link-time address is below the load bias. */
static uptr dyn_addr(uptr v, uptr bias) { return v && v < bias ? v + bias : v; }

static void redirect_object(struct dl_phdr_info *i) {
  object_t o = {i->dlpi_addr, i->dlpi_phdr, i->dlpi_phnum, 0, 0, false};
  const ElfW(Dyn) *d = NULL;
  for (u32 k = 0; k < o.phnum; k++) {
    const ElfW(Phdr) *p = &o.ph[k];
    if (p->p_type == PT_DYNAMIC)
      d = (const ElfW(Dyn) *)(o.bias + p->p_vaddr);
    if (p->p_type == PT_GNU_RELRO) {
      o.relro_beg = HP_ROUND_DOWN(o.bias + p->p_vaddr, HP_PAGE_SIZE);
      o.relro_end = HP_ROUND_DOWN(o.bias + p->p_vaddr + p->p_memsz, HP_PAGE_SIZE);
    }
  }
  if (!d)
    return;
  uptr symtab = 0, strtab = 0, rela = 0, relasz = 0, jmprel = 0, pltsz = 0;
  s64 pltrel = DT_RELA;
  for (; d->d_tag != DT_NULL; d++) {
    switch (d->d_tag) {
    case DT_SYMTAB: symtab = dyn_addr(d->d_un.d_ptr, o.bias); break;
    case DT_STRTAB: strtab = dyn_addr(d->d_un.d_ptr, o.bias); break;
    case DT_RELA: rela = dyn_addr(d->d_un.d_ptr, o.bias); break;
    case DT_RELASZ: relasz = d->d_un.d_val; break;
    case DT_JMPREL: jmprel = dyn_addr(d->d_un.d_ptr, o.bias); break;
    case DT_PLTRELSZ: pltsz = d->d_un.d_val; break;
    case DT_PLTREL: pltrel = (s64)d->d_un.d_val; break;
    }
  }
  if (!symtab || !strtab)
    return;
  const ElfW(Sym) *st = (const ElfW(Sym) *)symtab;
  const char *str = (const char *)strtab;
  if (rela)
    redirect_table(&o, (const ElfW(Rela) *)rela, relasz, st, str);
  if (jmprel && pltrel == DT_RELA)
    redirect_table(&o, (const ElfW(Rela) *)jmprel, pltsz, st, str);
  if (o.unprotected)
    mprotect((void *)o.relro_beg, o.relro_end - o.relro_beg, PROT_READ);
}

/* Under the loader's lock (dl_iterate_phdr's): no object goes away
 * meanwhile.  Nothing here calls into the loader. */
static int redirect_new(struct dl_phdr_info *i, size_t size, void *arg) {
  (void)size;
  const objset_t *before = arg;
  if (!objset_has(before, (uptr)i->dlpi_phdr) && i->dlpi_addr != own_base)
    redirect_object(i);
  return 0;
}

/* ----------------------------------------------- the name, as the caller */

/* Whether the loader would take path: an x86-64 ELF64 object. */
static bool loadable(const char *path) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return false;
  ElfW(Ehdr) e;
  ssize_t n = pread(fd, &e, sizeof(e), 0);
  close(fd);
  return n == (ssize_t)sizeof(e) && !hp_memcmp(e.e_ident, ELFMAG, SELFMAG) &&
         e.e_ident[EI_CLASS] == ELFCLASS64 && e.e_machine == EM_X86_64;
}

/* The directories the loader searches for a name an object loads, in order
 * (its RPATHs, LD_LIBRARY_PATH, its RUNPATH, the system's); unmapped with
 * hp_munmap(list, list->dls_size). */
static Dl_serinfo *search_list(struct link_map *m) {
  Dl_serinfo size;
  if (!m || dlinfo(m, RTLD_DI_SERINFOSIZE, &size) != 0)
    return NULL;
  Dl_serinfo *si = hp_mmap(size.dls_size);
  if (!si)
    return NULL;
  si->dls_size = size.dls_size;
  si->dls_cnt = size.dls_cnt;
  if (dlinfo(m, RTLD_DI_SERINFO, si) != 0) {
    hp_munmap(si, size.dls_size);
    return NULL;
  }
  return si;
}

static bool listed(const Dl_serinfo *si, const char *dir) {
  for (u32 k = 0; si && k < si->dls_cnt; k++)
    if (!hp_strcmp(si->dls_serpath[k].dls_name, dir))
      return true;
  return false;
}

static bool join(char *buf, const char *dir, const char *name) {
  size_t a = hp_strlen(dir), b = hp_strlen(name);
  if (a + 1 + b + 1 > PATH_MAX)
    return false;
  hp_memcpy(buf, dir, a);
  buf[a] = '/';
  hp_memcpy(buf + a + 1, name, b + 1);
  return true;
}

/* $ORIGIN and ${ORIGIN} in file, the caller's directory; the loader expands
 * the other tokens itself, the same from any caller. */
static const char *expand_origin(const char *file, struct link_map *caller,
                                 char *buf) {
  char origin[PATH_MAX];
  const char *obj = caller->l_name && caller->l_name[0] ? caller->l_name
                                                        : hp_exe_path();
  if (!obj || !realpath(obj, origin))
    return file;
  char *slash = origin;
  for (char *c = origin; *c; c++)
    if (*c == '/')
      slash = c;
  *slash = 0;
  size_t n = 0, olen = hp_strlen(origin);
  for (const char *c = file; *c;) {
    size_t tok = !hp_strncmp(c, "$ORIGIN", 7)     ? 7
                 : !hp_strncmp(c, "${ORIGIN}", 9) ? 9
                                                  : 0;
    if (tok == 7 && (c[7] == '_' || (c[7] >= 'A' && c[7] <= 'Z') ||
                     (c[7] >= 'a' && c[7] <= 'z') || (c[7] >= '0' && c[7] <= '9')))
      tok = 0; /* $ORIGINAL is no token */
    if (n + (tok ? olen : 1) + 1 > PATH_MAX)
      return file;
    if (tok) {
      hp_memcpy(buf + n, origin, olen);
      n += olen;
      c += tok;
    } else {
      buf[n++] = *c++;
    }
  }
  buf[n] = 0;
  return buf;
}

/* What to pass the loader so that it finds what the caller's dlopen would
 * have found: file itself when nothing of the caller's decides (a path, a
 * name already loaded, one found in a directory any caller searches), the
 * path found in one of the caller's own directories otherwise. */
static HP_WRAPPER const char *caller_path(const char *file,
                                          struct link_map *caller, char *buf) {
  if (!caller || caller == own_map)
    return file;
  if (hp_strchr(file, '$'))
    return expand_origin(file, caller, buf);
  if (hp_strchr(file, '/'))
    return file;
  void *loaded = real_dlopen(file, RTLD_LAZY | RTLD_NOLOAD);
  if (loaded) {
    glibc.dlclose(loaded);
    return file;
  }
  Dl_serinfo *mine = search_list(caller), *any = search_list(own_map);
  const char *r = file;
  for (u32 k = 0; mine && k < mine->dls_cnt; k++) {
    const char *dir = mine->dls_serpath[k].dls_name;
    if (join(buf, dir, file) && loadable(buf)) {
      r = listed(any, dir) ? file : buf;
      break;
    }
  }
  if (mine)
    hp_munmap(mine, mine->dls_size);
  if (any)
    hp_munmap(any, any->dls_size);
  return r;
}

/* ------------------------------------------------------------- dlopen */

static HP_WRAPPER void *deep_open(const char *file, int mode, uptr ra) {
  int cancel;
  pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &cancel);
  int saved_errno = errno;
  setup();
  Dl_info di;
  void *extra = NULL;
  struct link_map *caller =
      dladdr1((void *)ra, &di, &extra, RTLD_DL_LINKMAP) ? extra : NULL;
  Lmid_t ns = LM_ID_BASE;
  if (caller && dlinfo(caller, RTLD_DI_LMID, &ns) != 0)
    ns = LM_ID_BASE;
  char buf[PATH_MAX];
  const char *name = caller_path(file, caller, buf);
  objset_t before = {0};
  if (ns == LM_ID_BASE)
    objset_take(&before);
  errno = saved_errno;
  void *h = ns == LM_ID_BASE ? real_dlopen(name, mode)
                             : dlmopen(ns, name, mode);
  saved_errno = errno;
  if (h && before.keys) {
    hp_spin_lock(&redirect_lock);
    dl_iterate_phdr(redirect_new, &before);
    hp_spin_unlock(&redirect_lock);
  }
  if (before.keys)
    hp_munmap(before.keys, before.map_bytes);
  errno = saved_errno;
  pthread_setcancelstate(cancel, NULL);
  return h;
}

static HP_NOINLINE dlopen_fn find_dlopen(void) {
  dlopen_fn f = (dlopen_fn)dlsym(RTLD_NEXT, "dlopen");
  HP_CHECK(f && "cannot find the real dlopen");
  __atomic_store_n(&real_dlopen, f, __ATOMIC_RELEASE);
  return f;
}

HP_INTERFACE HP_WRAPPER void *dlopen(const char *file, int mode) {
  dlopen_fn f = __atomic_load_n(&real_dlopen, __ATOMIC_ACQUIRE);
  if (HP_UNLIKELY(!f))
    f = find_dlopen();
  if (HP_LIKELY(!(mode & RTLD_DEEPBIND) || !file))
    HP_MUSTTAIL return f(file, mode);
  return deep_open(file, mode, (uptr)__builtin_return_address(0));
}
