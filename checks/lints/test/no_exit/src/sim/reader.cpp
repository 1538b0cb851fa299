// The simulator's library code is in scope as much as an engine's: a failed read that exits is flagged.
#include <cstdio>
#include <cstdlib>

namespace fixture {

int read_or_die(std::FILE* f) {
  if (f == nullptr) std::abort();  // expect: library code ends the process
  return std::fgetc(f);
}

}  // namespace fixture
