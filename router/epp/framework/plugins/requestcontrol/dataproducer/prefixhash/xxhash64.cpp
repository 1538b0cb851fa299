// Original to BLIS: XXH64 (see xxhash64.h), written from the public xxHash specification
// (https://github.com/Cyan4973/xxHash/blob/dev/doc/xxhash_spec.md, "XXH64 algorithm description").
#include "router/epp/framework/plugins/requestcontrol/dataproducer/prefixhash/xxhash64.h"

#include <bit>

namespace blis::router::prefixhash {
namespace {

// xxhash_spec.md "XXH64 algorithm description": the five 64-bit primes.
constexpr std::uint64_t PRIME64_1 = 0x9E3779B185EBCA87ULL;
constexpr std::uint64_t PRIME64_2 = 0xC2B2AE3D27D4EB4FULL;
constexpr std::uint64_t PRIME64_3 = 0x165667B19E3779F9ULL;
constexpr std::uint64_t PRIME64_4 = 0x85EBCA77C2B2AE63ULL;
constexpr std::uint64_t PRIME64_5 = 0x27D4EB2F165667C5ULL;

// The spec reads every lane as little-endian regardless of the host.
std::uint64_t readLE64(const std::uint8_t* p) {
  std::uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}
std::uint32_t readLE32(const std::uint8_t* p) {
  std::uint32_t v = 0;
  for (int i = 3; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}

// Spec "Step 2. Process stripes": round(accN, laneN).
std::uint64_t roundLane(std::uint64_t acc, std::uint64_t lane) {
  acc = acc + lane * PRIME64_2;
  acc = std::rotl(acc, 31);
  return acc * PRIME64_1;
}

// Spec "Step 3. Accumulator convergence": mergeAccumulator(acc, accN).
std::uint64_t mergeAccumulator(std::uint64_t acc, std::uint64_t accN) {
  acc = acc ^ roundLane(0, accN);
  acc = acc * PRIME64_1;
  return acc + PRIME64_4;
}

void initAccumulators(std::array<std::uint64_t, 4>& acc, std::uint64_t seed) {
  // Spec "Step 1. Initialize internal accumulators".
  acc[0] = seed + PRIME64_1 + PRIME64_2;
  acc[1] = seed + PRIME64_2;
  acc[2] = seed + 0;
  acc[3] = seed - PRIME64_1;
}

void processStripe(std::array<std::uint64_t, 4>& acc, const std::uint8_t* stripe) {
  for (std::size_t i = 0; i < 4; ++i) acc[i] = roundLane(acc[i], readLE64(stripe + 8 * i));
}

// Spec steps 3 to 6 over the accumulators (when totalLen >= 32), the unconsumed tail and the length.
std::uint64_t finish(const std::array<std::uint64_t, 4>& accs, std::uint64_t seed, std::uint64_t totalLen,
                     const std::uint8_t* tail, std::size_t tailLen) {
  std::uint64_t acc = 0;
  if (totalLen >= 32) {
    // Step 3. Accumulator convergence.
    acc = std::rotl(accs[0], 1) + std::rotl(accs[1], 7) + std::rotl(accs[2], 12) + std::rotl(accs[3], 18);
    for (std::uint64_t a : accs) acc = mergeAccumulator(acc, a);
  } else {
    // Special case: input shorter than one stripe.
    acc = seed + PRIME64_5;
  }
  // Step 4. Add input length.
  acc = acc + totalLen;
  // Step 5. Consume remaining input.
  std::size_t i = 0;
  for (; i + 8 <= tailLen; i += 8) {
    acc = acc ^ roundLane(0, readLE64(tail + i));
    acc = std::rotl(acc, 27) * PRIME64_1;
    acc = acc + PRIME64_4;
  }
  if (i + 4 <= tailLen) {
    acc = acc ^ (static_cast<std::uint64_t>(readLE32(tail + i)) * PRIME64_1);
    acc = std::rotl(acc, 23) * PRIME64_2;
    acc = acc + PRIME64_3;
    i += 4;
  }
  for (; i < tailLen; ++i) {
    acc = acc ^ (static_cast<std::uint64_t>(tail[i]) * PRIME64_5);
    acc = std::rotl(acc, 11) * PRIME64_1;
  }
  // Step 6. Final mix (avalanche).
  acc = acc ^ (acc >> 33);
  acc = acc * PRIME64_2;
  acc = acc ^ (acc >> 29);
  acc = acc * PRIME64_3;
  acc = acc ^ (acc >> 32);
  return acc;
}

std::span<const std::uint8_t> bytesOf(std::string_view s) {
  return {reinterpret_cast<const std::uint8_t*>(s.data()), s.size()};
}

}  // namespace

std::uint64_t XXH64(std::span<const std::uint8_t> data, std::uint64_t seed) {
  std::array<std::uint64_t, 4> acc{};
  initAccumulators(acc, seed);
  std::size_t off = 0;
  if (data.size() >= 32) {
    for (; off + 32 <= data.size(); off += 32) processStripe(acc, data.data() + off);
  }
  return finish(acc, seed, data.size(), data.data() + off, data.size() - off);
}

std::uint64_t XXH64(std::string_view data, std::uint64_t seed) { return XXH64(bytesOf(data), seed); }

Digest::Digest(std::uint64_t seed) : seed_(seed) { Reset(); }

void Digest::Reset() {
  initAccumulators(acc_, seed_);
  buffered_ = 0;
  totalLen_ = 0;
}

void Digest::Write(std::span<const std::uint8_t> data) {
  totalLen_ += data.size();
  std::size_t off = 0;
  if (buffered_ > 0) {
    // Top up the partial stripe first.
    while (buffered_ < 32 && off < data.size()) buffer_[buffered_++] = data[off++];
    if (buffered_ < 32) return;
    processStripe(acc_, buffer_.data());
    buffered_ = 0;
  }
  for (; off + 32 <= data.size(); off += 32) processStripe(acc_, data.data() + off);
  while (off < data.size()) buffer_[buffered_++] = data[off++];
}

void Digest::Write(std::string_view data) { Write(bytesOf(data)); }

std::uint64_t Digest::Sum64() const { return finish(acc_, seed_, totalLen_, buffer_.data(), buffered_); }

}  // namespace blis::router::prefixhash
