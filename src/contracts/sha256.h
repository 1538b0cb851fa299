// SHA-256 (FIPS 180-4), written here so that content hashes (§3.3) and seeds (DEV-6) need no dependency.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace blis::contracts {

// An incremental SHA-256: update() any number of times, then digest() once.
class Sha256 {
 public:
  using Digest = std::array<std::uint8_t, 32>;

  Sha256();
  void update(std::span<const std::uint8_t> bytes);
  void update(std::string_view bytes);
  Digest digest();  // finishes the hash; the object must not be updated afterwards

 private:
  void block(const std::uint8_t* p);

  std::array<std::uint32_t, 8> h_;
  std::array<std::uint8_t, 64> buf_{};
  std::size_t used_ = 0;     // bytes waiting in buf_
  std::uint64_t total_ = 0;  // message length in bytes
  bool done_ = false;
};

// Lower-case hexadecimal of a digest.
std::string to_hex(const Sha256::Digest& d);

// The SHA-256 of bytes, as 64 lower-case hexadecimal digits.
std::string sha256_hex(std::string_view bytes);

}  // namespace blis::contracts
