// The closest place that is not the allowance: a command of src/cli/ other than main.
#include <cstdlib>

namespace fixture {

int run(bool ok) {
  if (!ok) std::exit(2);  // expect: library code ends the process
  return 0;
}

}  // namespace fixture
