// A region registered as a root (__heapprof_register_root_region) and then
// unmapped without being unregistered: as under LeakSanitizer, memory that
// cannot be read is skipped, so the 100 objects of 204 bytes whose only
// pointers were in the region are 100 direct leaks of 20400 bytes, and the
// program exits 0 with its profile.
//
// The 1 MiB hole is where the exit's first mappings go.  The check had
// let go of the buffer it read /proc/self/maps into, which its list of
// readable mappings still named, and read it there: SIGSEGV inside
// heapprof, no profile (in 7 runs of 12).  Under glibc's allocator the
// dump's own stack, mapped at the exit, landed there too, and the check
// read its own frames as the program's root: 95 leaks in 4 runs of 6.
// Each is run 10 times.
// RUN: %clang_heapprof -O0 -g %s -o %t
// RUN: sh -c 'for i in 1 2 3 4 5 6 7 8 9 10; do rm -rf "$0"; HEAPPROF_OPTIONS=profile_dir="$0" "$1" || exit 1; heapprof show "$0" > "$0.txt" || exit 1; grep -q " direct_objects=100 direct_bytes=20400 " "$0.txt" || { cat "$0.txt"; exit 1; }; done' %t.d %t
// RUN: %clang_plain -O0 -g %s -o %t.plain
// RUN: sh -c 'for i in 1 2 3 4 5 6 7 8 9 10; do rm -rf "$0"; env -u LD_PRELOAD heapprof run -o "$0" --allocator=system -- "$1" || exit 1; heapprof show "$0" > "$0.txt" || exit 1; grep -q " direct_objects=100 direct_bytes=20400 " "$0.txt" || { cat "$0.txt"; exit 1; }; done' %t.sys %t.plain
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

void __heapprof_register_root_region(const void *p, size_t size)
    __attribute__((weak));

#define OBJECTS 100
#define BYTES (1 << 20)

__attribute__((noinline)) static void *widget(void) { return malloc(204); }

// Clears the stack below main's frame, where the calls left the objects'
// addresses.
__attribute__((noinline)) static void scrub(void) {
  volatile char junk[16384];
  memset((char *)junk, 0, sizeof(junk));
}

int main(void) {
  void **r = mmap(NULL, BYTES, PROT_READ | PROT_WRITE,
                  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (r == MAP_FAILED)
    return 2;
  for (int k = 0; k < OBJECTS; k++)
    r[k] = widget();
  if (__heapprof_register_root_region)
    __heapprof_register_root_region(r, BYTES);
  munmap(r, BYTES);
  scrub();
  return 0;
}
