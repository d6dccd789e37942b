#include <stdlib.h>

int *fill(void);

int main(void) {
  int *volatile p = fill();
  free(p);
  return 0;
}
