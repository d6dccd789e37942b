/* bench/dhat (programs.sh), gcc -O2 -fomit-frame-pointer: allocations
   under the frames most likely to trip a CFI walk */
#define _GNU_SOURCE
#include <iconv.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <alloca.h>

void *volatile sink[4096];
int nsink;
__attribute__((noinline)) void keep(void *p) { sink[nsink++ & 4095] = p; }

/* stack realignment: gcc's DW_CFA_def_cfa_expression */
__attribute__((noinline)) void realigned(int n) {
  _Alignas(64) char buf[64];
  memset(buf, n, sizeof buf);
  __asm__ volatile("" : : "r"(buf) : "memory");
  keep(malloc(100 + buf[3]));
}
__attribute__((noinline)) void realigned_caller(int n) {
  char x[40]; memset(x, n, sizeof x); __asm__ volatile("" : : "r"(x) : "memory");
  for (int i = 0; i < 10; i++) realigned(x[i] & 1);
}
/* alloca: CFA from rbp in an otherwise frame-pointer-less build */
__attribute__((noinline)) void with_alloca(int n) {
  char *b = alloca(n); memset(b, 1, n); __asm__ volatile("" : : "r"(b) : "memory");
  keep(malloc(200 + b[0]));
}
__attribute__((noinline)) void alloca_caller(int n) { for (int i = 0; i < 7; i++) with_alloca(n + i); }
/* a libc callback */
static int cmp(const void *a, const void *b) {
  keep(malloc(24));
  return *(const int *)a - *(const int *)b;
}
__attribute__((noinline)) void sorter(void) {
  int v[5] = {5, 3, 4, 1, 2};
  qsort(v, 5, sizeof v[0], cmp);
}
/* a signal handler */
static void handler(int s) { (void)s; keep(malloc(333)); }
__attribute__((noinline)) void signaller(void) {
  signal(SIGUSR1, handler);
  for (int i = 0; i < 3; i++) raise(SIGUSR1);
}
/* deep libc: iconv_open loads a gconv module */
__attribute__((noinline)) void converter(void) {
  iconv_t c = iconv_open("UTF-16", "ISO-8859-1");
  if (c != (iconv_t)-1) iconv_close(c);
}
/* a thread, and a key destructor run by libc at thread exit */
static pthread_key_t key;
static void dtor(void *p) { free(p); keep(malloc(77)); }
static void *thread_main(void *a) {
  pthread_setspecific(key, malloc(55));
  keep(malloc(66));
  return a;
}
__attribute__((noinline)) void threader(void) {
  pthread_key_create(&key, dtor);
  pthread_t t;
  pthread_create(&t, 0, thread_main, 0);
  pthread_join(t, 0);
}
static void at_exit_handler(void) { keep(malloc(99)); }
int main(int argc, char **argv) {
  (void)argv;
  atexit(at_exit_handler);
  realigned_caller(argc);
  alloca_caller(argc + 16);
  sorter();
  signaller();
  converter();
  threader();
  char *line = 0; size_t cap = 0;
  FILE *f = fopen("/proc/self/status", "r");
  while (getline(&line, &cap, f) > 0) {}
  fclose(f); free(line);
  printf("%d\n", nsink);
  return 0;
}
