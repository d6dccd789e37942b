// std::make_shared of a Holder whose constructor make_shared's a Leaf, from
// two callers: make_a (3 times) and make_b (5); everything is kept.  Built
// by report-std-frames-nested.cpp and pprof-std-frames-nested.cpp, whose
// checks name this file's lines.
#include <memory>

struct Leaf {
  long v[4];
};

struct Holder {
  std::shared_ptr<Leaf> leaf;
  Holder() : leaf(std::make_shared<Leaf>()) {}
};

std::shared_ptr<Holder> *volatile kept[8];

__attribute__((noinline)) void make_a(int i) {
  kept[i] = new std::shared_ptr<Holder>(std::make_shared<Holder>());
}

__attribute__((noinline)) void make_b(int i) {
  kept[i] = new std::shared_ptr<Holder>(std::make_shared<Holder>());
}

int main() {
  for (int i = 0; i < 3; i++)
    make_a(i);
  for (int i = 3; i < 8; i++)
    make_b(i);
  return 0;
}
