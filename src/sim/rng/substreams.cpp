#include "sim/rng/substreams.h"

#include <stdexcept>

#include "contracts/sha256.h"

namespace blis::sim::rng {

namespace {

void append_le64(std::string& out, std::uint64_t v) {
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xFFu));
}

std::uint64_t read_le64(const contracts::Sha256::Digest& d, std::size_t at) {
  std::uint64_t v = 0;
  for (std::size_t i = 0; i < 8; ++i) v |= static_cast<std::uint64_t>(d[at + i]) << (8 * i);
  return v;
}

}  // namespace

Stream::Stream(PhiloxKey key, std::uint64_t counter_2, std::uint64_t counter_3)
    : key_(key), counter_{0, 0, counter_2, counter_3} {}

std::uint64_t Stream::next_u64() {
  if (used_ == 4) {
    block_ = philox4x64_10(counter_, key_);
    if (++counter_[0] == 0) ++counter_[1];  // the block index is 128 bits: carry into the high word
    used_ = 0;
  }
  ++draws_;
  return block_[used_++];
}

double Stream::uniform01() {
  constexpr double kTwoToMinus52 = 0x1p-52;
  return (static_cast<double>(next_u64() >> 12) + 0.5) * kTwoToMinus52;
}

std::uint64_t Stream::below(std::uint64_t n) {
  if (n == 0) throw std::invalid_argument("Stream::below: n must be at least 1, got 0");
  const std::uint64_t reject_under = (0 - n) % n;  // 2^64 mod n: [reject_under, 2^64) holds whole copies of n
  std::uint64_t x = next_u64();
  while (x < reject_under) x = next_u64();
  return x % n;
}

std::string substream_name_bytes(std::string_view component, std::string_view purpose, std::uint64_t entity) {
  if (component.empty()) throw std::invalid_argument("substream name: component must not be empty");
  if (purpose.empty()) throw std::invalid_argument("substream name: purpose must not be empty");
  std::string out;
  out.reserve(24 + component.size() + purpose.size());
  append_le64(out, component.size());
  out.append(component);
  append_le64(out, purpose.size());
  out.append(purpose);
  append_le64(out, entity);
  return out;
}

Stream Substreams::stream(std::string_view component, std::string_view purpose, std::uint64_t entity) const {
  const std::string name = substream_name_bytes(component, purpose, entity);
  std::string seed;
  append_le64(seed, seed_);
  contracts::Sha256 h;
  h.update(seed);
  h.update(name);
  const contracts::Sha256::Digest d = h.digest();
  return Stream({read_le64(d, 0), read_le64(d, 8)}, read_le64(d, 16), read_le64(d, 24));
}

}  // namespace blis::sim::rng
