/*===- heapprof_unloaded.c - modules dlclose unloaded -------------------===
 *
 * Part of heapprof.  See heapprof_unloaded.h.
 *===----------------------------------------------------------------------===*/
#include "heapprof_unloaded.h"

#include <dlfcn.h>
#include <errno.h>
#include <link.h>
#include <pthread.h>
#include <sys/mman.h>

/* The remembered modules, oldest first; each hp_module_t's unloaded_ms
 * says when. */
static struct {
  hp_spinlock_t lock;
  hp_module_t *mods;
  u64 n, cap;
  u64 dropped; /* unloaded while the list was full (or no memory left) */
} unloaded;

static bool same_module(const hp_module_t *a, const hp_module_t *b) {
  if (a->bias != b->bias || a->nsegs != b->nsegs ||
      a->build_id_size != b->build_id_size ||
      hp_memcmp(a->build_id, b->build_id, a->build_id_size) ||
      hp_strcmp(a->path, b->path))
    return false;
  for (u32 s = 0; s < a->nsegs; s++)
    if (a->segs[s].start != b->segs[s].start ||
        a->segs[s].end != b->segs[s].end)
      return false;
  return true;
}

/* Keeps the unloaded module's code addresses from being handed to a module
 * loaded later: with them reserved (PROT_NONE, no memory behind), an
 * address of the profile's stacks belongs to one module only, so a loaded
 * module's claim on it never hides an unloaded one's, and the CFI cache
 * (keyed by return address) never meets a stale entry.  Best effort: a
 * mapping another thread made there first keeps its place. */
static void reserve(const hp_module_t *m) {
  for (u32 s = 0; s < m->nsegs; s++) {
    uptr lo = m->segs[s].start & ~(uptr)4095;
    uptr hi = (m->segs[s].end + 4095) & ~(uptr)4095;
    void *p = mmap((void *)lo, hi - lo, PROT_NONE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE |
                       MAP_FIXED_NOREPLACE,
                   -1, 0);
    /* Kernels before 4.17 take the address as a hint. */
    if (p != MAP_FAILED && p != (void *)lo)
      munmap(p, hi - lo);
  }
}

/* A module loaded again at the same place (a plugin reloaded) is one entry,
 * moved to the end with the latest time. */
static void remember(const hp_module_t *m, u32 ms) {
  hp_spin_lock(&unloaded.lock);
  for (u64 i = 0; i < unloaded.n; i++)
    if (same_module(&unloaded.mods[i], m)) {
      hp_memmove(&unloaded.mods[i], &unloaded.mods[i + 1],
                 (unloaded.n - i - 1) * sizeof(hp_module_t));
      unloaded.n--;
      break;
    }
  if (unloaded.n >= HP_UNLOADED_MAX ||
      (unloaded.n == unloaded.cap &&
       !hp_array_try_grow((void **)&unloaded.mods, &unloaded.cap, unloaded.n,
                          sizeof(hp_module_t), 16))) {
    unloaded.dropped++;
  } else {
    hp_module_t *d = &unloaded.mods[unloaded.n++];
    *d = *m;
    d->unloaded = true;
    d->unloaded_ms = ms;
  }
  hp_spin_unlock(&unloaded.lock);
}

/* dl_iterate_phdr's callback after the real dlclose: a module of the map
 * read before the call that is still there is marked not unloaded.  It
 * must not allocate: a fresh mapping of the runtime's would land in the
 * space the unloaded module just left, before reserve() keeps it. */
static int mark_loaded(struct dl_phdr_info *info, size_t size, void *arg) {
  (void)size;
  hp_procmap_t *before = arg;
  const char *name = info->dlpi_name ? info->dlpi_name : "";
  /* A relative name was recorded as the file's path (heapprof_procmap.c):
   * such a module is told by its load address alone. */
  for (u64 i = 1; i < before->n; i++) {
    hp_module_t *m = &before->mods[i];
    if (m->unloaded && m->bias == info->dlpi_addr &&
        (name[0] != '/' || !hp_strncmp(m->path, name, sizeof(m->path) - 1)))
      m->unloaded = false;
  }
  return 0;
}

typedef int (*dlclose_fn)(void *);

/* dlclose may unload the handle's object and, with it, dependencies no one
 * else holds: whatever was loaded before the call and is not after it.  A
 * dlopen on another thread in between only adds modules; a dlclose there
 * may be seen by both calls, and is remembered once. */
HP_INTERFACE int dlclose(void *handle) {
  static dlclose_fn real;
  dlclose_fn f = __atomic_load_n(&real, __ATOMIC_ACQUIRE);
  if (!f) {
    f = (dlclose_fn)dlsym(RTLD_NEXT, "dlclose");
    HP_CHECK(f && "cannot find the real dlclose");
    __atomic_store_n(&real, f, __ATOMIC_RELEASE);
  }
  if (!hp_rtl.inited)
    return f(handle);
  int saved_errno = errno;
  /* The read of /proc/self/maps is no cancellation point of dlclose's: a
   * cancel there would leave the library loaded. */
  int cancel;
  pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &cancel);
  hp_procmap_t before;
  hp_procmap_read_loaded(&before);
  pthread_setcancelstate(cancel, NULL);
  errno = saved_errno;
  int r = f(handle);
  saved_errno = errno;
  if (r == 0) {
    u32 ms = hp_now_ms();
    /* The main program (first) is never unloaded. */
    for (u64 i = 1; i < before.n; i++)
      before.mods[i].unloaded = before.mods[i].nsegs > 0;
    dl_iterate_phdr(mark_loaded, &before);
    /* Only as many as the list will remember: a reload loop must not
     * spend the process's mappings (vm.max_map_count) on reservations. */
    u64 room = HP_UNLOADED_MAX - __atomic_load_n(&unloaded.n, __ATOMIC_RELAXED);
    for (u64 i = 1; i < before.n && room; i++)
      if (before.mods[i].unloaded) {
        reserve(&before.mods[i]);
        room--;
      }
    for (u64 i = 1; i < before.n; i++)
      if (before.mods[i].unloaded)
        remember(&before.mods[i], ms);
  }
  hp_procmap_free(&before);
  errno = saved_errno;
  return r;
}

void hp_unloaded_append(hp_procmap_t *m) {
  hp_spin_lock(&unloaded.lock);
  for (u64 i = unloaded.n; i-- > 0;) {
    if (m->n == m->cap &&
        !hp_array_try_grow((void **)&m->mods, &m->cap, m->n,
                           sizeof(hp_module_t), 32))
      break;
    m->mods[m->n++] = unloaded.mods[i];
  }
  hp_spin_unlock(&unloaded.lock);
}

void hp_unloaded_lock(void) { hp_spin_lock(&unloaded.lock); }
void hp_unloaded_unlock(void) { hp_spin_unlock(&unloaded.lock); }

static void put64(hp_buf_t *b, u64 v) { hp_buf_append(b, &v, 8); }

/* Section 11: u64 head_words (3), u64 nmodules, u64 dropped, then per
 * module, latest unloaded first: u64 unloaded_ms, u64 bias, u64 build id
 * size, u8 build id[32], u64 nsegs, nsegs x {u64 start, u64 end}, u64 path
 * length L, L bytes of path zero padded to a multiple of 8. */
void hp_unloaded_write_section(hp_buf_t *b, const hp_profile_info_t *info) {
  (void)info;
  hp_spin_lock(&unloaded.lock);
  if (unloaded.n || unloaded.dropped) {
    put64(b, 3);
    put64(b, unloaded.n);
    put64(b, unloaded.dropped);
    for (u64 i = unloaded.n; i-- > 0;) {
      const hp_module_t *m = &unloaded.mods[i];
      u8 id[HP_MAX_BUILD_ID] = {0};
      hp_memcpy(id, m->build_id, m->build_id_size);
      put64(b, m->unloaded_ms);
      put64(b, m->bias);
      put64(b, m->build_id_size);
      hp_buf_append(b, id, sizeof(id));
      put64(b, m->nsegs);
      for (u32 s = 0; s < m->nsegs; s++) {
        put64(b, m->segs[s].start);
        put64(b, m->segs[s].end);
      }
      static const u8 zeros[8];
      u64 len = hp_strlen(m->path);
      put64(b, len);
      hp_buf_append(b, m->path, len);
      hp_buf_append(b, zeros, HP_ROUND_UP(len, 8) - len);
    }
  }
  hp_spin_unlock(&unloaded.lock);
}
