// resident: the process's resident set and its peak, for the tests that
// measure what the runtime keeps resident (dump_map_in_place.c,
// spill_log_released.c, release_freed_pages.c, thread_state_reuse.c,
// release_idle.c, release_idle_step.c).
// Read with system calls alone (open, read, close): stdio would allocate,
// and a reading would add an allocation (a context of its own in the
// profile) and resident pages to what it measures.  Each aborts when its
// file cannot be read or lacks the field.
#ifndef HEAPPROF_TEST_RESIDENT_H
#define HEAPPROF_TEST_RESIDENT_H
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define RESIDENT_HELPER __attribute__((unused)) static

// The start of a /proc file (all of status and statm), NUL-terminated.
RESIDENT_HELPER void proc_read(const char *path, char *buf, size_t size) {
  int fd = open(path, O_RDONLY);
  ssize_t n = fd < 0 ? -1 : read(fd, buf, size - 1);
  if (n <= 0)
    abort();
  close(fd);
  buf[n] = 0;
}

// A "Vm...:" line of /proc/self/status (name with its colon), in KiB.
RESIDENT_HELPER long status_kib(const char *name) {
  char buf[4096];
  proc_read("/proc/self/status", buf, sizeof(buf));
  const char *p = strstr(buf, name);
  if (!p)
    abort();
  return atol(p + strlen(name));
}

// The resident set, in KiB: /proc/self/statm's second field, in pages.
RESIDENT_HELPER long resident_kib(void) {
  char buf[256];
  proc_read("/proc/self/statm", buf, sizeof(buf));
  char *end;
  strtol(buf, &end, 10); /* the size */
  long pages = strtol(end, &end, 10);
  if (*end != ' ')
    abort();
  return pages * (sysconf(_SC_PAGESIZE) / 1024);
}

// Sets the peak resident set (status's VmHWM) to the resident set now:
// from here VmHWM is the peak of what follows.
RESIDENT_HELPER void reset_peak_resident(void) {
  int fd = open("/proc/self/clear_refs", O_WRONLY);
  if (fd < 0 || write(fd, "5", 1) != 1)
    abort();
  close(fd);
}

#undef RESIDENT_HELPER
#endif
