/*===- heapprof_spawn.h - posix_spawn under the program's own limit ------===
 *
 * Part of heapprof.
 *===----------------------------------------------------------------------===*/
#ifndef HEAPPROF_SPAWN_H
#define HEAPPROF_SPAWN_H

#include <spawn.h>

/* Whether a posix_spawn is to be made by hp_spawn_limited: the program
 * holds an RLIMIT_AS or RLIMIT_DATA soft limit it set itself (raised by
 * the reservations), outside its seccomp sandbox, and glibc's file
 * actions have the layout heapprof_spawn.c reads.  Not from a vfork child
 * or a signal handler (the first call checks the layout with glibc's
 * functions, which allocate). */
bool hp_spawn_limited_wanted(void);

/* posix_spawn (search: posix_spawnp) as glibc's, but the child's soft
 * limits are the program's; the same results. */
int hp_spawn_limited(pid_t *pid, const char *file, bool search,
                     const posix_spawn_file_actions_t *fa,
                     const posix_spawnattr_t *attr, char *const argv[],
                     char *const envp[]);

#endif
