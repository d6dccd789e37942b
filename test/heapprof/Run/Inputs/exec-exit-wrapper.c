/* A library that wraps the exec calls and _exit/_Exit, as an exec logger
 * or a sandbox preloaded beside heapprof does: each call writes
 *   wrapped NAME [status]
 * to stderr, then goes on to the next definition.  Preloaded after
 * heapprof's runtime, it must still see every call the program makes. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

typedef int (*execve_fn)(const char *, char *const[], char *const[]);
typedef int (*execveat_fn)(int, const char *, char *const[], char *const[],
                           int);
typedef int (*fexecve_fn)(int, char *const[], char *const[]);
typedef void (*exit_fn)(int);
static execve_fn next_execve;
static execveat_fn next_execveat;
static fexecve_fn next_fexecve;
static exit_fn next_exit, next_Exit;

/* Also called by each wrapper: a library whose constructor runs before
 * this one's may already exec or exit (preload-before-init.c). */
__attribute__((constructor)) static void resolve(void) {
  if (next_Exit)
    return;
  next_execve = (execve_fn)dlsym(RTLD_NEXT, "execve");
  next_execveat = (execveat_fn)dlsym(RTLD_NEXT, "execveat");
  next_fexecve = (fexecve_fn)dlsym(RTLD_NEXT, "fexecve");
  next_exit = (exit_fn)dlsym(RTLD_NEXT, "_exit");
  next_Exit = (exit_fn)dlsym(RTLD_NEXT, "_Exit");
}

static void say(const char *name, int status) {
  char line[64];
  int n = status < 0 ? snprintf(line, sizeof(line), "wrapped %s\n", name)
                     : snprintf(line, sizeof(line), "wrapped %s %d\n", name,
                                status);
  write(2, line, (size_t)n);
}

int execve(const char *path, char *const argv[], char *const envp[]) {
  say("execve", -1);
  resolve();
  return next_execve(path, argv, envp);
}
int execveat(int dirfd, const char *path, char *const argv[],
             char *const envp[], int flags) {
  say("execveat", -1);
  resolve();
  return next_execveat(dirfd, path, argv, envp, flags);
}
int fexecve(int fd, char *const argv[], char *const envp[]) {
  say("fexecve", -1);
  resolve();
  return next_fexecve(fd, argv, envp);
}
void _exit(int status) {
  say("_exit", status);
  resolve();
  next_exit(status);
  __builtin_unreachable();
}
void _Exit(int status) {
  say("_Exit", status);
  resolve();
  next_Exit(status);
  __builtin_unreachable();
}
