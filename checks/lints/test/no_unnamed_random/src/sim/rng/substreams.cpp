// The declared allowance of blis-no-unnamed-random: the named-substream factory seeds the engines.
#include <cstdint>
#include <random>

namespace fixture {

std::mt19937_64 substream(std::uint64_t seed) {
  return std::mt19937_64(seed);  // near-miss: the factory is the one place an engine is seeded
}

}  // namespace fixture
