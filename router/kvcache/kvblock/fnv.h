// Original to BLIS: FNV-1a (64- and 32-bit), the hash pkg/kvcache/kvblock/token_processor.go@71f4f099 and
// pkg/kvevents/pool.go@71f4f099 take from Go's hash/fnv (New64a, New32a). Written from the FNV
// specification (draft-eastlake-fnv, "FNV-1a": hash = offset_basis; for each octet: hash ^= octet;
// hash *= FNV_prime), with the 64-bit offset basis 14695981039346656037 and prime 2^40 + 2^8 + 0xb3, and the
// 32-bit offset basis 2166136261 and prime 2^24 + 2^8 + 0x93; multiplication modulo 2^64 / 2^32.
#pragma once

#include <cstdint>
#include <string_view>

namespace blis::router::kvblock {

inline constexpr std::uint64_t kFNV64OffsetBasis = 14695981039346656037ULL;
inline constexpr std::uint64_t kFNV64Prime = 1099511628211ULL;
inline constexpr std::uint32_t kFNV32OffsetBasis = 2166136261U;
inline constexpr std::uint32_t kFNV32Prime = 16777619U;

// hash/fnv New64a + Write(data) + Sum64.
inline std::uint64_t FNV64a(std::string_view data) {
  std::uint64_t h = kFNV64OffsetBasis;
  for (unsigned char c : data) {
    h ^= static_cast<std::uint64_t>(c);
    h *= kFNV64Prime;
  }
  return h;
}

// hash/fnv New32a + Write(data) + Sum32.
inline std::uint32_t FNV32a(std::string_view data) {
  std::uint32_t h = kFNV32OffsetBasis;
  for (unsigned char c : data) {
    h ^= static_cast<std::uint32_t>(c);
    h *= kFNV32Prime;
  }
  return h;
}

}  // namespace blis::router::kvblock
