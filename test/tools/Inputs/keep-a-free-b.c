// The program of the tests that edit or feed a profile's words (counts-
// overflow.test, counts-overflow-sections.test, stdin-input.test): a() keeps 100
// objects of 204 bytes (20,400 bytes, live at exit), b() allocates and frees
// 10 of 50 (500 bytes): 110 allocations, 20,900 bytes, 10 frees.
#include <stdlib.h>

void *volatile keep[100];
__attribute__((noinline)) static void *a(void) { return malloc(204); }
__attribute__((noinline)) static void *b(void) { return malloc(50); }

int main(void) {
  for (int i = 0; i < 100; i++)
    keep[i] = a();
  for (int i = 0; i < 10; i++)
    free(b());
  return 0;
}
