// A required-tier test that reads the shared data directory, which only the data suite may declare.
#include <fstream>

int main() {
  std::ifstream in("../shared/data/MANIFEST.md");
  return in ? 0 : 1;
}
