#include <stdlib.h>
int main(void) {
  char *volatile p = malloc(24);
  p[0] = 1;
  free(p);
  return 0;
}
