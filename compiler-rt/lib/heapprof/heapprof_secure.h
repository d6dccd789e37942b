/*===- heapprof_secure.h - privileged runs and safe profile files -------===
 *
 * Part of heapprof.  Secure mode (the kernel's AT_SECURE: setuid, setgid,
 * file capabilities) and the checks that keep profile files from being
 * redirected through symbolic links or planted files in shared directories.
 *===----------------------------------------------------------------------===*/
#ifndef HEAPPROF_SECURE_H
#define HEAPPROF_SECURE_H

/* True when the process runs with privileges its caller does not have: the
 * environment, the current directory and PATH belong to the caller and are
 * not trusted.  Read once from the auxiliary vector. */
bool hp_secure_mode(void);

/* Opens a directory that profiles may be written into: the descriptor, or
 * -1 with *why set to the reason (an errno text, or the directory is
 * writable by others (or by a group other than ours) without the sticky
 * bit, or is owned by someone other than this user or root). */
int hp_profile_dir_open(const char *dir, char *why, size_t why_size);

/* Creates a new file for writing in dirfd named NAME.tmp.<pid>.<random>
 * (written to tmp), never following or reusing an existing name, with
 * exactly the given permission bits.  -1 with errno on failure. */
int hp_profile_temp_create(int dirfd, const char *name, u32 mode, char *tmp,
                           size_t tmp_size);

/* Opens the existing profile NAME in dirfd to append to it.  Returns the
 * descriptor; -1 if there is no such file (start a new one); -2 with *why
 * set if it exists but must not be read: a symbolic link, not a regular
 * file, owned by another user, or with other hard links. */
int hp_profile_open_old(int dirfd, const char *name, char *why,
                        size_t why_size);

/* A short text for a file-system errno ("permission denied", ...). */
const char *hp_file_errno_text(int e);

/* profile_mode as permission bits: 600, 640, 644 (octal digits); 0 if
 * the value is not an accepted mode. */
u32 hp_profile_mode_bits(s64 flag_value);

#endif
