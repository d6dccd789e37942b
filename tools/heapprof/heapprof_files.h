/*===- heapprof_files.h - the tools' inputs, outputs and messages -------===
 *
 * Part of heapprof.  What every command that reads profiles and writes a
 * file (report, diff, flamegraph, pprof, html, merge, show) does the same
 * way, in C so that merge (C) and the C++ commands share it:
 *
 *   hpf_list_profiles  a directory's raw profiles: its regular files (or
 *                      links to them) named *.profraw, sorted by name;
 *   hpf_conflict       refuses an output that would overwrite an input,
 *                      or that a later read of an input directory would
 *                      take for a profile;
 *   hpf_write          writes a file whole or not at all (a temporary of
 *                      a unique name beside it, renamed), through a
 *                      symbolic link to its target, keeping an existing
 *                      file's permissions; a stream (-, /dev/stdout,
 *                      /dev/fd/N, a pipe, a device) is written directly;
 *                      not through another user's link, nor into their
 *                      FIFO or device, in a shared sticky directory;
 *   hpf_error          (heapprof_message.h) prints one `heapprof: KIND:
 *                      MESSAGE` line, control characters in the message
 *                      escaped so that it stays one line.
 *===----------------------------------------------------------------------===*/
#ifndef HEAPPROF_FILES_H
#define HEAPPROF_FILES_H

#include "heapprof_message.h"

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* DIR's raw profiles as "DIR/NAME" paths, sorted (*NAMES malloc'd, each
 * path too; free with hpf_free_list).  False with ERR set if DIR cannot
 * be read or holds none. */
bool hpf_list_profiles(const char *dir, char ***names, size_t *n, char *err,
                       size_t err_size);
void hpf_free_list(char **names, size_t n);

/* Whether writing OUT would destroy an input (OUT is one of the input
 * files: PATH@N counts as PATH) or an input directory would read OUT back
 * as a profile (OUT is named *.profraw in it); if so, ERR holds the
 * sentence that follows "OUT: " in the error. */
bool hpf_conflict(const char *out, const char *const *inputs, size_t ninputs,
                  char *err, size_t err_size);

/* Writes LEN bytes to PATH ("" or "-": standard output); a new regular
 * file gets MODE (masked by the umask).  On failure nothing is left
 * behind and ERR holds the reason. */
bool hpf_write(const char *path, const void *data, size_t len, unsigned mode,
               char *err, size_t err_size);

/* hpf_write in pieces, for an output bigger than what it is made from
 * (flamegraph's collapsed stacks): hpf_open (NULL with ERR set if PATH
 * cannot be written), hpf_put each piece, hpf_close.  A file appears,
 * whole, at hpf_close, and only if KEEP and every piece was written (false
 * with ERR set if one was not); a stream gets the pieces as they come. */
typedef struct hpf_out hpf_out_t;
hpf_out_t *hpf_open(const char *path, unsigned mode, char *err,
                    size_t err_size);
bool hpf_put(hpf_out_t *out, const void *data, size_t len);
bool hpf_close(hpf_out_t *out, bool keep, char *err, size_t err_size);

#ifdef __cplusplus
}
#endif

#endif
