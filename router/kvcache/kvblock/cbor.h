// Original to BLIS: the subset of CBOR encoding that pkg/kvcache/kvblock/token_processor.go@71f4f099
// chunkedTokenDatabase.hash takes from github.com/fxamacker/cbor/v2 (v2.9.2,
// cbor.CanonicalEncOptions().EncMode().Marshal) for the values it hashes: unsigned integers, null (Go nil,
// and nil slices under the library's default NilContainerAsNull), text strings, arrays, and a struct
// encoded as a map keyed by its field names. Written from RFC 8949 (CBOR) §3 (the initial byte: major type
// in the high 3 bits, additional information in the low 5; arguments < 24 inline, else 1, 2, 4 or 8
// big-endian bytes after additional information 24, 25, 26, 27), §3.3 (simple value 22 = null, 0xf6) and
// §4.2.1 (preferred serialization: the shortest argument); the canonical key order (RFC 7049 §3.9: shorter
// encoded key first, then bytewise) is only observable for maps with several keys, which the port never
// encodes (MMHash has one field).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace blis::router::kvblock {

class CborWriter {
 public:
  // RFC 8949 §3.1 major type 0 (unsigned integer), shortest argument.
  void Uint(std::uint64_t v) { head(0, v); }
  // RFC 8949 §3.1 major type 1 (negative integer -1-n).
  void NegInt(std::int64_t v) { head(1, static_cast<std::uint64_t>(-1 - v)); }
  // RFC 8949 §3.1 major type 3 (text string): length, then the UTF-8 bytes.
  void Text(std::string_view s) {
    head(3, s.size());
    out_.append(s.data(), s.size());
  }
  // RFC 8949 §3.1 major type 4 (array) header with n items to follow.
  void ArrayHeader(std::uint64_t n) { head(4, n); }
  // RFC 8949 §3.1 major type 5 (map) header with n pairs to follow.
  void MapHeader(std::uint64_t n) { head(5, n); }
  // RFC 8949 §3.3 simple value 22 (null).
  void Null() { out_.push_back(static_cast<char>(0xf6)); }

  const std::string& Bytes() const { return out_; }

 private:
  void head(unsigned major, std::uint64_t arg);
  std::string out_;
};

}  // namespace blis::router::kvblock
