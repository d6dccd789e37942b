// bench/dhat (programs.sh), g++ -O2 -fomit-frame-pointer: std::string,
// vector, map, exceptions
#include <cstdio>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>
struct Rec { std::string name; std::vector<int> vals; };
__attribute__((noinline)) static Rec make(int i) {
  Rec r; r.name = "record-number-" + std::to_string(i) + std::string(i % 40, 'z');
  for (int j = 0; j < i % 17; j++) r.vals.push_back(j * i);
  return r;
}
__attribute__((noinline)) static int check(const Rec &r) {
  if (r.vals.size() == 13) throw std::runtime_error("thirteen values in " + r.name);
  return (int)r.vals.size();
}
int main() {
  std::map<std::string, Rec> m;
  long sum = 0, thrown = 0;
  for (int i = 0; i < 5000; i++) {
    Rec r = make(i);
    try { sum += check(r); } catch (const std::exception &e) { thrown += e.what()[0] == 't'; }
    m.emplace(r.name, std::move(r));
  }
  std::vector<std::string> keys;
  for (auto &kv : m) keys.push_back(kv.first);
  std::printf("%zu %ld %ld %zu\n", m.size(), sum, thrown, keys.size());
}
