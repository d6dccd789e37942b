// bench/dhat (programs.sh), g++ -O2 -fomit-frame-pointer: more frames a
// CFI walk may trip on
#include <algorithm>
#include <dirent.h>
#include <dlfcn.h>
#include <functional>
#include <glob.h>
#include <malloc.h>
#include <regex.h>
#include <signal.h>
#include <stdexcept>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <string>
#include <thread>
#include <vector>

void *volatile sink[4096];
int nsink;
__attribute__((noinline)) void keep(void *p) { sink[nsink++ & 4095] = p; }

struct Guard {  // a destructor run by the unwinder's cleanup
  __attribute__((noinline)) ~Guard() { keep(malloc(111)); }
};
__attribute__((noinline)) void thrower(int d) {
  Guard g;
  if (d == 0) throw std::runtime_error(std::string(50, 'e'));
  thrower(d - 1);
  keep(malloc(1));  // not reached
}
__attribute__((noinline)) void catcher() {
  for (int i = 0; i < 4; i++) {
    try { thrower(3); } catch (const std::exception &e) { keep(strdup(e.what())); }
  }
}
/* an allocation in a gcc .cold part */
__attribute__((cold, noinline)) void coldfn(int x) { keep((void *)(long)x); }
__attribute__((noinline)) void hotcold(int x) {
  if (__builtin_expect(x > 100, 0)) { keep(malloc(44)); coldfn(x); }
}
/* a handler on an alternate stack */
static void h2(int) { keep(malloc(222)); }
__attribute__((noinline)) void altsig() {
  static char alt[65536];
  stack_t ss = {}; ss.ss_sp = alt; ss.ss_size = sizeof alt;
  sigaltstack(&ss, nullptr);
  struct sigaction sa = {}; sa.sa_handler = h2; sa.sa_flags = SA_ONSTACK;
  sigaction(SIGUSR2, &sa, nullptr);
  raise(SIGUSR2);
}
__attribute__((noinline)) void aligned() {
  void *p; if (posix_memalign(&p, 64, 100) == 0) keep(p);
  keep(aligned_alloc(128, 256)); keep(memalign(32, 48)); keep(valloc(10));
}
__attribute__((noinline)) void libcstuff() {
  char *s; if (asprintf(&s, "%s-%d-%0100d", "abc", 7, 1) > 0) keep(s);
  regex_t re; regcomp(&re, "a[bc]+d*(e|f)", REG_EXTENDED); regfree(&re);
  glob_t g; glob("/etc/*.conf", 0, nullptr, &g); globfree(&g);
  struct dirent **nl; int n = scandir("/etc", &nl, nullptr, alphasort);
  for (int i = 0; i < n; i++) free(nl[i]);
  if (n >= 0) free(nl);
  char *buf; size_t len; FILE *m = open_memstream(&buf, &len);
  for (int i = 0; i < 2000; i++) fprintf(m, "%d,", i);
  fclose(m); free(buf);
}
__attribute__((noinline)) void cxxstuff() {
  std::vector<std::function<std::string(int)>> fs;
  for (int i = 0; i < 10; i++) fs.push_back([i](int x) { return std::string(30 + i + x, 'q'); });
  std::vector<std::string> v;
  for (auto &f : fs) v.push_back(f(3));
  std::sort(v.begin(), v.end(), [](const std::string &a, const std::string &b) { keep(malloc(8)); return a.size() > b.size(); });
  std::thread t([] { std::vector<int> w(1000); keep(new int[w.size()]); });
  t.join();
}
__attribute__((noinline)) void dl() {
  void *h = dlopen("libz.so.1", RTLD_NOW);
  if (h) dlclose(h);
}
int main(int argc, char **) {
  catcher(); hotcold(argc + 200); altsig(); aligned(); libcstuff(); cxxstuff(); dl();
  printf("%d\n", nsink);
}
