// The closest place that is not the allowance: the same file name in another directory.
#include <cstdint>
#include <random>

namespace fixture {

std::mt19937_64 substream(std::uint64_t seed) {
  return std::mt19937_64(seed);  // expect: randomness outside a named substream
}

}  // namespace fixture
